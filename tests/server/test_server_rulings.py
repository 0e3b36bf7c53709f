"""The director's rulings over gRPC (issue 16): only the operator's token rules; a rewind is told
to every watcher and shows in every view; a ruling is in the signed record, which verifies and
replays; a table with rulings loads again from its store, snapshot or log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.app import ServerConfig
from referee.calls.limits import Limits
from referee.engine.disputes import Bounds
from referee.engine.game import Game
from referee.engine.table import Table
from referee.model import Move
from referee.records.verification import verify
from referee.server.convert import data_to_struct, struct_to_data
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore
from tests.support.server import DEAL, OpenTable, seat_metadata, status_of, stub_of

OPERATOR = "the-operator's-secret"
AS_DIRECTOR = (("x-create-token", OPERATOR),)


@pytest.fixture
def service(games: dict[str, Game]) -> RefereeService:
    return RefereeService(MemoryStore(), games, allow_stacked=True)


@pytest.fixture
def stub(service: RefereeService) -> Iterator[referee_pb2_grpc.RefereeStub]:
    with stub_of(service, ServerConfig(create_token=OPERATOR)) as stub:
        yield stub


@pytest.fixture
def disputed(stub: referee_pb2_grpc.RefereeStub) -> OpenTable:
    """Seat 1 draws 4C (version 1) and discards JH (2); seat 2 disputes the discard (3)."""
    table = open_table_as_operator(stub)
    table.propose(1, "draw")
    table.propose(1, "discard", card="JH")
    assert table.propose(2, "dispute", version=2, reason="too fast").version == 3
    return table


def open_table_as_operator(stub: referee_pb2_grpc.RefereeStub) -> OpenTable:
    """A Pontinho table of `DEAL` (CreateTable at this server needs the operator's token)."""
    request = pb.CreateTableRequest(game="pontinho", seats=3, seed=0, deal=data_to_struct(DEAL))
    created = stub.CreateTable(request, metadata=AS_DIRECTOR)
    tokens = {seat.seat: seat.token for seat in created.seats}
    return OpenTable(stub, created.table_id, tokens, created.commitment)


def rule(
    stub: Any, table: OpenTable, *, metadata: Any = AS_DIRECTOR, **decision: Any
) -> pb.Verdict:
    request = pb.RuleRequest(
        table_id=table.table_id, dispute=3, note="the discard stands", **decision
    )
    response: pb.RuleResponse = stub.Rule(request, metadata=metadata)
    return response.verdict


def test_only_the_operator_s_token_rules(stub: Any, disputed: OpenTable) -> None:
    for metadata in (
        (),  # nobody
        seat_metadata(disputed.tokens[2]),  # the disputing seat
        (("x-create-token", "a guess"),),
        (("x-create-token", disputed.tokens[0]),),
    ):
        code = status_of(lambda m=metadata: rule(stub, disputed, metadata=m, uphold=pb.Uphold()))
        assert code == grpc.StatusCode.PERMISSION_DENIED
    assert disputed.version() == 3
    seat = disputed.propose(2, "ruling", dispute=3, decision="uphold", note="mine")
    assert seat.outcome == pb.OUTCOME_REJECTED and seat.violations[0].code == "director_only"


def test_a_rewind_is_told_to_every_watcher_and_shows_in_every_view(
    stub: Any, disputed: OpenTable
) -> None:
    hand_before = disputed.view(1)["hand"]
    verdict = rule(stub, disputed, rewind=pb.Rewind(to=1))
    assert verdict.outcome == pb.OUTCOME_ACCEPTED and verdict.version == 4 and verdict.seat == -1
    assert [e.kind for e in verdict.events] == ["rewound"]
    for metadata in (seat_metadata(disputed.tokens[0]), seat_metadata(None), AS_DIRECTOR):
        stream = stub.Watch(
            pb.WatchRequest(table_id=disputed.table_id, from_version=3), metadata=metadata
        )
        update = next(iter(stream))
        stream.cancel()
        assert (update.version, update.seat) == (4, -1)
        (event,) = update.events
        assert struct_to_data(event.data)["voided"] == [2]
        assert "back as it was at version 1" in event.text
    view = disputed.view(1)
    assert sorted(view["hand"]) == sorted([*hand_before, "JH"])  # the discard is undone
    assert (view["disputes"], view["disputes_ruled"]) == ([], 1)  # ruled: no longer listed
    director = stub.GetView(pb.GetViewRequest(table_id=disputed.table_id), metadata=AS_DIRECTOR)
    assert director.seat == -1 and set(struct_to_data(director.view)["hands"]) == {0, 1, 2}
    assert disputed.propose(1, "discard", card="KH").outcome == pb.OUTCOME_ACCEPTED


def test_a_ruling_sent_again_gets_its_first_verdict(stub: Any, disputed: OpenTable) -> None:
    first = rule(stub, disputed, ruling_id="r-1", uphold=pb.Uphold())
    again = rule(stub, disputed, ruling_id="r-1", uphold=pb.Uphold())
    assert first.outcome == again.outcome == pb.OUTCOME_ACCEPTED
    assert again.version == first.version == disputed.version() == 4


def test_a_ruling_that_cannot_be_made_is_a_rejected_verdict(stub: Any, disputed: OpenTable) -> None:
    late = rule(stub, disputed, rewind=pb.Rewind(to=2))
    assert (
        late.outcome == pb.OUTCOME_REJECTED
        and "a version from 0 to 2" in late.violations[0].message
    )
    request = pb.RuleRequest(table_id=disputed.table_id, dispute=3, note="n")  # no decision
    code = status_of(lambda: stub.Rule(request, metadata=AS_DIRECTOR))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert disputed.version() == 3


def test_the_signed_record_holds_the_ruling_and_replays(
    stub: Any, disputed: OpenTable, games: dict[str, Game]
) -> None:
    rule(stub, disputed, adjust=pb.Adjust(seat=1, amount=10, tally="score"))
    answer = stub.GetRecord(pb.GetRecordRequest(table_id=disputed.table_id), metadata=AS_DIRECTOR)
    record = json.loads(answer.record)
    assert record["steps"][3]["seat"] == "director"
    assert record["steps"][3]["move"]["decision"] == "adjust"
    verified = verify(answer.record, games.values())
    assert verified.holds, verified
    seen = stub.GetRecord(
        pb.GetRecordRequest(table_id=disputed.table_id), metadata=seat_metadata(disputed.tokens[0])
    )
    step = json.loads(seen.record)["steps"][3]
    assert step["seat"] == "director" and step["move"]["note"] == "the discard stands"
    assert step["events"][0]["total"] == 10


@pytest.mark.parametrize("snapshot_every", [0, 1])
def test_a_table_with_a_rewind_loads_again_from_its_store(
    tmp_path: Path, games: dict[str, Game], snapshot_every: int
) -> None:
    """Replayed from its log, or restored from the snapshot taken with the ruling."""
    db = tmp_path / "referee.db"
    first = RefereeService(
        SqliteStore(db), games, allow_stacked=True, snapshot_every=snapshot_every
    )
    table = first.create_table("pontinho", seats=3, seed=4)
    seat = first.view(table.table_id, None).view["to_act"]
    first.propose(table.table_id, table.tokens[seat], Move("draw"))
    first.propose(table.table_id, table.tokens[0], Move("dispute", {"version": 1, "reason": "r"}))
    ruling = Move("ruling", {"dispute": 2, "note": "n", "decision": "rewind", "to": 0})
    assert first.rule(table.table_id, ruling).verdict.version == 3
    views = {s: first.view(table.table_id, table.tokens[s]).view for s in range(3)}
    first.close()
    again = RefereeService(SqliteStore(db), games, allow_stacked=True)
    try:
        assert {s: again.view(table.table_id, table.tokens[s]).view for s in range(3)} == views
    finally:
        again.close()


# --- F1 of issue 25: a seat sending disputes in a loop cannot grow the table's views ----------

VIEW_MOST_BYTES = 16 * 1024
ATTEMPTS = 3000
BATCH = 50  # calls in flight at once


@pytest.fixture
def unthrottled(service: RefereeService) -> Iterator[referee_pb2_grpc.RefereeStub]:
    """A server without rate quotas: the attack runs at the speed of the machine."""
    config = ServerConfig(create_token=OPERATOR, limits=Limits().without_rates())
    with stub_of(service, config) as stub:
        yield stub


def flood(
    stub: Any, table: OpenTable, attempts: int, rule_every: int = 0, batch: int = BATCH
) -> int:
    """Seats 1 and 2 in turn dispute the latest moves of the table, `attempts` times, `batch`
    calls at once, each call a move of its own; every `rule_every` attempts the director
    upholds the disputes open. The disputes accepted."""
    accepted, latest = 0, table.version()
    for start in range(0, attempts, batch):
        calls = [
            stub.Propose.future(
                dispute_of(table, max(1, latest - attempt + start)),
                metadata=seat_metadata(table.tokens[1 + attempt % 2]),
            )
            for attempt in range(start, min(start + batch, attempts))
        ]
        verdicts = [call.result().verdict for call in calls]
        accepted += sum(verdict.outcome == pb.OUTCOME_ACCEPTED for verdict in verdicts)
        latest = max(verdict.version for verdict in verdicts)
        if rule_every and (start + batch) % rule_every == 0:
            latest = uphold_open(stub, table) or latest
    return accepted


def dispute_of(table: OpenTable, version: int) -> pb.ProposeRequest:
    move = pb.Move(type="dispute", fields=data_to_struct({"version": version, "reason": "again"}))
    return pb.ProposeRequest(table_id=table.table_id, move=move)


def uphold_open(stub: Any, table: OpenTable) -> int:
    """The director upholds every open dispute: the table's version after (0: none was open)."""
    version = 0
    for listed in table.view(None)["disputes"]:
        request = pb.RuleRequest(
            table_id=table.table_id, dispute=listed["dispute"], note="n", uphold=pb.Uphold()
        )
        version = stub.Rule(request, metadata=AS_DIRECTOR).verdict.version
    return version


def view_sizes(stub: Any, table: OpenTable) -> dict[str, int]:
    """The bytes of each seat's GetView answer, a spectator's and the director's."""
    viewers = {f"seat {s}": seat_metadata(token) for s, token in table.tokens.items()}
    viewers |= {"spectator": (), "director": AS_DIRECTOR}
    request = pb.GetViewRequest(table_id=table.table_id)
    return {who: stub.GetView(request, metadata=m).ByteSize() for who, m in viewers.items()}


@pytest.mark.slow
def test_disputes_in_a_loop_leave_every_view_small(unthrottled: Any) -> None:
    """3,000 attempts by two seats, the director ruling on the open ones every 500: each seat
    has 3 open at most, the ruled ones are counted, and every view stays under 16 KB."""
    table = open_table_as_operator(unthrottled)
    table.propose(1, "draw")
    accepted = flood(unthrottled, table, ATTEMPTS, rule_every=500)
    assert 6 <= accepted <= 6 * ATTEMPTS // 500  # 3 open a seat, then refused until ruled on
    assert flood(unthrottled, table, 100) == 6
    sizes = view_sizes(unthrottled, table)
    assert max(sizes.values()) < VIEW_MOST_BYTES, sizes
    view = table.view(0)
    assert len(view["disputes"]) == 6 and view["disputes_ruled"] == accepted
    refused = table.propose(1, "dispute", version=1, reason="again").violations[0]
    assert (refused.rule, refused.code) == ("GEN-8", "too_many_disputes")
    assert "you have 3 disputes open already" in refused.message


def test_control_without_the_bounds_the_same_flood_grows_every_view(
    unthrottled: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bounds lifted, each dispute is open and listed: past 16 KB within 600 attempts (each
    a move no open dispute names: the latest, or the one before it)."""
    monkeypatch.setattr(Table, "dispute_bounds", Bounds(per_seat=10**9, per_table=10**9))
    table = open_table_as_operator(unthrottled)
    table.propose(1, "draw")
    assert flood(unthrottled, table, 600, batch=1) == 600
    assert min(view_sizes(unthrottled, table).values()) > VIEW_MOST_BYTES
