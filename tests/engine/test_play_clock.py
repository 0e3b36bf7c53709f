"""The play clock (issue 16, point 3), in the engine: a table with `turn_seconds` has a deadline
while it waits for a seat; when it passes (`Table.expire`, the table's own logged move: no wall
clock here), the seat's timeout is counted and `on_timeout` acts: the spec's safe moves
(`auto`), the seat out of the hand (`forfeit`), or, at `max_timeouts`, out of the match."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import Card, PackKind
from referee.engine import snapshot
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.errors import OptionError
from referee.model import ADJUDICATOR, DIRECTOR, Move, Outcome

GAMES = ["pontinho", "taradinho", "pontoon", "shoot_pontoon", "tarocchi_piedicavallo"]
SEATS = {"pontinho": 3, "taradinho": 3, "pontoon": 3, "shoot_pontoon": 3}


def clocked(games: dict[str, Game], name: str, seed: int = 3, **options: Any) -> Table:
    seats = SEATS.get(name, 4)
    balances = {s: 50 for s in range(seats)} if "pontoon" in name else None
    setup = TableSetup(
        game=name,
        options={"turn_seconds": 30, **options},
        seats=seats,
        seed=seed,
        balances=balances,
    )
    return Table.create(games[name], setup)


def kinds(verdict: Any) -> list[str]:
    return [event.kind for event in verdict.events]


def test_no_clock_unless_asked(games: dict[str, Game]) -> None:
    table = Table.create(games["pontinho"], TableSetup(game="pontinho", seats=3, seed=1))
    assert table.deadline is None and table.expire() is None
    assert table.view(None)["clock"]["turn_seconds"] == 0
    for bad in ({"turn_seconds": -1}, {"turn_seconds": 86_401}, {"on_timeout": "nap"}):
        with pytest.raises(OptionError):
            Table.create(games["pontinho"], TableSetup(game="pontinho", seats=3, options=bad))


def test_the_clock_runs_for_the_seat_awaited_and_restarts_with_each_move(
    games: dict[str, Game],
) -> None:
    table = clocked(games, "pontinho")
    first = table.deadline
    assert first is not None and first.after_ms == 30_000
    seat = table.view(None)["to_act"]
    assert table.view(None)["clock"]["waiting_for"] == [seat]
    # a seat's own asides do not give it more time: contributions, disputes
    table.propose(seat, Move("contribute", {"entropy": "x"}))
    table.propose(seat, Move("dispute", {"version": 1, "reason": "stalling"}))
    assert table.deadline == first
    table.propose(seat, Move("draw"))
    assert table.deadline is not None and table.deadline.number != first.number


def test_auto_draws_then_discards_the_card_drawn(games: dict[str, Game]) -> None:
    table = clocked(games, "pontinho")
    seat = table.view(None)["to_act"]
    verdict = table.expire()
    assert verdict is not None and verdict.outcome is Outcome.ACCEPTED
    assert kinds(verdict) == [
        "timed_out", "auto_played", "drew", "auto_played", "discarded"
    ]  # fmt: skip
    drawn = verdict.events[2].seen_by(seat)["card"]
    assert verdict.events[4].data["card"] == drawn
    assert verdict.events[2].seen_by(None).get("card") is None  # the draw stays the seat's
    view = table.view(None)
    assert view["to_act"] != seat and view["clock"]["timeouts"][str(seat)] == 1


def test_auto_plays_the_lowest_legal_card(games: dict[str, Game]) -> None:
    table = clocked(games, "tarocchi_piedicavallo")
    table.expire()  # the dealer discards
    seat = table.view(None)["to_act"]
    legal = table.legal(seat)["play"]["cards"]
    verdict = table.expire()
    assert verdict is not None
    played = next(e for e in verdict.events if e.kind == "played").data["card"]
    mechanic = table.game.mechanic
    env = mechanic.env_before(table.state, seat, "play")
    worth = table.game.auto_moves[-1].prefer
    assert worth is not None

    def rank(card: str) -> Any:
        return worth({**env, "move": {"card": _card(card), "present": ["card"]}})

    assert played in legal and rank(played) == min(rank(c) for c in legal)
    assert table.view(None)["to_act"] != seat  # one card: the next seat's turn


def _card(code: str) -> Card:
    return Card.parse(code, PackKind.TAROT)


def test_a_pontoon_player_bets_the_minimum_then_stands(games: dict[str, Game]) -> None:
    table = clocked(games, "pontoon", min_bet=2)
    bet = table.expire()
    assert bet is not None and kinds(bet)[:3] == ["timed_out", "auto_played", "transfer"]
    assert bet.events[2].data["amount"] == 2


def test_forfeit_puts_a_rummy_seat_out_of_the_hand(games: dict[str, Game]) -> None:
    table = clocked(games, "pontinho", on_timeout="forfeit")
    seat = table.view(None)["to_act"]
    verdict = table.expire()
    assert verdict is not None and kinds(verdict) == ["timed_out", "out_of_hand"]
    view = table.view(None)
    assert view["out_of_hand"] == [seat] and view["to_act"] != seat
    refused = table.propose(seat, Move("go_out", {"take": "discard", "melds": []}))
    assert refused.violations[0].sentence is not None
    assert refused.violations[0].sentence.key == "table.out_of_hand"
    second = view["to_act"]
    state = table.state
    held, turned, options = {s: list(state.hands[s]) for s in range(3)}, state.turned, state.options
    ended = table.expire()  # the second seat out: the hand is the last one's
    assert ended is not None
    over = next(e for e in ended.events if e.kind == "hand_over").data
    assert over["went_out"] not in (seat, second)
    mechanic: Any = table.game.mechanic  # the rummy mechanic, with its compiled config
    config = mechanic.config
    for out in (seat, second):  # scored as every seat that did not go out
        assert over["points"][str(out)] == config.hand_points(options, turned, held[out], 0)
    assert table.view(None)["out_of_hand"] == []  # dealt in again


def test_forfeit_in_pontoon_gives_the_stake_to_the_banker(games: dict[str, Game]) -> None:
    table = clocked(games, "pontoon", on_timeout="forfeit")
    table.propose(1, Move("bet", {"amount": 5}))
    table.propose(2, Move("bet", {"amount": 5}))
    before = table.view(None)["balances"]
    seat = table.view(None)["to_act"]
    verdict = table.expire()
    assert verdict is not None
    forfeited = [e.data for e in verdict.events if e.kind == "transfer"]
    assert forfeited == [{"from": "table", "to": 0, "amount": 5, "reason": "forfeit"}]
    after = table.view(None)["balances"]
    assert after["0"] == before["0"] + 5 and after[str(seat)] == before[str(seat)]
    assert table.view(None)["to_act"] != seat


def test_forfeit_in_tarocchi_ends_the_deal_for_the_other_team(games: dict[str, Game]) -> None:
    table = clocked(games, "tarocchi_piedicavallo", on_timeout="forfeit")
    dealer = table.view(None)["to_act"]
    verdict = table.expire()
    assert verdict is not None
    over = next(e for e in verdict.events if e.kind == "deal_over").data
    other = table.state.team_of((dealer + 1) % 4)
    assert over["points"] == {str(other): 114, str(1 - other): 0}
    assert table.is_over  # one deal a game by default


@pytest.mark.parametrize("name", ["pontinho", "pontoon", "tarocchi_piedicavallo"])
def test_max_timeouts_puts_a_seat_out_of_the_match(games: dict[str, Game], name: str) -> None:
    table = clocked(games, name, max_timeouts=1)
    seat = table.awaited[0]
    verdict = table.expire()
    assert verdict is not None and verdict.events[0].data == {
        "seat": seat, "timeouts": 1, "out": True
    }  # fmt: skip
    assert "out_of_match" in kinds(verdict)
    for _ in range(40):  # every seat times out: the match ends, nobody waits for ever
        if table.is_over:
            break
        assert table.expire() is not None
    assert table.is_over


def test_timeouts_replay_and_restore_from_a_snapshot(games: dict[str, Game]) -> None:
    table = clocked(games, "taradinho", max_timeouts=3)
    for _ in range(5):
        table.expire()
    again = Table.replay(table.game, table.setup, table.history)
    assert again.view(ADJUDICATOR) == table.view(ADJUDICATOR)
    assert (again.timeouts, again.deadline) == (table.timeouts, table.deadline)
    restored = snapshot.restore(table.game, table.setup, snapshot.snapshot(table), table.history)
    assert (restored.timeouts, restored.deadline_since) == (table.timeouts, table.deadline_since)


def test_a_rewind_restores_the_timeouts(games: dict[str, Game]) -> None:
    table = clocked(games, "pontinho")
    table.expire()
    table.propose(0, Move("dispute", {"version": 1, "reason": "I was not away"}))
    ruling = {"dispute": 2, "note": "the server stalled", "decision": "rewind", "to": 0}
    table.propose(DIRECTOR, Move("ruling", ruling))
    assert table.timeouts == [0, 0, 0]
    assert table.deadline is not None and table.deadline.number == 3  # a full turn again


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(["auto", "forfeit"]),
    most=st.integers(0, 4),
)
def test_timeouts_alone_always_move_the_table_on(
    games: dict[str, Game], name: str, seed: int, policy: str, most: int
) -> None:
    """Whatever the seats do not do: each timeout is a legal, logged move that changes the
    table; chips are neither made nor lost by it; the log replays to the same table. A banking
    player timed out before its bet has seen its first card: it pays exactly the minimum bet,
    bet for it (`auto`) or lost to the banker (out of the hand, GEN-10); a finished table has
    nothing left on it, its kitty back with the banker (SH-8)."""
    banking = {"min_bet": MIN_BET} if "pontoon" in name else {}
    table = clocked(games, name, seed=seed, on_timeout=policy, max_timeouts=most, **banking)
    chips = _chips(table)
    for _ in range(150):
        if table.is_over:
            break
        before = table.view(ADJUDICATOR)
        verdict = table.expire()
        assert verdict is not None and verdict.outcome is Outcome.ACCEPTED
        assert table.view(ADJUDICATOR) != before
        assert _chips(table) == chips
        if banking and _before_its_bet(before):
            assert _paid(verdict, before["to_act"]) == MIN_BET
    again = Table.replay(table.game, table.setup, table.history)
    assert again.view(ADJUDICATOR) == table.view(ADJUDICATOR)
    if banking and table.is_over:
        view = table.view(ADJUDICATOR)
        assert view["on_table"] == 0 and view.get("kitty", 0) == 0


MIN_BET = 3  # not the default 1, so that a cost of one chip is no accident


def _before_its_bet(view: dict[str, Any]) -> bool:
    """Does the banking table wait for a player that has its first card and no bet yet?"""
    seat = view["to_act"]
    first = view["hands"][str(seat)][0]
    return view["phase"] == "bet" and seat != view["banker"] and not first["stake"]


def _paid(verdict: Any, seat: int) -> int:
    """What left `seat`'s balance in a verdict: its bets and what it paid (not a settlement)."""
    return sum(
        e.data["amount"] for e in verdict.events if e.kind == "transfer" and e.data["from"] == seat
    )


def _chips(table: Table) -> int:
    """Balances, and what lies on the table, the kitty and the pot (GEN-6)."""
    view = table.view(ADJUDICATOR)
    return int(
        sum(view.get("balances", {}).values())
        + view.get("on_table", 0)
        + view.get("kitty", 0)
        + view.get("pot", 0)
    )
