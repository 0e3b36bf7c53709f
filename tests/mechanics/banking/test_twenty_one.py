"""A plain twenty-one (docs/example-specs/twenty_one.yaml, an example spec) runs on the banking
mechanic with no Python of its own: no kitty, no split, no pontoon, no sale of the bank.

Hands are played to the end through the engine's table, and each is settled as the game says,
written here in plain Python: a bust hand pays its stake, a hand beating the banker's total or
standing against a bust banker is paid 1:1, the banker wins ties. The parts the spec leaves out
are no-ops: no kitty phase, no kitty or shoot bet in any view or event; the bank never changes hands
(no `takes_bank`), the banker never wins at once (no `banker_wins_at_once`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import SpecErrors
from referee.model import ADJUDICATOR, JSON, Move, Outcome, Verdict
from referee.plugins.games import DEFAULT_SPECS, load_game
from tests.oracles.banking import best_total
from tests.oracles.twenty_one import paid
from tests.support import examples

SPEC = examples.TWENTY_ONE
GAME = load_game(SPEC)
HANDS = 12


# --- playing -----------------------------------------------------------------------------------
def propose(table: Table, seat: int, move: dict[str, Any]) -> Verdict:
    return table.propose(seat, Move.from_data(move))


def play_hand(
    table: Table, rng: random.Random, events: list[Any], watch: Callable[[], None] = lambda: None
) -> None:
    """One hand, from the first bet to `between`: players twist below a random total, the
    banker as the rules say (after trying the move they refuse); `watch` runs before each move."""
    while True:
        watch()
        view = table.view(ADJUDICATOR)
        seat, phase = view["to_act"], view["phase"]
        if phase == "between":
            return
        if phase == "bet":
            verdict = propose(table, seat, {"type": "bet", "amount": 11})
            assert verdict.rule_ids() == {"TO-1"}
            verdict = propose(table, seat, {"type": "bet", "amount": rng.randint(1, 10)})
        else:
            hand = view["hands"][str(seat)][view["active_hand"]]["cards"]
            if seat == view["banker"]:
                wanted = "twist" if best_total(hand) <= 16 else "stick"
                wrong = propose(table, seat, {"type": "stick" if wanted == "twist" else "twist"})
                assert wrong.rule_ids() == {"TO-4" if wanted == "twist" else "TO-3"}
            else:
                wanted = "twist" if best_total(hand) < rng.randint(12, 18) else "stick"
            verdict = propose(table, seat, {"type": wanted})
        assert verdict.outcome is Outcome.ACCEPTED, verdict.violations
        events += verdict.events


@pytest.mark.parametrize("seats", [2, 4, 7])
def test_twenty_one_is_played_hand_after_hand_and_settled_as_its_spec_says(seats: int) -> None:
    table = Table.create(GAME, TableSetup(game="twenty_one", seats=seats, seed=seats))
    rng = random.Random(seats)
    events: list[Any] = []
    for _ in range(HANDS):
        before = table.view(ADJUDICATOR)
        assert before["phase"] == "bet" and before["banker"] == 0  # the bank never passes
        play_hand(table, rng, events)
        after = table.view(ADJUDICATOR)
        banker = after["hands"]["0"][0]["cards"]
        owed = 0
        for seat in range(1, seats):
            hand = after["hands"][str(seat)][0]
            won = paid(hand["cards"], banker, hand["stake"])
            owed += won
            assert after["balances"][str(seat)] - before["balances"][str(seat)] == won
        assert after["balances"]["0"] - before["balances"]["0"] == -owed
        assert after["on_table"] == 0 and sum(after["balances"].values()) == 0
        verdict = propose(table, 0, {"type": "next_hand"})
        assert verdict.outcome is Outcome.ACCEPTED
        # `banking.reshuffle: true`: every finished hand has the pack shuffled
        assert [e.kind for e in verdict.events].count("deck_revealed") == 1
        events += verdict.events
    assert {e.data.get("reason") for e in events if e.kind == "transfer"} <= {"bet", "bust"}


def test_the_parts_it_leaves_out_are_no_ops(games: dict[str, Game]) -> None:
    table = Table.create(GAME, TableSetup(game="twenty_one", seats=3, seed=1))
    view = table.view(ADJUDICATOR)
    assert view["phase"] == "bet" and view["to_act"] == 1  # no kitty to put up first
    assert "kitty" not in view
    assert set(GAME.mechanic.expressions) == {
        "banking.done",
        "banking.bust",
        "banking.settle",
        "banking.reshuffle",
    }
    shoot = games["shoot_pontoon"].mechanic.expressions
    assert "banking.kitty.shoot_settle" in shoot
    verdict = propose(table, 1, {"type": "kitty", "amount": 5})  # a move the game does not have
    assert verdict.rule_ids() == {"GEN-8"}


def keys(data: JSON) -> set[str]:
    """Every key of `data`, however deep."""
    if isinstance(data, dict):
        return set(data).union(*(keys(value) for value in data.values()))
    if isinstance(data, list):
        return set().union(*(keys(value) for value in data))
    return set()


def test_no_view_or_event_shows_what_the_kitty_part_keeps() -> None:
    """Without the kitty part, no kitty and no shoot bet in any seat's view, the adjudicator's,
    a spectator's, nor in any event: that data is the part's."""
    seats = 3
    table = Table.create(GAME, TableSetup(game="twenty_one", seats=seats, seed=5))
    seen: set[str] = set()

    def watch() -> None:
        for seat in [*range(seats), ADJUDICATOR, None]:
            seen.update(keys(table.view(seat)))

    events: list[Any] = []
    for _ in range(3):
        play_hand(table, random.Random(5), events, watch)
        watch()
        events += propose(table, 0, {"type": "next_hand"}).events
    assert {"stake", "balances"} <= seen  # the views were looked at
    assert not seen & {"shoot", "kitty"}
    assert events and not keys([event.data for event in events]) & {"shoot", "kitty"}


def edited(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / source.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(SpecErrors) as caught:
        load_game(path, DEFAULT_SPECS)
    return str(caught.value.errors[0])


def test_the_kittys_names_are_the_kitty_parts(tmp_path: Path) -> None:
    """Without the kitty part a rule may not read `kitty`: the name is the part's."""
    path = edited(tmp_path, SPEC, "    require: in_turn\n", "    require: in_turn and kitty == 0\n")
    assert "kitty" in refused(path)


