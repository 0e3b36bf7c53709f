"""A table restored from its snapshot is the table its replay builds (issue 13, point 5).

Random games of every shipped game and of the example specs (docs/example-specs/: gin, whist,
twenty-one), played by the client bots, the liveness oracle's moves of any seat (claims, passes, splits), junk moves and
deadlines passing; and every conformance scenario, step by step. At every version:
`restore(snapshot(table))` has the state `Table.replay` builds, and the table's version, log,
views for every seat (with their legal moves) and for a spectator, and it judges the next move
as the table does, verdict for verdict. A snapshot of an earlier version, given the whole log,
gives the table at its end (the moves after it judged again).

A snapshot that does not fit (another game, spec, state layout, setup or log, another format) is
refused with a SnapshotError, and so is anything that is not a snapshot: garbage, values of the
wrong type, any mutation of a real one (a RefereeError or a table, never another exception).
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import statistics
import time
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.game import Game
from referee.engine.snapshot import FORMAT, SnapshotError, restore, snapshot
from referee.engine.table import SYSTEM, Table, TableSetup
from referee.errors import MoveFormatError, OptionError, RefereeError, SetupError
from referee.mechanics.banking.state import BankState
from referee.model import ADJUDICATOR, Move, Verdict
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.scenario.format import CloseWindowStep, MoveStep, load_file
from referee.scenario.runner import scenario_files
from referee.scenario.target import InProcessTarget
from tests.liveness.oracle import accepted, witness
from tests.support import examples
from tests.support.games import shipped_games
from tests.support.random_games import bot_moves, junk_move, oracle_move, setups
from tests.support.server import TARADINHO_DEAL

TESTS = Path(__file__).parents[1]
GAMES: dict[str, Game] = {
    **shipped_games(),
    "gin": load_game(examples.GIN),
    "whist": load_game(examples.WHIST),
    "twenty_one": load_game(examples.TWENTY_ONE),
}
STEPS = 60  # proposals per random game
BOT_TRIES = 100
# what a table holds: each restored by `restore` (a new attribute must be added there, and here)
TABLE_ATTRIBUTES = {
    "game", "setup", "state", "version", "contributions", "commitment", "disputes",
    "clock", "timeouts", "deadline_since",  # the play clock's
    "_history", "_earlier",  # `history`: a restored table's earlier moves, read when asked for
    "_kept", "_kept_for",  # what is worked out once a state (legal moves...), made anew
    "_marks",  # what a rewind restores, kept on the way (GEN-11): made anew from the snapshot
}  # fmt: skip
COMPARED = (
    "game", "setup", "version", "contributions", "commitment", "disputes", "last_move", "history",
    "clock", "timeouts", "deadline_since",
)  # fmt: skip


def table_of(name: str, seats: int = 4, seed: int = 1) -> Table:
    game = GAMES[name]
    balances = {s: 1000 for s in range(seats)} if game.spec.mechanics == "banking" else None
    return Table.create(game, TableSetup(game=name, seats=seats, seed=seed, balances=balances))


def restored(table: Table, data: str | None = None) -> Table:
    data = snapshot(table) if data is None else data
    return restore(table.game, table.setup, data, table.history)


def assert_same(again: Table, table: Table) -> None:
    assert again.state == table.state
    assert set(vars(again)) == set(vars(table)) == TABLE_ATTRIBUTES
    for name in COMPARED:
        assert getattr(again, name) == getattr(table, name), name
    assert (again.is_over, again.deadline) == (table.is_over, table.deadline)
    for seat in (None, ADJUDICATOR, *range(table.setup.seats)):
        assert again.view(seat, legal=True) == table.view(seat, legal=True), seat


def same_verdict(first: Verdict | None, second: Verdict | None) -> Verdict | None:
    assert (first and first.to_data()) == (second and second.to_data())
    return first


def next_move(game: Game, table: Table, rng: random.Random) -> tuple[int, Move] | None:
    """A junk move, an oracle's move of any seat, or the bot's move of the seat to act."""
    roll = rng.random()
    if roll < 0.05:  # entropy mixed into the seed chain
        return rng.randrange(table.setup.seats), Move("contribute", {"entropy": str(roll)})
    if roll < 0.2:
        seat, data = junk_move(game, table, rng)
        return seat, Move.from_data(data)
    if roll < 0.5:
        return readable(oracle_move, game, table, rng)
    # twenty-one has no bet limits for the Pontoon bot: the oracle plays it
    if not (isinstance(table.state, BankState) and "min_bet" not in table.state.options):
        for count, (seat, data) in enumerate(bot_moves(game, table, rng)):
            if count < BOT_TRIES and acceptable(game, table, seat, Move.from_data(data)):
                return seat, Move.from_data(data)
    return readable(witness, game, table.state)


def acceptable(game: Game, table: Table, seat: int, move: Move) -> bool:
    return bool(readable(accepted, game, table.state, seat, move))


T = typing.TypeVar("T")


def readable(find: typing.Callable[..., T], *args: Any) -> T | None:
    """What the bot or the oracle finds, or None where it tries a move this spec's move cannot
    read (the liveness oracle knows the shipped games' moves: gin's `take_discard` has no meld)."""
    try:
        return find(*args)
    except MoveFormatError:
        return None


def play(game: Game, setup: TableSetup, seed: int) -> None:
    try:
        table = Table.create(game, setup)
    except (SetupError, OptionError):  # option values that do not go together
        return
    rng = random.Random(seed)
    taken = []  # (version, snapshot)
    for _ in range(STEPS):
        data = snapshot(table)
        taken.append((table.version, data))
        again = restored(table, data)
        assert_same(again, table)
        assert again.state == Table.replay(game, table.setup, table.history).state
        if table.is_over:
            break
        if table.deadline is not None and rng.random() < 0.2:
            same_verdict(table.expire(), again.expire())
        else:
            chosen = next_move(game, table, rng)
            if chosen is not None:
                same_verdict(table.propose(*chosen), again.propose(*chosen))
        assert again.state == table.state
    assert_same(Table.replay(game, table.setup, table.history), table)
    for version, data in taken[:: max(1, len(taken) // 4)]:  # the moves after it judged again
        assert restore(game, table.setup, data, table.history).state == table.state, version


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_restored_table_is_the_replayed_table_at_every_version(name: str) -> None:
    game = GAMES[name]

    @settings(
        max_examples=3,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(setup=setups(game), seed=st.integers(0, 2**32))
    def games(setup: TableSetup, seed: int) -> None:
        play(game, setup, seed)

    games()


SCENARIOS = sorted(scenario_files([TESTS / "conformance"]))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_restored_table_is_the_table_at_every_step_of_every_scenario(path: Path) -> None:
    """The conformance scenarios' stacked deals reach the states random games seldom do (hand
    and match ends, claims won, re-entries, kitties): each step judged by the table and by its
    restored twin alike; the legal moves compared at the last step (they are the state's)."""
    scenario = load_file(path)
    table = InProcessTarget(GAMES).create_table(scenario.setup)
    for step in scenario.steps:
        if not isinstance(step, (MoveStep, CloseWindowStep)):
            continue
        again = restored(table)
        assert again.state == table.state
        for seat in (None, ADJUDICATOR, *range(table.setup.seats)):
            assert again.view(seat) == table.view(seat)
        if isinstance(step, MoveStep):
            same_verdict(table.propose(step.seat, step.move), again.propose(step.seat, step.move))
        else:
            same_verdict(table.expire(), again.expire())
        assert again.state == table.state
    assert_same(restored(table), table)


# a Taradinho discard claimed by two seats: the open window holds their parsed moves, cards in
# values typed `Any` (tests/mechanics/rummy/test_claim_priority.py's deal)
CLAIM_DEAL = TARADINHO_DEAL
CLAIMS: list[tuple[int, dict[str, Any]]] = [
    (1, {"type": "draw"}),
    (1, {"type": "discard", "card": "5C"}),
    (2, {"type": "take_discard", "meld": ["5S", "5H", "5C"]}),
    (3, {"type": "take_discard", "meld": ["3C", "4C", "5C"]}),
]
GO_OUT = {
    "type": "go_out",
    "take": "discard",
    "melds": [["5C", "6C", "7C"], ["JS", "QS", "KS"], ["2D", "3D", "4D", "5D"]],
}


def claimed(claims: int = len(CLAIMS)) -> Table:
    """The Taradinho table of CLAIM_DEAL after its first `claims` moves."""
    game = GAMES["taradinho"]
    table = Table.create(game, TableSetup(game="taradinho", seats=4, dealer=0, deal=CLAIM_DEAL))
    for seat, move in CLAIMS[:claims]:
        assert not table.propose(seat, Move.from_data(move)).violations
    return table


def test_an_open_claim_window_with_its_claims_is_restored() -> None:
    table = claimed()
    assert sorted(table.state.window.claims) == [2, 3]
    again = restored(table)
    assert_same(again, table)
    go_out = Move.from_data(GO_OUT)
    won = same_verdict(table.propose(0, go_out), again.propose(0, go_out))
    assert won is not None and any(e.kind == "claim_won" for e in won.events)
    assert_same(again, table)


def test_a_snapshot_serves_the_log_after_it() -> None:
    table = table_of("pontoon")
    data = snapshot(table)
    for seat, move in [(1, {"type": "bet", "amount": 5}), (2, {"type": "bet", "amount": 3})]:
        assert table.propose(seat, Move.from_data(move)).accepted
    assert_same(restore(table.game, table.setup, data, table.history), table)


class StoredLog(Sequence[tuple[int, Move]]):
    """A log as a store might hand it over: each move read (and counted) only when asked for."""

    def __init__(
        self, moves: list[tuple[int, Move]], start: int = 0, stop: int | None = None
    ) -> None:
        self.moves, self.start = moves, start
        self.stop = len(moves) if stop is None else stop
        self.read: set[int] = set()

    def __len__(self) -> int:
        return self.stop - self.start

    @typing.overload
    def __getitem__(self, at: int) -> tuple[int, Move]: ...
    @typing.overload
    def __getitem__(self, at: slice) -> StoredLog: ...
    def __getitem__(self, at: int | slice) -> tuple[int, Move] | StoredLog:
        if isinstance(at, slice):
            first, last, _ = at.indices(len(self))
            part = StoredLog(self.moves, self.start + first, self.start + max(first, last))
            part.read = self.read  # what a part reads, the log has read
            return part
        index = self.start + range(len(self))[at]
        self.read.add(index)
        return self.moves[index]


def test_the_moves_before_the_snapshot_are_read_only_for_the_record() -> None:
    table = table_of("pontoon")
    for seat in (1, 2, 3, 0):
        assert table.propose(seat, Move("contribute", {"entropy": str(seat)})).accepted
    data = snapshot(table)
    assert table.propose(1, Move("bet", {"amount": 1})).accepted
    log = StoredLog(list(table.history))
    again = restore(table.game, table.setup, data, log)
    assert again.view(1, legal=True) == table.view(1, legal=True)
    assert again.propose(2, Move("bet", {"amount": 2})).accepted
    assert again.last_move == (2, Move("bet", {"amount": 2}))
    snapshot(again)
    assert sorted(log.read) == [3, 4]  # the snapshot's last move, and the one after it
    assert again.history[:5] == table.history
    assert sorted(log.read) == [0, 1, 2, 3, 4]


def test_a_move_after_the_snapshot_now_rejected_fails_as_replay_does() -> None:
    table = table_of("pontoon")
    data = snapshot(table)
    log = [(1, Move("bet", {"amount": 10**6}))]
    with pytest.raises(SetupError, match="does not replay: move 1"):
        restore(table.game, table.setup, data, log)
    with pytest.raises(SetupError, match="does not replay: move 1"):
        Table.replay(table.game, table.setup, log)


def test_a_deadline_passing_is_restored() -> None:
    table = claimed(2)
    assert table.deadline is not None
    data = snapshot(table)
    assert table.expire() is not None and table.history[-1][0] == SYSTEM
    assert_same(restore(table.game, table.setup, data, table.history), table)
    assert_same(restored(table), table)


# -- refusals ----------------------------------------------------------------------------------


def refusal(table: Table, data: Any, game: Game | None = None) -> str:
    with pytest.raises(SnapshotError) as caught:
        restore(game or table.game, table.setup, data, table.history)
    assert isinstance(caught.value, RefereeError)
    return caught.value.message


def edited(data: str, **fields: Any) -> str:
    body = json.loads(data)
    body.update(fields)
    return json.dumps(body)


def test_a_snapshot_of_another_game_is_refused() -> None:
    table = table_of("pontoon")
    says = refusal(table, snapshot(table), GAMES["shoot_pontoon"])
    assert says == "a snapshot of `pontoon`, not of `shoot_pontoon`"


@pytest.mark.parametrize(
    ("field", "says"),
    [
        ("spec", "a snapshot of another spec of `pontinho`: it changed since"),
        ("layout", "a snapshot of another state of the `rummy` mechanic: it changed since"),
        ("setup", "a snapshot of a table of another setup"),
        ("last_move", "a snapshot whose move 2 is not the log's"),
    ],
)
def test_a_tampered_fingerprint_is_refused(field: str, says: str) -> None:
    table = table_of("pontinho")
    for move in ({"type": "draw"}, {"type": "contribute", "entropy": "x"}):
        assert table.propose(table.state.to_act, Move.from_data(move)).accepted
    assert refusal(table, edited(snapshot(table), **{field: "0" * 64})) == says


def test_a_changed_spec_refuses_the_snapshots_taken_before(tmp_path: Path) -> None:
    for name in ("pontinho.yaml", "taradinho.yaml"):
        shutil.copy(Path(DEFAULT_SPECS) / name, tmp_path / name)
    path = tmp_path / "taradinho.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment changes nothing\n")
    same = load_game(path, tmp_path)
    pontinho = tmp_path / "pontinho.yaml"
    text = pontinho.read_text(encoding="utf-8")
    shipped = "priority: [goes_out, nearest_after_discarder]"
    assert shipped in text
    pontinho.write_text(text.replace(shipped, "priority: [nearest_after_discarder]"))
    changed = load_game(path, tmp_path)
    table = table_of("taradinho")
    data = snapshot(table)
    assert restore(same, table.setup, data, table.history).state == table.state
    assert refusal(table, data, changed) == (
        "a snapshot of another spec of `taradinho`: it changed since"
    )


