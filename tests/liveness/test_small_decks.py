"""No table waits forever (issue 9), per mechanic: a bounded search of the game tree over tiny
packs, where stocks and packs run out within a few turns.

Each game of `tests/liveness/specs/` is a shipped spec on a tiny pack (`extends`, with fewer
cards and smaller hands): Pontinho and Taradinho (rummy: the stock runs out, claims empty the
pile), Pontoon and Shoot Pontoon (banking: splits and buys drain the pack at eight seats),
Tarocchi (trick taking). From many seeded deals and as many seats as the game allows, the search
walks the tree of every move the liveness oracle finds legal for any seat (and the claim window's
deadline), in random order, visiting each distinct state once, up to a budget of states. At
every state not over some seat must have a legal move. Banking tables never end: the search stops
at the third hand.

`LIVENESS_SCALE` multiplies the budget; `LIVENESS_REPORT=1` prints what was covered.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.cards import PackKind
from referee.engine.game import Game
from referee.engine.mechanic import Judgement
from referee.engine.moves import parse_move
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR
from referee.plugins.games import DEFAULT_SPECS, load_game
from tests.liveness.oracle import candidates

pytestmark = pytest.mark.slow  # every test here is a long run

SPECS = Path(__file__).parent / "specs"
SCALE = int(os.environ.get("LIVENESS_SCALE", "1"))
DEALS = 2 * SCALE  # seeded deals per game (`make soak`: 40)
STATES = 600  # distinct states visited per deal
BRANCH = 4  # children of a state followed, chosen at random
LAST_HAND = 3  # a banking table is followed into its third hand
DRAINING = ("take_discard", "split", "buy", "twist")
COVERED: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield
    if os.environ.get("LIVENESS_REPORT"):
        print("\nliveness (small decks):", dict(sorted(COVERED.items())))


def tiny(name: str) -> Game:
    return load_game(SPECS / f"{name}.yaml", DEFAULT_SPECS)


def moves_from(game: Game, state: Any) -> list[Child]:
    """Every legal move the oracle finds for any seat, applied (on copies), and the deadline of
    an open claim window."""
    spec, mechanic = game.spec, game.mechanic
    children = []
    for seat in range(state.seats):
        for move in candidates(game, state, seat):
            parsed = parse_move(spec.moves, move, PackKind(spec.pack_kind))
            judged = mechanic.judge(state, seat, move.type, parsed)
            if judged.accepted:
                children.append(Child(move.type, judged))
    closed = mechanic.expire(state)
    return children + ([Child("close_window", closed)] if closed is not None else [])


@dataclass(frozen=True)
class Child:
    move_type: str
    judged: Judgement[Any]

    @property
    def state(self) -> Any:
        return self.judged.state

    @property
    def events(self) -> list[Any]:
        return self.judged.events


def finished(game: Game, state: Any) -> bool:
    return game.mechanic.is_over(state) or getattr(state, "hand_number", 1) >= LAST_HAND


def explore(game: Game, setup: TableSetup, rng: random.Random, draining: bool) -> None:
    root = Table.create(game, setup).state
    seen = {_key(game, root)}
    frontier = [root]
    while frontier and len(seen) < STATES:
        state = frontier.pop()
        COVERED[f"{game.name}: states"] += 1
        if finished(game, state):
            COVERED[f"{game.name}: ends reached"] += 1
            continue
        children = moves_from(game, state)
        assert children, _stuck(game, setup, state)
        for judged in children:
            for event in judged.events:
                if event.kind in ("hand_void", "pack_empty", "stock_rebuilt", "game_over"):
                    COVERED[f"{game.name}: {event.kind}"] += 1
        rng.shuffle(children)
        if draining:  # claims, splits, buys and twists first: run the table to its limits
            children.sort(key=lambda j: j.move_type not in DRAINING)
        for judged in children[:BRANCH]:
            key = _key(game, judged.state)
            if key not in seen:
                seen.add(key)
                frontier.append(judged.state)


def _key(game: Game, state: Any) -> str:
    return json.dumps(game.mechanic.view(state, ADJUDICATOR), sort_keys=True, default=str)


def _stuck(game: Game, setup: TableSetup, state: Any) -> str:
    view = game.mechanic.view(state, ADJUDICATOR)
    return f"no seat of `{game.name}` has a legal move: {view}\nsetup {setup}"


@pytest.mark.parametrize(
    "name",
    ["tiny_pontinho", "tiny_taradinho", "tiny_pontoon", "tiny_shoot_pontoon", "tiny_tarocchi"],
)
def test_no_small_deck_leaves_a_table_waiting(name: str) -> None:
    game = tiny(name)
    rng = random.Random(name)
    for deal in range(DEALS):
        seats = game.spec.seats_max if deal % 3 else game.spec.seats_min
        balances = {s: 1000 for s in range(seats)} if game.spec.mechanics == "banking" else None
        setup = TableSetup(
            game=name, seats=seats, dealer=deal % seats, seed=deal, balances=balances
        )
        explore(game, setup, rng, draining=deal % 2 == 1)
        COVERED[f"{name}: deals"] += 1
