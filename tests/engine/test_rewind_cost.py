"""A rewind costs a few moves, however many rulings its log holds (GEN-11, issue 25 N3).

A rewind puts the table back as its log folded to an earlier version says. Folding that log
from version 0 again replays every earlier rewind in it, each folding its own log again: the
cost doubled with each ruling (the 15th rewind took 31 s). A table now keeps what a rewind
restores (`Mark`) every `MARK_EVERY` versions and at each rewind, and folds from the nearest
one: never a rewind, at most `MARK_EVERY` moves. The moves folded are counted here (each move a
table commits, live or folded again), against the log's length; the control switches the marks
off (`Table.marking`): the old cost, which the same record exceeds at once.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.adjudication.replay import adjudicate
from referee.engine import snapshot
from referee.engine import table as table_module
from referee.engine.game import Game
from referee.engine.record import record_of
from referee.engine.table import MARK_EVERY, Table
from referee.model import ADJUDICATOR, DIRECTOR, Move, Outcome
from referee.plugins import installed

GAMES = ["pontinho", "taradinho", "pontoon", "shoot_pontoon", "tarocchi_piedicavallo"]
REWINDS = 20
PER_ENTRY = 3  # the moves a replay may fold for each entry of its log, rewinds included


class Budget(Exception):
    """More moves were folded than the bound allows."""


class Counted:
    """Every move any table commits (`Table._commit`), live or folded again, and a bound."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.moves = 0
        self.most: int | None = None
        commit = Table._commit

        def counted(table: Table, *args: Any) -> Any:
            self.moves += 1
            if self.most is not None and self.moves > self.most:
                raise Budget(f"more than {self.most} moves folded")
            return commit(table, *args)

        monkeypatch.setattr(Table, "_commit", counted)

    def during(self, work: Any) -> int:
        """The moves folded while `work()` runs."""
        before = self.moves
        work()
        return self.moves - before


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counted:
    return Counted(monkeypatch)


class Bot:
    """A game's bench bot at a table: the next seat's first candidate move the table accepts."""

    def __init__(self, game: Game, seed: int) -> None:
        plugin = installed.by_name()[game.spec.mechanics]
        assert plugin.transcript is not None and plugin.bench_setup is not None
        self.setup = plugin.bench_setup(game, seed)
        self.bot = plugin.transcript
        self.candidates = self.bot.candidates(game.resolve_options(self.setup.options))
        self.rng = random.Random(seed)

    def play(self, table: Table, moves: int) -> None:
        """Up to `moves` moves of the game (fewer if it ends)."""
        goal, tries = table.version + moves, 0
        while table.version < goal and not table.is_over:
            tries += 1
            assert tries <= 10 * moves, "the bot finds no move the table accepts"
            seat = self.bot.next_seat(table.view(ADJUDICATOR))
            for data in self.candidates(table.view(seat), self.rng):
                if table.propose(seat, Move.from_data(data)).outcome is not Outcome.REJECTED:
                    break


def steps(record: dict[str, Any]) -> list[Any]:
    found = record["steps"]
    assert isinstance(found, list)
    return found


def rewind(table: Table, disputed: int, to: int) -> None:
    """Seat 0 disputes version `disputed` and the director rewinds to `to`."""
    rule(table, disputed, {"decision": "rewind", "to": to})


def rule(table: Table, disputed: int, decision: dict[str, Any]) -> None:
    """Seat 0 disputes version `disputed` and the director rules `decision` on it."""
    table.propose(0, Move("dispute", {"version": disputed, "reason": "why"}))
    ruling = {"dispute": table.version, "note": "n", **decision}
    verdict = table.propose(DIRECTOR, Move("ruling", ruling))
    assert verdict.outcome is Outcome.ACCEPTED, verdict


def chained(game: Game, rewinds: int, counted: Counted) -> tuple[Table, list[int]]:
    """A Pontinho table where each of `rewinds` rewinds takes back the move just made, after
    every earlier rewind (the case whose cost doubled each time); the moves each folded."""
    bot = Bot(game, 3)
    table = Table.create(game, bot.setup)
    costs = []
    for _ in range(rewinds):
        bot.play(table, 7)
        assert not table.is_over
        latest = table.version
        costs.append(counted.during(lambda v=latest: rewind(table, v, v - 1)) - 2)
    bot.play(table, 7)
    return table, costs


def test_a_rewind_folds_at_most_the_moves_since_a_mark(
    games: dict[str, Game], counted: Counted
) -> None:
    table, costs = chained(games["pontinho"], REWINDS, counted)
    assert len(table.history) == REWINDS * 9 + 7
    assert max(costs) <= MARK_EVERY and sum(costs) > 0