def test_a_snapshot_of_another_format_is_refused() -> None:
    table = table_of("whist")
    says = refusal(table, edited(snapshot(table), format=FORMAT + 1))
    assert says == f"a snapshot of format {FORMAT + 1}: this referee reads format {FORMAT}"


def test_a_log_that_does_not_fit_is_refused() -> None:
    table = table_of("pontoon")
    assert table.propose(1, Move("bet", {"amount": 5})).accepted
    data = snapshot(table)
    with pytest.raises(SnapshotError, match="at version 1, of a log of 0 moves"):
        restore(table.game, table.setup, data, [])
    other = [(1, Move("bet", {"amount": 6}))]
    with pytest.raises(SnapshotError, match="whose move 1 is not the log's"):
        restore(table.game, table.setup, data, other)


def test_a_state_that_would_not_read_back_is_never_written() -> None:
    table = table_of("pontoon")
    table.state.balances = tuple(table.state.balances)  # typed a list: it would come back one
    with pytest.raises(SnapshotError, match="does not read back the same"):
        snapshot(table)
    table.state.options = {"when": object()}
    with pytest.raises(SnapshotError, match="a value typed `Any` is a `object`"):
        snapshot(table)


# -- hostile input -----------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None, database=None)
@given(data=st.text() | st.binary() | JSON_VALUES.map(json.dumps))
def test_garbage_is_refused(data: str | bytes) -> None:
    refusal(table_of("tarocchi_piedicavallo"), data)


