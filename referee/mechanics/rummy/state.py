"""The state of a rummy hand. Mutable for speed, but only ever changed on a clone (`clone`); a
clone shares the melds, which are replaced, never changed (`Turn._apply`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card
from referee.mechanics.rummy.window import Window

TURNED = -1  # the discarder of the turned card: nobody
# the attribute (not a field: never compared nor stored) naming a table's states, from its deal
# on (`Lineage`): a copy keeps it, a state read back from a snapshot starts without one
LINEAGE = "_lineage"


class Lineage:
    """What the states of one table share, from its deal on: the options and the pack (a move
    changes neither), hence what a fix's search reads of them (`lineage`)."""


def lineage(state: RummyState) -> object:
    """What values worked out from `state` alone but for what its table's states share are
    kept with: its table's `Lineage`, else (a state read back) the state itself."""
    found: object = state.__dict__.get(LINEAGE, state)
    return found


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
    """A match: the hand being played, and what carries from hand to hand (scores, blows,
    re-entries, chips)."""

    seats: int
    dealer: int
    seed: str  # the seed chain's current link (secret): shuffles are keyed by it
    salt: str  # the table's secret: each hand's deck commitment is salted
    options: dict[str, Any]
    turned: Card | None  # the turned card (None: the spec turns none)
    jokers: frozenset[Card]
    hands: list[list[Card]]
    stock: list[Card]  # the top is the last element
    discard: list[Card]  # the top is the last element
    discarders: list[int]  # who discarded each card of `discard` (TURNED for the turned card)
    deck: tuple[Card, ...]  # this hand's dealt order
    keys: dict[str, str]  # this hand's shuffle keys by purpose, revealed when it ends
    scores: list[int]  # match totals
    to_act: int | None  # None between hands and once the match is over
    phase: str = "take"  # take | play (a turn), decide (re-entry, between hands), over
    melds: list[Meld] = field(default_factory=list)
    stolen: list[int] = field(default_factory=list)  # per seat: jokers others stole from its melds
    rebuilds: int = 0  # how many times the stock was rebuilt from the discards
    turned_covered: bool = False  # the hand's first discard lay on the turned card
    went_out: int | None = None  # the seat that went out of this hand
    hand_number: int = 1
    hand_ended: bool = False  # the last accepted move ended a hand
    in_match: list[bool] = field(default_factory=list)  # not out for good
    blown: list[bool] = field(default_factory=list)  # at or over the blowing score
    blows: list[int] = field(default_factory=list)
    reentries: list[int] = field(default_factory=list)
    deciding: list[int] = field(default_factory=list)  # seats to decide on re-entry
    balances: list[int] = field(default_factory=list)  # chips off the table (GEN-6)
    pot: int = 0
    winner: int | None = None
    last_hand: dict[str, Any] = field(default_factory=dict)  # the finished hand, revealed
    window: Window | None = None  # the open claim window
    window_count: int = 0
    closed_windows: int = 0  # the last window closed: while its discard is on top, no claim
    # per seat: out of the hand being played (its time ran out: `leaving.py`), dealt in again
    # with the next hand
    out_of_hand: list[bool] = field(default_factory=list)

    @property
    def mao(self) -> int:
        return self.next_seat(self.dealer)

    @property
    def hand_over(self) -> bool:
        """No more moves of this hand: someone went out (the next may not be dealt yet)."""
        return self.went_out is not None or self.phase in ("decide", "over")

    @property
    def match_over(self) -> bool:
        return self.phase == "over"

    @property
    def playing(self) -> list[int]:
        """The seats dealt in: in the match and not blown."""
        return [s for s in range(self.seats) if self.in_match[s] and not self.blown[s]]

    @property
    def in_hand(self) -> list[int]:
        """The seats playing the hand: playing, and not out of it."""
        return [s for s in self.playing if not self.out_of_hand[s]]

    def next_seat(self, seat: int) -> int:
        """The first seat after `seat` in play order that plays the hand (GEN-1)."""
        for step in range(1, self.seats + 1):
            candidate = (seat + step) % self.seats
            if (
                self.in_match[candidate]
                and not self.blown[candidate]
                and not self.out_of_hand[candidate]
            ):
                return candidate
        return seat

    @property
    def discarder(self) -> int:
        return self.discarders[-1] if self.discarders else TURNED

    @property
    def top_is_turned(self) -> bool:
        return bool(self.discard) and self.discarder == TURNED

    def clone(self) -> RummyState:
        copy = object.__new__(RummyState)  # every field shared, faster than __init__: the
        copy.__dict__.update(self.__dict__)  # mutable ones are copied below
        copy.stock, copy.discard, copy.discarders = (
            self.stock[:],
            self.discard[:],
            self.discarders[:],
        )
        copy.scores, copy.stolen, copy.in_match = self.scores[:], self.stolen[:], self.in_match[:]
        copy.blown, copy.blows, copy.reentries = self.blown[:], self.blows[:], self.reentries[:]
        copy.deciding, copy.balances = self.deciding[:], self.balances[:]
        copy.out_of_hand = self.out_of_hand[:]
        copy.hands = [list(h) for h in self.hands]
        copy.keys = dict(self.keys)
        copy.melds = list(self.melds)  # shared until written: `Turn._apply` replaces one
        copy.window = self.window.clone() if self.window else None
        return copy
