"""The contract every store keeps: memory, SQLite and PostgreSQL alike."""

from __future__ import annotations

from types import NoneType
from typing import Any

import pytest

from referee.errors import NotFound, VersionConflict
from referee.store.base import KEEP, Due, Snapshot, Store, StoreConflict, StoredSpec, Write

SETUP = {
    "game": "pontinho",
    "options": {"joker_rule": "next_rank_same_suit"},
    "seats": 3,
    "dealer": 0,
    "seed": None,
    "deal": {"hands": {0: ["2S"], 1: ["3H"]}, "turned": "9D"},
    "scores": {1: 40},
}
TOKENS = {0: "a" * 64, 1: "b" * 64, 2: "c" * 64}
RULES = StoredSpec("1" * 64, "pontinho", '{"files":[{"file":"specs/pontinho.yaml","text":"x: 1"}]}')
CORRECTED = StoredSpec(
    "2" * 64, "pontinho", '{"files":[{"file":"specs/pontinho.yaml","text":"x: 2"}]}'
)
DRAW = {"type": "draw"}
ACCEPTED = {
    "outcome": "accepted",
    "violations": [],
    "version": 1,
    "events": [{"kind": "drew", "data": {"seat": 1}, "secret": {"card": "4C"}, "audience": [1]}],
}
REJECTED = {
    "outcome": "rejected",
    "version": 1,
    "events": [],
    "violations": [
        {
            "rule": "GEN-7",
            "message": "not your turn",
            "cites": [],
            "cards": [],
            "code": "rule_broken",
        }
    ],
}


