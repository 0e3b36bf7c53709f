"""Dealing a deal: from the seed in packets round the table, or stacked by a scenario; then the
deal's first step (the dealer's discard, or the first trick) and the deck's commitment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from referee.cards import Card, PackKind
from referee.engine import chance
from referee.engine import stacked as stacking
from referee.errors import SetupError
from referee.mechanics.tricks.config import TricksConfig
from referee.mechanics.tricks.state import TrickState


class Dealing(Protocol):
    """What a deal is made from: the spec's `tricks` config and its pack (the mechanic)."""

    @property
    def config(self) -> TricksConfig: ...

    @property
    def pack(self) -> list[Card]: ...


def sizes(config: TricksConfig, state: TrickState) -> list[int]:
    """Each seat's hand as dealt: the dealer's with its extra cards."""
    extra = config.dealer_extra
    return [config.hand_size + (extra if s == state.dealer else 0) for s in range(state.seats)]


def dealt(table: Dealing, state: TrickState) -> tuple[list[list[Card]], tuple[Card, ...]]:
    """From the seed: packets round the table from the seat after the dealer, the dealer's
    extra cards last."""
    config = table.config
    shuffle = chance.shuffle(table.pack, state.seed, "deal", state.deal_number)
    deck, state.keys = shuffle.cards, {shuffle.purpose: shuffle.key}
    packet = config.packet({"options": state.options, "seats": state.seats})
    if packet < 1:  # the spec's expression, at these options: no deal could end
        raise SetupError(f"the spec's `tricks.packet` gives {packet} cards a packet: at least 1")
    order = [(state.dealer + k) % state.seats for k in range(1, state.seats + 1)]
    hands: list[list[Card]] = [[] for _ in range(state.seats)]
    position, size = 0, config.hand_size
    while any(len(hands[s]) < size for s in order):
        for seat in order:
            take = min(packet, size - len(hands[seat]))
            hands[seat] += deck[position : position + take]
            position += take
    extra = config.dealer_extra
    hands[state.dealer] += deck[position : position + extra]
    return hands, tuple(deck)


def stacked(
    table: Dealing, kind: PackKind, state: TrickState, stacked: Mapping[str, Any]
) -> tuple[list[list[Card]], tuple[Card, ...]]:
    """SCENARIOS.md: `hands` (the dealer's holds its extra cards too, and its last card is
    the one dealt last: the turned card, if the spec turns one)."""
    stacking.check_keys(stacked, ("hands",))
    hands = stacking.read_hands(stacked.get("hands"), sizes(table.config, state), kind)
    placed = [c for hand in hands for c in hand]
    return hands, tuple(placed + stacking.rest_of_pack(table.pack, placed))


def start_deal(
    config: TricksConfig, state: TrickState, hands: list[list[Card]], deck: tuple[Card, ...]
) -> None:
    """The deal's hands on the table, a card turned face up if the spec turns one: the dealer
    discards first, if it has extra cards."""
    state.hands, state.deck = hands, deck
    if config.turned is not None:  # `dealer_last`: the last card dealt to the dealer
        state.turned, state.turned_seat = hands[state.dealer][-1], state.dealer
        state.turned_shown = True
    state.trick, state.tricks, state.discard, state.announced = [], [], [], None
    state.leader = (state.dealer + 1) % state.seats  # the seat after the dealer leads
    if config.dealer_extra:
        state.phase, state.to_act = "discard", state.dealer
    else:
        state.phase, state.to_act = "play", state.leader


def commitment(state: TrickState) -> str:
    """The commitment of the deal's deck, revealed when the deal is over."""
    return chance.hand_commitment(state.salt, state.deal_number, state.deck)
