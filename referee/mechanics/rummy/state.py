"""The state of a rummy hand. Mutable for speed, but only ever changed on a clone (`clone`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card

TURNED = -1  # the discarder of the turned card: nobody


@dataclass
class Meld:
    id: int
    kind: str
    owner: int
    cards: list[Card]
    wild: list[bool]  # wild[i]: cards[i] is a joker standing for another card

    def clone(self) -> Meld:
        return Meld(self.id, self.kind, self.owner, list(self.cards), list(self.wild))


@dataclass
class RummyState:
    seats: int
    dealer: int
    seed: int
    options: dict[str, Any]
    turned: Card
    jokers: frozenset[Card]
    hands: list[list[Card]]
    stock: list[Card]               # the top is the last element
    discard: list[Card]             # the top is the last element
    discarders: list[int]           # who discarded each card of `discard` (TURNED for the turned card)
    deck: tuple[Card, ...]          # the dealt order, for the commitment
    scores: list[int]               # match totals before this hand's scoring, then after
    to_act: int
    phase: str = "take"             # "take": the seat in turn must take a card; "play": after
    melds: list[Meld] = field(default_factory=list)
    stolen: list[int] = field(default_factory=list)  # per seat: jokers stolen from its melds
    rebuilds: int = 0               # how many times the stock was rebuilt (PN-21)
    went_out: int | None = None     # the seat that went out: the hand is over
    hand_points: list[int] = field(default_factory=list)

    @property
    def mao(self) -> int:
        return (self.dealer + 1) % self.seats

    @property
    def hand_over(self) -> bool:
        return self.went_out is not None

    @property
    def discarder(self) -> int:
        return self.discarders[-1] if self.discarders else TURNED

    @property
    def top_is_turned(self) -> bool:
        return bool(self.discard) and self.discarder == TURNED

    def clone(self) -> RummyState:
        copy = RummyState(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        copy.hands = [list(h) for h in self.hands]
        copy.stock = list(self.stock)
        copy.discard = list(self.discard)
        copy.discarders = list(self.discarders)
        copy.scores = list(self.scores)
        copy.melds = [m.clone() for m in self.melds]
        copy.stolen = list(self.stolen)
        copy.hand_points = list(self.hand_points)
        return copy
