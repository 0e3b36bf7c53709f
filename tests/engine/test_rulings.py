"""The director's rulings on disputes (issue 16): uphold changes nothing of the game, rewind puts
the table back as its log folded to an earlier version says, adjust changes one seat's tally.
Each is a logged move of the director that replays; a ruling that cannot be made is a GEN-8
rejection that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.adjudication.replay import adjudicate
from referee.bench import recorded_game
from referee.engine import snapshot
from referee.engine.game import Game
from referee.engine.record import record_of
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import ADJUDICATOR, DIRECTOR, Move, Outcome
from tests.support.server import DEAL

GAMES = ["pontinho", "taradinho", "pontoon", "shoot_pontoon", "tarocchi_piedicavallo"]
SEEN = (None, ADJUDICATOR, 0, 1, 2)  # a spectator, the director, seats


@pytest.fixture
def table(games: dict[str, Game]) -> Table:
    """Pontinho: seat 1 drew (version 1) and discarded (2); seat 2 disputes the discard (3)."""
    played = Table.create(
        games["pontinho"], TableSetup(game="pontinho", seats=3, dealer=0, deal=DEAL, seed=0)
    )
    played.propose(1, Move("draw"))
    played.propose(1, Move("discard", {"card": "JH"}))
    played.propose(2, Move("dispute", {"version": 2, "reason": "JH was not the card"}))
    return played


def rule(table: Table, **fields: Any) -> Any:
    return table.propose(DIRECTOR, Move("ruling", {"dispute": 3, "note": "ruled", **fields}))


def game_view(table: Table, seat: int | None) -> dict[str, Any]:
    """A seat's view but for what a dispute or a ruling itself changes."""
    return {
        k: v
        for k, v in table.view(seat).items()
        if k not in ("version", "disputes", "disputes_ruled")
    }


def test_an_upheld_verdict_stands_and_the_dispute_is_closed(table: Table) -> None:
    before = {seat: game_view(table, seat) for seat in SEEN}
    verdict = rule(table, decision="uphold")
    assert verdict.outcome is Outcome.ACCEPTED and verdict.version == 4
    assert {seat: game_view(table, seat) for seat in SEEN} == before
    (event,) = verdict.events
    assert event.seen_by(0) == {
        "kind": "upheld", "dispute": 3, "decision": "uphold", "note": "ruled"
    }  # fmt: skip
    assert (table.view(None)["disputes"], table.view(None)["disputes_ruled"]) == ([], 1)
    again = rule(table, decision="rewind", to=1)
    assert again.outcome is Outcome.REJECTED
    assert "dispute 3 was ruled on at version 4" in again.violations[0].message


def test_a_rewind_restores_the_table_at_that_version_and_keeps_the_log(table: Table) -> None:
    at_one = Table.replay(table.game, table.setup, table.history[:1])
    verdict = rule(table, decision="rewind", to=1)
    assert verdict.outcome is Outcome.ACCEPTED and verdict.version == 4
    assert verdict.events[0].seen_by(None)["voided"] == [2]  # the discard; not the dispute
    assert {seat: game_view(table, seat) for seat in SEEN} == {
        seat: game_view(at_one, seat) for seat in SEEN
    }
    assert [move.type for _, move in table.history] == ["draw", "discard", "dispute", "ruling"]
    assert table.propose(1, Move("discard", {"card": "KH"})).outcome is Outcome.ACCEPTED


def test_a_rewind_is_replayed_from_the_record(games: dict[str, Game], table: Table) -> None:
    rule(table, decision="rewind", to=1)
    table.propose(1, Move("discard", {"card": "KH"}))
    record = record_of(table)
    assert record["steps"][3] == {
        "seat": "director",
        "move": {"type": "ruling", "dispute": 3, "note": "ruled", "decision": "rewind", "to": 1},
    }
    report = adjudicate(games, record)
    assert report["legal"] is True and report["moves"] == 5
    unsalted = ("salt", "commitment")  # a record holds no salt: its replay draws another
    assert {k: v for k, v in report["result"].items() if k not in unsalted} == {
        k: v for k, v in table.view(ADJUDICATOR).items() if k not in unsalted
    }