def test_a_new_table_loads_with_its_setup_and_token_hashes(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    record = store.load_table("t1")
    assert (record.table_id, record.version, record.moves) == ("t1", 0, ())
    assert record.setup == SETUP  # seat keys come back as ints, as they went in
    assert record.token_hashes == TOKENS


def test_a_table_id_is_used_once(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    with pytest.raises(StoreConflict):
        store.create_table("t1", SETUP, TOKENS)


def test_an_unknown_table_is_not_found_everywhere(store: Store) -> None:
    with pytest.raises(NotFound, match="unknown table `nope`"):
        store.load_table("nope")
    with pytest.raises(NotFound):
        store.append_move("nope", 1, 0, DRAW, None, ACCEPTED)
    with pytest.raises(NotFound):
        store.record_rejection("nope", 0, DRAW, "m1", REJECTED)
    with pytest.raises(NotFound):
        store.version("nope")


def test_accepted_moves_come_back_in_order(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, "m1", ACCEPTED)
    store.append_move("t1", 2, 1, {"type": "discard", "card": "JH"}, None, ACCEPTED)
    record = store.load_table("t1")
    assert store.version("t1") == record.version == 2
    assert [(m.seq, m.seat, m.move["type"], m.move_id) for m in record.moves] == [
        (1, 1, "draw", "m1"),
        (2, 1, "discard", None),
    ]
    assert record.moves[0].verdict == ACCEPTED


def test_a_sequence_number_is_taken_once(store: Store) -> None:
    """Two writers racing on one table: the second gets a conflict (a version conflict)."""
    store.create_table("t1", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, None, ACCEPTED)
    with pytest.raises(StoreConflict):
        store.append_move("t1", 1, 2, DRAW, None, ACCEPTED)
    with pytest.raises(VersionConflict):  # StoreConflict is one
        store.append_move("t1", 3, 1, DRAW, None, ACCEPTED)  # no gap either
    assert store.version("t1") == 1


def test_a_move_id_is_used_once_accepted_or_rejected(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.record_rejection("t1", 2, DRAW, "m1", REJECTED)
    with pytest.raises(StoreConflict):
        store.append_move("t1", 1, 1, DRAW, "m1", ACCEPTED)
    store.append_move("t1", 1, 1, DRAW, "m2", ACCEPTED)
    with pytest.raises(StoreConflict):
        store.record_rejection("t1", 1, DRAW, "m2", REJECTED)
    assert store.version("t1") == 1


def test_the_first_verdict_of_a_move_id_is_found(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, "m1", ACCEPTED)
    store.record_rejection("t1", 2, DRAW, "m2", REJECTED)
    accepted, rejected = store.find_verdict("t1", "m1"), store.find_verdict("t1", "m2")
    assert accepted is not None and accepted.accepted and accepted.verdict == ACCEPTED
    assert rejected is not None and not rejected.accepted
    assert (rejected.seat, rejected.move, rejected.verdict) == (2, DRAW, REJECTED)
    assert store.find_verdict("t1", "m3") is None


def test_rejections_are_not_moves(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.record_rejection("t1", 2, DRAW, "m1", REJECTED)
    assert store.version("t1") == 0
    assert store.load_table("t1").moves == ()


def test_move_ids_belong_to_their_table(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.create_table("t2", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, "m1", ACCEPTED)
    store.append_move("t2", 1, 1, DRAW, "m1", ACCEPTED)
    assert store.find_verdict("t2", "m1") is not None
    assert store.table_ids() == ["t1", "t2"]


def test_what_is_read_back_is_a_copy(store: Store) -> None:
    setup: dict[str, Any] = {"game": "pontinho", "options": {}}
    store.create_table("t1", setup, TOKENS)
    setup["options"]["joker_rule"] = "changed"
    loaded = store.load_table("t1")
    loaded.setup["options"]["x"] = 1
    assert store.load_table("t1").setup == {"game": "pontinho", "options": {}}


def test_decimal_keys_are_read_back_as_seat_numbers(store: Store) -> None:
    """JSON has only string keys: `{"1": 40}` and `{1: 40}` are one thing, read back as seat 1."""
    store.create_table("t1", {"game": "pontinho", "scores": {"1": 40, "-1": 0, "01": 2}}, TOKENS)
    assert store.load_table("t1").setup["scores"] == {1: 40, -1: 0, "01": 2}


def test_the_moves_after_a_version_are_the_ones_a_cached_table_lacks(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    for seq in (1, 2, 3):
        store.append_move("t1", seq, 1, DRAW, f"m{seq}", ACCEPTED)
    store.record_rejection("t1", 2, DRAW, "r1", REJECTED)  # not a move
    assert [m.seq for m in store.moves_after("t1", 1)] == [2, 3]
    assert [m.move_id for m in store.moves_after("t1", 0)] == ["m1", "m2", "m3"]
    assert store.moves_after("t1", 3) == ()
    assert store.moves_after("nope", 0) == ()


def test_a_move_sets_keeps_or_clears_its_tables_deadline(store: Store) -> None:
    """The pending deadline is written with the move that leaves it, in the same commit."""
    store.create_table("t1", SETUP, TOKENS)
    store.create_table("t2", SETUP, TOKENS)
    assert store.deadline("t1") is None and store.deadlines() == {}
    window = Due(1, 1_800_000_000.25)
    store.append_move("t1", 1, 1, DRAW, None, ACCEPTED, deadline=window)
    assert store.deadline("t1") == window == store.load_table("t1").deadline
    store.append_move("t1", 2, 2, DRAW, None, ACCEPTED)  # KEEP, the default
    store.append_move("t2", 1, 1, DRAW, None, ACCEPTED, deadline=Due(7, 5.5))
    assert store.deadlines() == {"t1": window, "t2": Due(7, 5.5)}
    store.append_move("t1", 3, 1, DRAW, None, ACCEPTED, deadline=None)
    assert store.deadline("t1") is None and store.load_table("t1").deadline is None
    assert store.deadlines() == {"t2": Due(7, 5.5)}
    with pytest.raises(NotFound):
        store.deadline("nope")


def test_a_move_that_loses_its_race_leaves_the_deadline_alone(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, None, ACCEPTED, deadline=Due(1, 10.0))
    with pytest.raises(StoreConflict):
        store.append_move("t1", 1, 2, DRAW, None, ACCEPTED, deadline=Due(2, 20.0))
    with pytest.raises(StoreConflict):
        store.append_move("t1", 1, 2, DRAW, None, ACCEPTED, deadline=KEEP)
    assert store.deadline("t1") == Due(1, 10.0)


def test_a_table_read_after_its_snapshot_skips_the_moves_before_it(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    for seq in range(1, 6):
        taken = Snapshot(seq, f"state {seq}") if seq in (2, 3) else None
        store.append_move("t1", seq, 1, DRAW, f"m{seq}", ACCEPTED, snapshot=taken)
    whole = store.load_table("t1")
    assert (whole.snapshot, whole.skipped, whole.version, len(whole.moves)) == (None, 0, 5, 5)
    after = store.load_table("t1", after_snapshot=True)
    assert after.snapshot == Snapshot(3, "state 3")
    assert after.skipped == 2 and after.version == 5  # move 3 is read: the snapshot's check
    assert [m.seq for m in after.moves] == [3, 4, 5] and after.moves == whole.moves[2:]


def test_a_table_with_no_snapshot_is_read_whole(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, None, ACCEPTED)
    after = store.load_table("t1", after_snapshot=True)
    assert (after.snapshot, after.skipped, [m.seq for m in after.moves]) == (None, 0, [1])


def test_the_first_snapshot_at_a_version_stays(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.append_move("t1", 1, 1, DRAW, None, ACCEPTED, snapshot=Snapshot(1, "one"))
    store.append_move("t1", 2, 1, DRAW, None, ACCEPTED, snapshot=Snapshot(1, "stale"))
    with pytest.raises(StoreConflict):  # a move that loses its race leaves no snapshot
        store.append_move("t1", 2, 1, DRAW, None, ACCEPTED, snapshot=Snapshot(2, "lost"))
    assert store.load_table("t1", after_snapshot=True).snapshot == Snapshot(1, "one")


def test_every_snapshot_is_kept_and_found_at_or_before_a_version(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    for seq in range(1, 8):
        taken = Snapshot(seq, f"state {seq}") if seq in (2, 5) else None
        store.append_move("t1", seq, 1, DRAW, None, ACCEPTED, snapshot=taken)
    found = [store.snapshot_before("t1", version) for version in range(9)]
    assert found == [None, None] + [Snapshot(2, "state 2")] * 3 + [Snapshot(5, "state 5")] * 4
    assert store.load_table("t1", after_snapshot=True).snapshot == Snapshot(5, "state 5")
    assert store.snapshot_before("nope", 5) is None


def test_the_moves_between_two_versions_are_read_alone(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    store.create_table("t2", SETUP, TOKENS)
    for seq in range(1, 6):
        store.append_move("t1", seq, 1, DRAW, f"m{seq}", ACCEPTED)
        store.append_move("t2", seq, 2, DRAW, None, ACCEPTED)
    store.record_rejection("t1", 2, DRAW, "no", REJECTED)  # not an accepted move: never read
    whole = store.load_table("t1").moves
    assert store.moves_between("t1", 1, 4) == whole[1:4]
    assert [m.seq for m in store.moves_between("t1", 0, 9)] == [1, 2, 3, 4, 5]
    assert store.moves_between("t1", 3, 3) == store.moves_between("t1", 5, 9) == ()
    assert store.moves_between("nope", 0, 5) == ()


def test_a_table_is_pinned_to_its_rules_version_and_the_text_is_kept(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS, RULES)
    assert store.load_table("t1").rules_version == RULES.version
    assert store.load_table("t1", after_snapshot=True).rules_version == RULES.version
    assert store.stored_spec(RULES.version) == RULES


def test_a_rules_version_is_kept_once_for_every_table_that_plays_it(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS, RULES)
    store.create_table("t2", SETUP, TOKENS, StoredSpec(RULES.version, "pontinho", "other text"))
    store.create_table("t3", SETUP, TOKENS, CORRECTED)
    assert store.stored_spec(RULES.version) == RULES  # the first text written stays
    assert store.stored_spec(CORRECTED.version) == CORRECTED
    versions = [store.load_table(t).rules_version for t in ("t1", "t2", "t3")]
    assert versions == [RULES.version, RULES.version, CORRECTED.version]


def test_a_table_created_with_no_rules_version_has_none(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS)
    assert store.load_table("t1").rules_version is None
    assert store.stored_spec("3" * 64) is None


def test_a_table_whose_id_is_taken_keeps_its_own_version(store: Store) -> None:
    store.create_table("t1", SETUP, TOKENS, RULES)
    with pytest.raises(StoreConflict):
        store.create_table("t1", SETUP, TOKENS, CORRECTED)
    assert store.load_table("t1").rules_version == RULES.version


def test_the_first_signing_key_offered_is_the_one_kept(store: Store) -> None:
    assert store.signing_key("a" * 64) == "a" * 64
    assert store.signing_key("b" * 64) == "a" * 64  # a second process starting: the same key


def test_writes_submitted_together_fail_alone(store: Store) -> None:
    """Writes queued while the writer commits are committed as one group: a refused one (its
    move id taken, its move not next) fails alone, and the others are all committed."""
    for table_id in ("t1", "t2"):
        store.create_table(table_id, SETUP, TOKENS)
    writes = [
        Write("t1", 1, 1, DRAW, "m-1", ACCEPTED),
        Write("t2", 1, 1, DRAW, "m-1", ACCEPTED),  # move ids belong to their table
        Write("t1", None, 1, DRAW, "m-1", REJECTED),  # taken at t1
        Write("t2", 3, 1, DRAW, None, ACCEPTED),  # t2 is at version 1: move 3 is not next
        Write("t1", None, 2, DRAW, "m-2", REJECTED),
        Write("t1", 2, 2, DRAW, "m-3", ACCEPTED),
    ]
    futures = [store.submit(write) for write in writes]  # none waited for before the last
    refused = [type(future.exception(timeout=10)) for future in futures]
    assert refused == [NoneType, NoneType, StoreConflict, StoreConflict, NoneType, NoneType]
    assert [m.move_id for m in store.load_table("t1").moves] == ["m-1", "m-3"]
    assert store.version("t2") == 1
    found = store.find_verdict("t1", "m-2")
    assert found is not None and not found.accepted