def test_a_record_with_20_rewinds_replays_in_time_proportional_to_its_moves(
    games: dict[str, Game], counted: Counted
) -> None:
    table, _ = chained(games["pontinho"], REWINDS, counted)
    record = record_of(table)
    entries = len(steps(record))
    folded = counted.during(lambda: adjudicate(games, record))
    assert entries <= folded <= PER_ENTRY * entries  # Adjudicate, `referee replay`, verify
    assert counted.during(lambda: Table.replay(table.game, table.setup, table.history)) <= (
        PER_ENTRY * entries
    )  # a table loaded from its log


def test_a_snapshot_before_the_rewinds_restores_folding_each_move_a_few_times(
    games: dict[str, Game], counted: Counted
) -> None:
    """Restored from a snapshot, a table keeps no mark before it: a rewind after it to a version
    before it folds the log from 0 once, and marks its way for the next rewinds."""
    table, _ = chained(games["pontinho"], REWINDS, counted)
    early = Table.replay(table.game, table.setup, table.history[:30])
    data = snapshot.snapshot(early)
    again = counted.during(lambda: snapshot.restore(table.game, table.setup, data, table.history))
    assert again <= PER_ENTRY * len(table.history)


def test_control_without_marks_the_same_record_exceeds_the_bound(
    games: dict[str, Game], counted: Counted, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old way (every rewind folds from version 0, its earlier rewinds again): the cost of
    each rewind doubles, and replaying the 20-rewind record blows the bound above."""
    table, _ = chained(games["pontinho"], REWINDS, counted)
    record = record_of(table)
    monkeypatch.setattr(Table, "marking", False)
    _, costs = chained(games["pontinho"], 8, counted)
    assert all(later >= 2 * earlier for earlier, later in itertools.pairwise(costs[2:]))
    counted.most = counted.moves + PER_ENTRY * len(steps(record))
    with pytest.raises(Budget):
        adjudicate(games, record)


def test_a_fold_from_a_mark_knows_the_disputes_open_there(games: dict[str, Game]) -> None:
    """A dispute raised before a mark and ruled after it is open in the fold from that mark:
    the ruling folds again."""
    game = games["pontinho"]
    bot = Bot(game, 5)
    table = Table.create(game, bot.setup)
    bot.play(table, 3)
    table.propose(0, Move("dispute", {"version": 2, "reason": "why"}))  # 4, open for now
    bot.play(table, 1)
    rewind(table, 5, 4)  # 6 and 7: version 7 is marked
    bot.play(table, 1)
    uphold = {"dispute": 4, "note": "n", "decision": "uphold"}
    assert table.propose(DIRECTOR, Move("ruling", uphold)).version == 9
    bot.play(table, 1)
    rewind(table, 10, 9)  # folds 8 and 9 from the mark at 7
    again = Table.replay(game, table.setup, table.history[:9])
    seats = (None, ADJUDICATOR, *range(table.setup.seats))
    assert {s: game_view(again, s) for s in seats} == {s: game_view(table, s) for s in seats}


def game_view(table: Table, seat: int | None) -> dict[str, Any]:
    return {
        k: v
        for k, v in table.view(seat).items()
        if k not in ("version", "disputes", "disputes_ruled")
    }


@pytest.mark.parametrize("name", GAMES)
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_fold_from_marks_is_the_fold_from_version_0(
    games: dict[str, Game], name: str, data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot game with up to four rewinds anywhere (before earlier rewinds, onto them, between
    marks), and adjustments and upheld verdicts between them, played with marks; its log folded
    again with them and without them (the old semantics) gives the same verdicts, move by move,
    and the same table."""
    game = games[name]
    # often, a rewind lands between marks, on one, before an earlier rewind
    monkeypatch.setattr(table_module, "MARK_EVERY", data.draw(st.sampled_from([3, 50]), "marks"))
    bot = Bot(game, data.draw(st.integers(0, 2**32 - 1), "seed"))
    table = Table.create(game, bot.setup)
    adjust: dict[str, Any] = {
        "decision": "adjust", "seat": 0, "amount": -1, "tally": game.mechanic.tallies[0]
    }  # fmt: skip
    for _ in range(data.draw(st.integers(1, 6), "rulings")):
        bot.play(table, data.draw(st.integers(1, 12), "moves"))
        if table.is_over:
            break
        disputed = data.draw(st.integers(1, table.version), "disputed")
        to = data.draw(st.integers(0, disputed - 1), "to")
        decisions: list[dict[str, Any]] = [
            {"decision": "rewind", "to": to},
            {"decision": "uphold"},
            adjust,
        ]
        decision = data.draw(st.sampled_from(decisions), "decision")
        rule(table, disputed, decision)
    bot.play(table, 5)
    fast, old = Table.create(game, table.setup), Table.create(game, table.setup)
    old.marking = False
    for seat, move in table.history:
        assert fast.redo(seat, move).events == old.redo(seat, move).events
    seats = (None, ADJUDICATOR, *range(table.setup.seats))
    for again in (fast, old):
        assert {s: again.view(s) for s in seats} == {s: table.view(s) for s in seats}
        assert (again.contributions, again.timeouts) == (table.contributions, table.timeouts)