def test_a_rewind_voids_the_contributions_after_it(table: Table) -> None:
    table.propose(0, Move("contribute", {"entropy": "mine"}))
    table.propose(0, Move("dispute", {"version": 4, "reason": "x"}))
    seed_before = table.state.seed
    verdict = table.propose(
        DIRECTOR, Move("ruling", {"dispute": 5, "note": "n", "decision": "rewind", "to": 2})
    )
    assert verdict.events[0].seen_by(None)["voided"] == [4]
    assert table.contributions == 0 and table.state.seed != seed_before


@pytest.mark.parametrize(
    ("game", "tally", "read"),
    [
        ("pontinho", "score", lambda view: view["scores"]["1"]),
        ("pontinho", "chips", lambda view: view["balances"]["1"]),
        ("pontoon", "chips", lambda view: view["balances"]["1"]),
        ("tarocchi_piedicavallo", "score", lambda view: view["totals"]["1"]),
    ],
)
def test_an_adjustment_changes_the_seat_s_tally_alone(
    games: dict[str, Game], game: str, tally: str, read: Any
) -> None:
    seats = 4 if game.startswith("tarocchi") else 3
    table = Table.create(games[game], TableSetup(game=game, seats=seats, seed=5))
    table.propose(0, Move("dispute", {"proposal": "m-1", "reason": "slow play"}))
    before = read(table.view(None))
    verdict = table.propose(
        DIRECTOR,
        Move(
            "ruling",
            {
                "dispute": 1,
                "note": "n",
                "decision": "adjust",
                "seat": 1,
                "amount": -7,
                "tally": tally,
            },
        ),
    )
    assert verdict.outcome is Outcome.ACCEPTED
    assert read(table.view(None)) == before - 7
    assert verdict.events[0].seen_by(2)["total"] == before - 7


def test_an_adjustment_after_the_game_decides_its_winner_again(games: dict[str, Game]) -> None:
    game = games["tarocchi_piedicavallo"]
    setup, log = recorded_game(game, 3, 10_000)
    table = Table.create(game, setup)
    for seat, move in log:
        table.propose(seat, move)
    assert table.is_over
    totals, winner = table.view(None)["totals"], table.state.winner
    loser = 1 - winner if winner is not None else 0
    gap = totals[str(1 - loser)] - totals[str(loser)] + 1
    table.propose(0, Move("dispute", {"version": 5, "reason": "a revoke"}))
    seat = next(s for s in range(4) if table.state.team_of(s) == loser)
    rule_move = {"decision": "adjust", "seat": seat, "amount": gap, "tally": "score"}
    table.propose(DIRECTOR, Move("ruling", {"dispute": table.version, "note": "n", **rule_move}))
    assert table.state.winner == loser
    back = {"decision": "rewind", "to": 2}
    table.propose(0, Move("dispute", {"version": 5, "reason": "again"}))
    refused = table.propose(
        DIRECTOR, Move("ruling", {"dispute": table.version, "note": "n", **back})
    )
    assert refused.violations[0].code == "game_over"  # its deal's secret is out


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"decision": "uphold", "dispute": 2}, "2 is no dispute of this table"),
        ({"decision": "uphold", "dispute": 9}, "9 is no dispute"),
        ({"decision": "uphold", "dispute": True}, "is no dispute"),
        ({"decision": "overturn"}, "\u201coverturn\u201d is not one of uphold, rewind, adjust"),
        ({"decision": "uphold", "note": ""}, "the note: up to 500"),
        ({"decision": "uphold", "note": "x" * 501}, "the note: up to 500"),
        ({"decision": "uphold", "to": 1}, "the destination is not part of this move"),
        ({"decision": "rewind"}, "the destination is missing"),
        ({"decision": "rewind", "to": 2}, "a version from 0 to 2"),
        ({"decision": "rewind", "to": -1}, "a version from 0 to 2"),
        ({"decision": "rewind", "to": 1.5}, "a version from 0 to 2"),
        (
            {"decision": "adjust", "seat": 1, "amount": 5},
            "what is counted (score or chips) is missing",
        ),
        ({"decision": "adjust", "seat": 3, "amount": 5, "tally": "score"}, "no seat 3"),
        ({"decision": "adjust", "seat": 1, "amount": 0, "tally": "score"}, "other than 0"),
        ({"decision": "adjust", "seat": 1, "amount": 2**53, "tally": "score"}, "other than 0"),
        ({"decision": "adjust", "seat": 1, "amount": "5", "tally": "score"}, "other than 0"),
        (
            {"decision": "adjust", "seat": 1, "amount": 5, "tally": "gold"},
            "is not one of score, chips",
        ),
    ],
)
def test_a_ruling_that_cannot_be_made_is_refused_and_changes_nothing(
    table: Table, fields: dict[str, Any], said: str
) -> None:
    before = {seat: table.view(seat) for seat in SEEN}
    verdict = rule(table, **fields)
    assert verdict.outcome is Outcome.REJECTED and verdict.violations[0].rule == "GEN-8"
    assert said in verdict.violations[0].message
    assert {seat: table.view(seat) for seat in SEEN} == before
    assert rule(table, decision="uphold").outcome is Outcome.ACCEPTED  # still open


