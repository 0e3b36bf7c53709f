"""No message names a card its recipient may not see (issue 10, point 6).

Random seeded tables of every shipped game, on a real referee through gRPC. Each step the game's
bot plays the seat in turn, and illegal proposals are mixed in, by random seats: another seat's
moves (naming that seat's hidden cards), the seat in turn's move out of turn, unreadable and
random moves naming any card of the pack, requests the server refuses (a field named `type`, a
seat the token is not, a bogus token) and retries of a `move_id`. Every recipient (each seat and
a spectator) looks at its view every step and watches the table from the start.

Everything each recipient got (verdicts with their violations and events, views, Watch moves,
error statuses) is checked against the leak oracle (`visibility.py`), which says from the full
state of a shadow table what that recipient may know at that version. A request's own cards may
come back in its answer (`you do not hold `KH``).

The controls turn a redaction off (events shown whole, views shown whole, a Pontoon rejection
naming the banker's hidden card with the redaction point bypassed) and check the test reports a
leak. `REDACTION_SCALE` multiplies the tables played (default 1: two tables a game), here and in
`test_twin_tables.py`.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.game import Game
from referee.engine.table import TableSetup
from referee.model import ADJUDICATOR, Move
from referee_bots import pontoon_bot, rummy_bot, tricks_bot
from tests.harden.report import report as harden_report
from tests.liveness.oracle import candidates, witness
from tests.redaction.breaks import CONTROLS, FIX_LEAK, MECHANIC_LEAK, Break
from tests.redaction.referee_under_test import Leak, WatchedTable
from tests.redaction.visibility import CardFinder
from tests.support.games import shipped_games

pytestmark = pytest.mark.slow  # every test here is a long run (3 s or more)

GAMES = shipped_games()
SCALE = int(os.environ.get("REDACTION_SCALE", "1"))
TABLES = 2  # tables a game at scale 1
STEPS = 25  # steps a table: one accepted move each, illegal proposals around it
BOT_TRIES = 20  # the bot's candidates tried for one move before the oracle's witness
CONTROL_STEPS = 8
ROUND_TRIP = {"rummy": {"claim_window_ms": 600_000}}  # no deadline passes during a test
CARD_FINDERS = {name: CardFinder(game) for name, game in GAMES.items()}
CHECKED: Counter[str] = Counter()  # messages checked, by game (the figures of `make harden`)


def setup_for(game: Game, seed: int, seats: int) -> TableSetup:
    banking = game.spec.mechanics == "banking"
    options = {  # those of the game's options
        k: v for k, v in ROUND_TRIP.get(game.spec.mechanics, {}).items() if k in game.spec.options
    }
    return TableSetup(
        game=game.name,
        seats=seats,
        seed=seed,
        options=options,
        balances={s: 1000 for s in range(seats)} if banking else None,
    )


# --- the moves ----------------------------------------------------------------------------------


def bot_moves(game: Game, table: WatchedTable, rng: random.Random) -> Iterator[tuple[int, Move]]:
    """The game's client bot for the seat whose move it is, from that seat's view."""
    full = table.shadow.view(ADJUDICATOR)
    mechanic = game.spec.mechanics
    if mechanic == "banking":
        seat = pontoon_bot.next_to_act(full)
        options = table.shadow.state.options
        found = pontoon_bot.turn_candidates(
            table.shadow.view(seat), rng, min_bet=options["min_bet"], max_bet=options["max_bet"]
        )
        yield from ((seat, Move.from_data(m)) for m in found)
        return
    bot = rummy_bot if mechanic == "rummy" else tricks_bot
    for seat in full.get("deciding") or ([] if full.get("to_act") is None else [full["to_act"]]):
        yield from (
            (seat, Move.from_data(m)) for m in bot.turn_candidates(table.shadow.view(seat), rng)
        )


def play_one(game: Game, table: WatchedTable, rng: random.Random) -> None:
    """One accepted move: the bot's, or the oracle's witness when the bot finds none."""
    for count, (seat, move) in enumerate(bot_moves(game, table, rng)):
        if count >= BOT_TRIES:
            break
        if table.propose(seat, move):
            return
    found = witness(game, table.shadow.state)
    assert found is not None, "a table waits forever"
    assert table.propose(*found), found


def illegal(game: Game, table: WatchedTable, rng: random.Random) -> None:
    """A few proposals the referee must refuse, by random seats."""
    seats = table.shadow.setup.seats
    seat, other = rng.randrange(seats), rng.randrange(seats)
    others = list(itertools.islice(candidates(game, table.shadow.state, other), 30))
    roll = rng.random()
    if roll < 0.35 and others and seat != other:  # another seat's move: its hidden cards
        table.propose(seat, rng.choice(others))
    elif roll < 0.55:
        table.propose(seat, junk(game, rng))
    elif roll < 0.7:
        move = junk(game, rng)
        table.propose(seat, move, move_id=f"m{table.shadow.version}")
        table.propose(seat, move, move_id=f"m{table.shadow.version}", retry=True)
    elif roll < 0.8:  # refused requests: their statuses are messages too
        table.propose(seat, Move("discard", {"type": "discard"}))
        table.propose(seat, junk(game, rng), claimed=(seat + 1) % seats)
        table.propose(seat, junk(game, rng), token="not-a-token")
    elif others:
        table.propose(seat, rng.choice(others))  # maybe out of turn, maybe its own


def junk(game: Game, rng: random.Random) -> Move:
    """A random move type with random fields, some naming any card of the pack."""
    codes = sorted(CARD_FINDERS[game.name].codes)
    kind = rng.choice([*game.spec.moves, "", "explode"])
    values = [
        rng.choice(codes),
        [rng.choice(codes), rng.choice(codes)],
        0,
        5,
        "x",
        [],
        {"meld": 0, "cards": [rng.choice(codes)]},
    ]
    fields = {
        f.name: rng.choice(values)
        for f in getattr(game.spec.moves.get(kind), "fields", ())
        if rng.random() < 0.8
    }
    return Move(kind, fields)


def play(stub: Any, game: Game, seed: int, seats: int, steps: int = STEPS) -> list[Leak]:
    """A table of `game` played `steps` moves; the leaks found in what its recipients got."""
    table = WatchedTable(stub, game, setup_for(game, seed, seats))
    rng = random.Random(seed)
    for _ in range(steps):
        if table.shadow.is_over:
            break
        table.views()
        for _ in range(rng.randrange(3)):
            illegal(game, table, rng)
        play_one(game, table, rng)
    table.views()
    table.finish()
    CHECKED[game.name] += len(table.received)
    return table.leaks()


def report(leaks: list[Leak]) -> str:
    return f"{len(leaks)} messages name hidden cards, the first:\n" + "\n".join(
        str(leak) for leak in leaks[:3]
    )


# --- the property -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_message_names_a_card_its_recipient_may_not_see(stub: Any, name: str) -> None:
    game = GAMES[name]

    @settings(max_examples=TABLES * SCALE, deadline=None, database=None, derandomize=True)
    @given(
        seed=st.integers(0, 2**32 - 1), seats=st.integers(game.spec.seats_min, game.spec.seats_max)
    )
    def tables(seed: int, seats: int) -> None:
        leaks = play(stub, game, seed, seats)
        assert not leaks, report(leaks)

    tables()
    harden_report(
        f"redaction ({name})",
        {"tables": TABLES * SCALE, "messages checked": CHECKED[name], "leaks found": 0},
    )


# --- the controls: with a redaction off, the test finds the leak ----------------------------------


@pytest.mark.parametrize("control", sorted(CONTROLS))
def test_the_check_finds_a_leak_when_a_redaction_is_off(
    stub: Any, control: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, broken, rpc = CONTROLS[control]
    for target, attribute, replacement in broken:
        monkeypatch.setattr(target, attribute, replacement)
    game = GAMES[name]
    leaks = next(
        (
            found
            for seed in range(5)
            if (found := play(stub, game, seed, game.spec.seats_max, CONTROL_STEPS))
        ),
        [],
    )
    assert any(leak.received.rpc == rpc for leak in leaks), f"{control}: no leak in {rpc} found"


@pytest.mark.parametrize("leak", [MECHANIC_LEAK, FIX_LEAK], ids=["cards", "fix"])
def test_the_redaction_point_alone_stops_a_mechanic_leak(
    stub: Any, leak: Break, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mechanic that names a hidden card in a rejection (the banker's, issue 10), in its
    cards or in its fix, is cut to what the seat sees by the redaction point: nothing reaches
    the seat."""
    for target, attribute, replacement in leak:
        monkeypatch.setattr(target, attribute, replacement)
    game = GAMES["pontoon"]
    leaks = [leak for seed in range(2) for leak in play(stub, game, seed, game.spec.seats_max)]
    assert not leaks, report(leaks)
