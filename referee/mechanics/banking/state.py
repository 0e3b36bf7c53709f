"""The state of a banking table: hands per seat, stakes on the table, the banker."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card


@dataclass
class Hand:
    """One hand of a seat (a split makes several). Cards are hidden but from their holder unless
    `face_up`; the banker's first card is hidden from the banker too until its turn. A
    bust hand holds no card: its cards went under the pack when it was shown."""

    cards: list[Card] = field(default_factory=list)
    face_up: list[bool] = field(default_factory=list)
    stake: int = 0  # the initial bet (a split hand: equal to the first's)
    paid: list[int] = field(default_factory=list)  # what each bought card cost
    twisted: bool = False
    split: bool = False  # made by a split
    done: bool = False  # stood (or found the pack empty), bust, pontoon, five cards
    settled: bool = False  # its stake has left the table
    shoot: int = 0  # the kitty part: the shoot bets laid on this hand
    shoot_settled: bool = False

    @property
    def on_table(self) -> int:
        return 0 if self.settled else self.stake + sum(self.paid)

    @property
    def shoot_on_table(self) -> int:
        return 0 if self.shoot_settled else self.shoot

    def clone(self) -> Hand:
        copy = object.__new__(Hand)  # every field shared, faster than __init__: the lists
        copy.__dict__.update(self.__dict__)  # are copied below
        copy.cards, copy.face_up, copy.paid = list(self.cards), list(self.face_up), list(self.paid)
        return copy


# the attribute (not a field: never compared nor stored) that holds the ids of the hands a copy
# made by `clone_sharing` has copied for itself (`own`); every other hand of it may be shared
OWNED = "_owned_hands"


@dataclass
class BankState:
    seats: int
    banker: int
    seed: str  # the seed chain's current link (secret): shuffles are keyed by it
    salt: str
    options: dict[str, Any]
    pack: list[Card]  # the top is the last element
    balances: list[int]
    hands: list[list[Hand]] = field(default_factory=list)  # per seat; the banker's too
    phase: str = "bet"  # bet | play | banker | between (| kitty, the kitty part's)
    to_act: int | None = None
    active: int = 0  # the hand of `to_act` being played
    hand_number: int = 1
    deck: tuple[Card, ...] = ()  # the pack's order when last shuffled, top first (committed to)
    keys: dict[str, str] = field(default_factory=dict)  # that shuffle's key, by purpose
    shuffle_number: int = 1  # how many times the pack was shuffled (the first deal's is 1)
    revealed: dict[str, Any] | None = None  # the last shuffled-away deck, with its salt
    next_banker: int | None = None  # who takes the bank for the next hand (`banking.takes_bank`)
    reshuffle: bool = False  # the finished hand has the pack shuffled (`banking.reshuffle`)
    offer: tuple[int, int] | None = None  # the bank offered for sale: (to, price)
    kitty: int = 0  # the kitty part: the banker's kitty
    last_hand: dict[str, Any] = field(default_factory=dict)
    # per seat, when its time ran out (the play clock, `leaving.py`): out of the hand being
    # played (dealt in again with the next), out of the table for good
    out_of_hand: list[bool] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)
    shoe: int = 0  # the cards of the whole shoe (`banking.packs` packs; 0: a table set up before)
    dealt: int = 0  # the cards dealt since the shoe was last shuffled (a cut card's count)

    def players(self) -> list[int]:
        """The seats after the banker that play the hand, in play order (GEN-1)."""
        seats, banker, out, out_of_hand = self.seats, self.banker, self.out, self.out_of_hand
        found = []
        for k in range(1, seats):
            seat = (banker + k) % seats
            if not out[seat] and not out_of_hand[seat]:
                found.append(seat)
        return found

    def seated(self) -> list[int]:
        """The seats still at the table (not out of it for good), in seat order."""
        return [seat for seat in range(self.seats) if not self.out[seat]]

    def hand(self, seat: int) -> Hand:
        """The hand `seat` plays now (its active one while playing)."""
        hands = self.hands[seat]
        return hands[min(self.active, len(hands) - 1)] if seat == self.to_act else hands[0]

    @property
    def on_table(self) -> int:
        """Stakes and shoot bets lying on the table (the kitty is counted apart)."""
        return sum(h.on_table + h.shoot_on_table for hands in self.hands for h in hands)

    @property
    def shoot_total(self) -> int:
        return sum(h.shoot_on_table for hands in self.hands for h in hands)

    def clone(self) -> BankState:
        """A copy to change as it likes: every hand copied too."""
        copy = self.clone_sharing()
        copy.hands = [[h.clone() for h in hands] for hands in self.hands]
        del copy.__dict__[OWNED]  # every hand its own
        return copy

    def clone_sharing(self) -> BankState:
        """A copy sharing this state's hands until it changes one: whoever changes a hand of
        it takes it with `own` (or `own_hand`) first. Only the moves' handlers and the flow
        they call (`moves.py`, `flow.py`, the kitty part) are given one; a move changes a few
        hands of many, and copying a hand costs as much as the rest of the state together."""
        copy = object.__new__(BankState)  # every field shared, faster than __init__: the
        copy.__dict__.update(self.__dict__)  # mutable ones are copied below
        copy.pack, copy.balances = list(self.pack), list(self.balances)
        copy.out_of_hand, copy.out = list(self.out_of_hand), list(self.out)
        copy.hands = [list(hands) for hands in self.hands]
        copy.__dict__[OWNED] = set()
        # `last_hand`, `keys` and `revealed` are shared: a move replaces them, never changes them
        return copy

    def own(self, seat: int, index: int) -> Hand:
        """`seat`'s hand number `index`, to change: copied first where it is still shared
        with the state this one was copied from (`clone_sharing`)."""
        hand = self.hands[seat][index]
        owned = self.__dict__.get(OWNED)
        if owned is not None and id(hand) not in owned:  # a hand made by this very move is
            # copied once more, needlessly but harmlessly: a shared one outlives the move, so
            # no hand made since has its id
            hand = self.hands[seat][index] = hand.clone()
            owned.add(id(hand))
        return hand

    def written(self) -> None:
        """The move made on this copy is done: it is a state now, never changed again (no
        state is: the next move works on a copy of it), so it keeps no record of its hands."""
        self.__dict__.pop(OWNED, None)

    def own_hand(self, seat: int) -> Hand:
        """The hand `seat` plays now (`hand`), to change."""
        hands = self.hands[seat]
        return self.own(seat, min(self.active, len(hands) - 1) if seat == self.to_act else 0)

    def own_all(self) -> None:
        """Every hand, to change."""
        for seat, hands in enumerate(self.hands):
            for index in range(len(hands)):
                self.own(seat, index)