@pytest.mark.parametrize("data", [None, 7, {"format": FORMAT}, ["x"]])
def test_what_is_not_text_is_refused(data: Any) -> None:
    assert "a snapshot is JSON text" in refusal(table_of("gin", seats=2), data)


def wrong_values(hint: Any) -> list[Any]:
    """JSON values none of which fits a value typed `hint` (a state's field, an envelope's)."""
    origin, args = typing.get_origin(hint) or hint, typing.get_args(hint)
    if origin in (typing.Union, type(int | None)):
        fits = [w for arg in args for w in wrong_values(arg)]
        return [w for w in fits if all(w in wrong_values(arg) for arg in args)]
    kinds: dict[Any, Any] = {str: "x", int: 7, bool: True, list: [], dict: {}, type(None): None}
    kinds[float] = 1.5
    shape = {tuple: list, frozenset: list}.get(origin, origin)
    if isinstance(shape, type) and shape not in kinds:  # a dataclass: a JSON object
        shape = dict
    return [value for kind, value in kinds.items() if kind is not shape]


@pytest.mark.parametrize("name", ["pontinho", "pontoon", "tarocchi_piedicavallo"])
def test_a_field_of_the_wrong_type_is_refused(name: str) -> None:
    table = table_of(name)
    body = json.loads(snapshot(table))
    hints = typing.get_type_hints(type(table.state))
    for field, hint in hints.items():
        for wrong in wrong_values(hint):
            says = refusal(table, json.dumps({**body, "state": {**body["state"], field: wrong}}))
            assert says.startswith("the snapshot's state does not read"), (field, wrong, says)
    for field in ("version", "contributions", "commitment", "spec"):
        for wrong in ("x", [], None, 1.5) if field in ("version", "contributions") else (7, []):
            assert refusal(table, json.dumps({**body, field: wrong})).startswith("not a snapshot")
    state = dict(body["state"])
    del state["seats"]
    assert "no `seats`" in refusal(table, json.dumps({**body, "state": state}))


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value, the value itself first."""
    found = [path]
    if isinstance(value, (dict, list)):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            found += leaves(item, path + (key,))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


@pytest.mark.parametrize("name", ["taradinho", "shoot_pontoon", "whist"])
def test_any_mutation_is_a_referee_error_or_a_table(name: str) -> None:
    table = claimed() if name == "taradinho" else table_of(name)
    body = json.loads(snapshot(table))
    paths = leaves(body)

    @settings(max_examples=150, deadline=None, database=None)
    @given(where=st.sampled_from(paths), new=JSON_VALUES)
    def mutations(where: tuple[Any, ...], new: Any) -> None:
        try:
            text = json.dumps(replaced(body, where, new))
            again = restore(table.game, table.setup, text, table.history)
        except RefereeError:
            return
        assert isinstance(again, Table)

    mutations()


def test_a_deeply_nested_value_is_refused() -> None:
    table = table_of("pontoon")
    body = json.loads(snapshot(table))
    deep = "[" * 100_000 + "]" * 100_000
    text = json.dumps({**body, "state": {**body["state"], "options": "@"}})
    refusal(table, text.replace('"@"', '{"dict": {"x": ' + deep + "}}"))


# -- how fast -----------------------------------------------------------------------------------

LONG = 5_000


def long_table() -> Table:
    """A Pontoon match of LONG moves, played by the client bot."""
    rich = dict.fromkeys(range(4), 10**9)  # nobody runs out of chips
    table = Table.create(GAMES["pontoon"], TableSetup("pontoon", seats=4, seed=7, balances=rich))
    rng = random.Random(5)
    while table.version < LONG:
        for seat, data in bot_moves(table.game, table, rng):
            verdict = table.propose(seat, Move.from_data(data))
            if not verdict.violations:
                break
    return table


def timed(call: typing.Callable[[], Any], times: int) -> float:
    """The median wall time of `call`, in milliseconds."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        call()
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