def test_the_kitty_move_needs_the_kitty_part(tmp_path: Path) -> None:
    path = edited(
        tmp_path, SPEC, "  next_hand:\n", "  next_hand:\n  kitty:\n    fields: {amount: int}\n"
    )
    assert "select the kitty part with `banking.kitty`" in refused(path)


def test_the_kitty_part_needs_the_kitty_move(tmp_path: Path) -> None:
    path = edited(
        tmp_path, SPEC, "  reshuffle: true\n", "  reshuffle: true\n  kitty: {shoot_settle: '0'}\n"
    )
    assert "needs the banker's move `kitty`" in refused(path)


def test_the_kitty_part_is_selected_with_its_expressions(tmp_path: Path) -> None:
    text = (DEFAULT_SPECS / "shoot_pontoon.yaml").read_text(encoding="utf-8")
    start, end = text.index("  kitty:   "), text.index("then shoot else -shoot\n")
    path = tmp_path / "shoot_pontoon.yaml"
    path.write_text(
        text[:start] + "  kitty: true\n" + text[end + len("then shoot else -shoot\n") :],
        encoding="utf-8",
    )
    assert "`banking.kitty` selects the kitty part: give its `shoot_settle`" in refused(path)


def test_what_the_banker_wins_at_once_needs_its_condition(tmp_path: Path) -> None:
    path = edited(tmp_path, SPEC, "  reshuffle: true\n", "  reshuffle: true\n  instant: '-stake'\n")
    assert "state when with `banking.banker_wins_at_once`" in refused(path)
