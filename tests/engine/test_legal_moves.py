"""The legal moves a seat's view lists (`legal`) are legal, and the cards it leaves out are not
(issue 11, point 5).

Random games of every shipped game, played by the game's client bot, by moves the view lists,
and by the liveness oracle's moves of any seat (claims, passes, splits). At every state, for
every seat: each move listed, made concrete (each card of a card list, both ends of a range, each
set of a discard, each use of the top discard), is accepted by the table as it is (judged on the
state, nothing applied); each card of the seat's hand that a complete list leaves out (a card to
play, to discard, to lay off alone on a meld) is rejected, and so is a number one beyond a range.
A spectator's view lists nothing; a seat's `legal` is its own view's, the same at each reading.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import OptionError, SetupError
from referee.model import Move
from tests.liveness.oracle import accepted, candidates
from tests.support.games import shipped_games
from tests.support.random_games import bot_moves, setups

GAMES = shipped_games()
STEPS = 40
CHECKED: Counter[str] = Counter()
# the one-card moves whose list is complete: every held card left out is rejected
COMPLETE = {"rummy": ("discard",), "tricks": ("play",), "banking": ()}


def card_field(game: Game, move_type: str, kind: str) -> str:
    """The name of the move's one field of type `kind` (`card`, `cards`)."""
    (name,) = [f.name for f in game.spec.moves[move_type].fields if f.type == kind]
    return name


def listed_moves(game: Game, move_type: str, entry: dict[str, Any]) -> Iterator[Move]:
    """Every concrete move an entry of `legal` stands for."""
    if move_type == "contribute":
        return
    if "uses" in entry:
        yield from (Move(move_type, use) for use in entry["uses"])
    elif "moves" in entry:  # whole moves: a rummy `go_out` laying the hand and its discard
        yield from (Move(move_type, fields) for fields in entry["moves"])
    elif "onto" in entry:
        yield from (
            Move(move_type, {"meld": onto["meld"], "cards": [card]})
            for onto in entry["onto"]
            for card in onto["cards"]
        )
    elif "melds" in entry:
        yield from (Move(move_type, {"cards": cards}) for cards in entry["melds"])
    elif "count" in entry:
        field = card_field(game, move_type, "cards")
        sets = entry.get("choices") or itertools.combinations(entry["cards"], entry["count"])
        yield from (Move(move_type, {field: list(cards)}) for cards in sets)
    elif "cards" in entry:
        field = card_field(game, move_type, "card")
        yield from (Move(move_type, {field: card}) for card in entry["cards"])
    else:
        yield from numbered_moves(game, move_type, entry)


def numbered_moves(game: Game, move_type: str, entry: dict[str, Any]) -> Iterator[Move]:
    """Both ends of each range: the required numbers' (`min`, `max`), then each optional one's
    with the required at their least."""
    fields = game.spec.moves[move_type].fields
    required = [f.name for f in fields if not f.optional]
    ranges = (
        {required[0]: entry} if len(required) == 1 else {name: entry[name] for name in required}
    )
    least = {name: r["min"] for name, r in ranges.items()}
    yield Move(move_type, dict(least))
    yield Move(move_type, {name: r["max"] for name, r in ranges.items()})
    for field in (f.name for f in fields if f.optional and f.name in entry):
        for end in ("min", "max"):
            yield Move(move_type, {**least, field: entry[field][end]})


def beyond(game: Game, move_type: str, entry: dict[str, Any]) -> Iterator[Move]:
    """A required number one below or one above its range (the others at their least)."""
    if move_type not in game.spec.moves:  # `contribute`, the table's own
        return
    fields = game.spec.moves[move_type].fields
    required = [f.name for f in fields if not f.optional]
    if len(required) != 1 or "min" not in entry:
        return
    yield Move(move_type, {required[0]: entry["min"] - 1})
    yield Move(move_type, {required[0]: entry["max"] + 1})