def test_only_the_director_rules(table: Table) -> None:
    for seat in (0, 2, -2, 7):
        verdict = rule_as(table, seat)
        assert verdict.outcome is Outcome.REJECTED, seat
    assert table.version == 3


def rule_as(table: Table, seat: int) -> Any:
    return table.propose(seat, Move("ruling", {"dispute": 3, "note": "n", "decision": "uphold"}))


def test_the_director_makes_no_move_of_the_game(table: Table) -> None:
    for move in (Move("draw"), Move("dispute", {"version": 1, "reason": "x"})):
        assert table.propose(DIRECTOR, move).outcome is Outcome.REJECTED


def test_a_table_with_rulings_restores_from_its_snapshot(table: Table) -> None:
    rule(table, decision="rewind", to=1)
    table.propose(1, Move("discard", {"card": "KH"}))
    table.propose(0, Move("dispute", {"version": 5, "reason": "x"}))
    restored = snapshot.restore(table.game, table.setup, snapshot.snapshot(table), table.history)
    assert restored.disputes == table.disputes
    for seat in SEEN:
        assert restored.view(seat, legal=True) == table.view(seat, legal=True)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_rewind_anywhere_is_the_log_folded_there_and_play_goes_on(
    games: dict[str, Game], name: str, data: st.DataObject
) -> None:
    """On a random bot game: stop anywhere, dispute a move, rewind to any version before it.
    Every seat then sees what a table replayed to that version shows; the moves the bots made
    from there are judged as they were; the whole log replays to the same table."""
    game = games[name]
    setup, log = recorded_game(game, data.draw(st.integers(0, 2**32 - 1), "seed"), 400)
    played = Table.create(game, setup)
    accepted = logged_moves(played, log)
    setup = played.setup  # its secret and salt drawn: every table below deals the same
    stop = data.draw(st.integers(1, len(accepted)), "stop")
    table = Table.replay(game, setup, accepted[:stop])
    if table.is_over:
        return
    disputed = data.draw(st.integers(1, stop), "disputed")
    to = data.draw(st.integers(0, disputed - 1), "to")
    table.propose(0, Move("dispute", {"version": disputed, "reason": "why"}))
    verdict = table.propose(
        DIRECTOR,
        Move("ruling", {"dispute": stop + 1, "note": "n", "decision": "rewind", "to": to}),
    )
    assert verdict.outcome is Outcome.ACCEPTED
    folded = Table.replay(game, setup, accepted[:to])
    seats = (None, ADJUDICATOR, *range(setup.seats))
    assert {s: game_view(table, s) for s in seats} == {s: game_view(folded, s) for s in seats}
    for seat, move in accepted[to : to + 20]:  # the same moves again, the same verdicts
        assert table.propose(seat, move).events == folded.propose(seat, move).events
    again = Table.replay(game, setup, table.history)
    assert again.view(ADJUDICATOR) == table.view(ADJUDICATOR)


def logged_moves(table: Table, log: list[tuple[int, Move]]) -> list[tuple[int, Move]]:
    """The proposals of a bots' log that the table logs (their rejections left out)."""
    for seat, move in log:
        table.propose(seat, move)
    return table.history
