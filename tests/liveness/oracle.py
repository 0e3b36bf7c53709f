"""The liveness oracle: at a table whose game is not over, does some seat have a legal move?

A hand that waits forever is a table where every move of every seat is rejected. The oracle
proposes, for each seat, the moves that keep a game going (and every take of the top discard,
through the rummy mechanic's own search), and asks the mechanic to judge each one on the current
state, without applying it. A witness is a seat and a move the rules accept; no witness at a
table that is not over is a dead end of the rules.

The candidates are written from the move language (SCENARIOS.md), not from the rules: amounts
come from the table's integer options and the hand's stake, so that a bet, a buy or a kitty
within the rules' limits is among them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from referee.cards import PackKind, codes
from referee.engine.game import Game
from referee.engine.moves import parse_move
from referee.mechanics.banking.mechanic import BankingMechanic
from referee.mechanics.banking.state import BankState
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.mechanics.rummy.search import SearchExhausted, TakeSearch
from referee.mechanics.rummy.state import RummyState
from referee.mechanics.tricks.mechanic import TricksMechanic
from referee.mechanics.tricks.state import TrickState
from referee.model import Move

Witness = tuple[int, Move]


def accepted(game: Game, state: Any, seat: int, move: Move) -> bool:
    """Would the rules accept `move` of `seat` now? (Judged on a copy: nothing changes.)"""
    spec = game.spec
    parsed = parse_move(spec.moves, move, PackKind(spec.pack_kind))
    return game.mechanic.judge(state, seat, move.type, parsed).accepted


def witness(game: Game, state: Any) -> Witness | None:
    """Some seat's legal move now, or None: every seat's candidates are rejected."""
    for seat in seats_first(state):
        for move in candidates(game, state, seat):
            if accepted(game, state, seat, move):
                return seat, move
    return None


def seats_first(state: Any) -> list[int]:
    """Every seat, the one whose move it most likely is first."""
    first = getattr(state, "to_act", None)
    seats = list(range(state.seats))
    return sorted(seats, key=lambda s: s != first)


def candidates(game: Game, state: Any, seat: int) -> Iterator[Move]:
    """The seat's candidate moves, of the move types the game has."""
    mechanic = game.mechanic
    if isinstance(mechanic, RummyMechanic):
        found = rummy_candidates(mechanic, state, seat)
    elif isinstance(mechanic, BankingMechanic):
        found = banking_candidates(state, seat)
    elif isinstance(mechanic, TricksMechanic):
        found = tricks_candidates(state, seat)
    else:
        raise AssertionError(f"no liveness oracle for the `{mechanic.name}` mechanic")
    # the candidates are the mechanic's moves: each under every name the spec gives it (`does:`)
    names: dict[str, list[str]] = {}
    for spec in game.spec.moves.values():
        names.setdefault(spec.handler, []).append(spec.type)
    return (Move(name, move.fields) for move in found for name in names.get(move.type, ()))


# --- rummy ----------------------------------------------------------------------------------


def rummy_candidates(mechanic: RummyMechanic, state: RummyState, seat: int) -> Iterator[Move]:
    yield from (Move(t) for t in ("reenter", "decline", "pass", "draw"))
    for card in sorted(set(state.hands[seat])):
        yield Move("discard", {"card": str(card)})
    for meld in state.melds:  # a last card laid off (going out when a discard is not allowed)
        for card in sorted(set(state.hands[seat])):
            yield Move("layoff", {"meld": meld.id, "cards": [str(card)]})
            yield Move("go_out", {"layoffs": [{"meld": meld.id, "cards": [str(card)]}]})
    try:
        yield from TakeSearch(mechanic, state, seat).candidates()
    except SearchExhausted:
        return


# --- banking --------------------------------------------------------------------------------


def banking_candidates(state: BankState, seat: int) -> Iterator[Move]:
    amounts = _amounts(state, seat)
    yield from (
        Move(t) for t in ("stick", "twist", "next_hand", "accept_bank", "split", "burn", "sit_out")
    )
    for amount in amounts:
        yield Move("kitty", {"amount": amount})
        yield Move("bet", {"amount": amount})
        yield Move("buy", {"amount": amount})
    yield Move("offer_bank", {"to": (seat + 1) % state.seats, "price": 0})


def _amounts(state: BankState, seat: int) -> list[int]:
    """The table's integer options (its betting limits), 1, and the active hand's stake, twice
    it and the last price paid (PO-5's limits for a buy)."""
    found = {1} | {
        v for v in state.options.values() if isinstance(v, int) and not isinstance(v, bool)
    }
    if state.hands and state.hands[seat]:
        hand = state.hand(seat)
        found |= {hand.stake, 2 * hand.stake, *hand.paid}
    return sorted(a for a in found if a >= 1)


# --- trick taking ---------------------------------------------------------------------------


def tricks_candidates(state: TrickState, seat: int) -> Iterator[Move]:
    hand = sorted(set(state.hands[seat]))
    for card in hand:
        yield Move("play", {"card": str(card)})
    if state.phase == "discard":
        extra = len(state.hands[seat]) - min(len(h) for h in state.hands)
        for cards in itertools.combinations(sorted(state.hands[seat]), extra):
            yield Move("discard", {"cards": codes(list(cards))})