def left_out(game: Game, table: Table, seat: int, legal: dict[str, Any]) -> Iterator[Move]:
    """The moves of held cards a complete list leaves out."""
    if game.spec.mechanics == "banking":  # no card moves
        return
    hand = sorted(set(table.view(seat)["hand"]))
    for move_type in COMPLETE[game.spec.mechanics]:
        if move_type not in game.spec.moves:
            continue
        listed = set(legal.get(move_type, {}).get("cards", ()))
        field = card_field(game, move_type, "card")
        yield from (Move(move_type, {field: c}) for c in hand if c not in listed)
    if "layoff" in game.spec.moves:  # a held card on a meld it is not listed for
        onto = {o["meld"]: set(o["cards"]) for o in legal.get("layoff", {}).get("onto", ())}
        for meld in table.state.melds:
            yield from (
                Move("layoff", {"meld": meld.id, "cards": [c]})
                for c in hand
                if c not in onto.get(meld.id, set())
            )
    discard = legal.get("discard", {})
    if "count" in discard and "cards" in discard:  # a set with a card outside the list
        for card in (c for c in hand if c not in discard["cards"]):
            others = discard["cards"][: discard["count"] - 1]
            yield Move("discard", {card_field(game, "discard", "cards"): [card, *others]})


def check_legal(game: Game, table: Table) -> None:
    assert "legal" not in table.view(None)
    for seat in range(table.setup.seats):
        legal = table.view(seat, legal=True)["legal"]
        assert table.view(seat, legal=True)["legal"] == legal  # read again: the same
        assert ("contribute" in legal) != table.is_over
        for move_type, entry in legal.items():
            for move in listed_moves(game, move_type, entry):
                assert accepted(game, table.state, seat, move), (seat, move.to_data(), legal)
                CHECKED[f"{game.name}: listed moves accepted"] += 1
            for move in beyond(game, move_type, entry):
                assert not accepted(game, table.state, seat, move), (seat, move.to_data(), legal)
                CHECKED[f"{game.name}: numbers beyond a range rejected"] += 1
        for move in left_out(game, table, seat, legal):
            assert not accepted(game, table.state, seat, move), (seat, move.to_data(), legal)
            CHECKED[f"{game.name}: cards left out rejected"] += 1


def next_move(game: Game, table: Table, rng: random.Random) -> tuple[int, Move] | None:
    """A listed move of the seat to act, a bot's move, or an oracle's move of any seat."""
    roll = rng.random()
    seat = (
        table.state.to_act if table.state.to_act is not None else rng.randrange(table.setup.seats)
    )
    listed = [
        m
        for t, e in table.view(seat, legal=True)["legal"].items()
        for m in listed_moves(game, t, e)
    ]
    if roll < 0.4 and listed:
        return seat, rng.choice(listed)
    if roll < 0.8:
        for count, (bot_seat, data) in enumerate(bot_moves(game, table, rng)):
            move = Move.from_data(data)
            if accepted(game, table.state, bot_seat, move):
                return bot_seat, move
            if count > 200:
                break
    seat = rng.randrange(table.setup.seats)
    found = [
        m
        for m in itertools.islice(candidates(game, table.state, seat), 300)
        if accepted(game, table.state, seat, m)
    ]
    return (seat, rng.choice(found)) if found else None


def play(game: Game, setup: TableSetup, seed: int) -> None:
    try:
        table = Table.create(game, setup)
    except (SetupError, OptionError):  # option values that do not go together
        return
    rng = random.Random(seed)
    for step in range(STEPS):
        check_legal(game, table)
        if step == 0:  # `contribute` is accepted as listed (on a copy: it changes the seed chain)
            entropy = "x" * table.view(0, legal=True)["legal"]["contribute"]["max_chars"]
            assert (
                copy.deepcopy(table).propose(0, Move("contribute", {"entropy": entropy})).accepted
            )
        if table.is_over:
            return
        if table.deadline is not None and rng.random() < 0.2:
            table.expire()
            continue
        chosen = next_move(game, table, rng)
        if chosen is not None:
            verdict = table.propose(*chosen)
            assert verdict.accepted or verdict.outcome.name == "PENDING", (chosen, verdict)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_move_listed_is_legal_and_every_card_left_out_is_not(name: str) -> None:
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
    assert CHECKED[f"{name}: listed moves accepted"] > 0