def test_a_table_of_5000_moves_restores_to_its_state() -> None:
    """`SNAPSHOT_REPORT=1 pytest -s -k 5000` also prints what restoring costs beside replaying
    (no timing is asserted here: `make bench-cluster` measures reloads from a store)."""
    table = long_table()
    game, setup, log = table.game, table.setup, table.history
    data = snapshot(table)
    assert restore(game, setup, data, log).state == table.state
    behind = restored_at(table, LONG - 50)
    assert restore(game, setup, behind, log).state == table.state
    if os.environ.get("SNAPSHOT_REPORT"):
        stored = [json.dumps(move.to_data()) for _, move in log]  # the log as a store holds it
        figures = {
            "replay (judging 5,000 moves)": timed(lambda: Table.replay(game, setup, log), 3),
            "restore (the snapshot at the last move)": timed(
                lambda: restore(game, setup, data, log), 50
            ),
            "restore (a snapshot 50 moves behind)": timed(
                functools.partial(restore, game, setup, behind, log), 10
            ),
            "snapshot": timed(lambda: snapshot(table), 50),
            "reading 5,000 stored moves (json, Move)": timed(
                lambda: [Move.from_data(json.loads(text)) for text in stored], 20
            ),
        }
        print(f"\nsnapshot of {len(data)} characters; median ms:")
        for what, ms in figures.items():
            print(f"  {what}: {ms:.2f}")


def restored_at(table: Table, version: int) -> str:
    """The snapshot of `table` at an earlier version."""
    earlier = Table.replay(table.game, table.setup, table.history[:version])
    return snapshot(earlier)
