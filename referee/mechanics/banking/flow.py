"""The flow of a banking hand, shared by the moves (`moves.py`) and by a seat leaving
(`leaving.py`): the deal, the second round, moving on from hand to hand and player to player,
the banker's turn, settlement and the end of the hand.

What a hand is worth, when it is over and what it is paid are the spec's expressions
(`BankingConfig`), computed over the `hand` context; the kitty part (`banking.kitty`) takes its
steps where the hand passes them.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from referee.cards import Card, codes
from referee.engine import chance
from referee.mechanics.banking import leaving
from referee.mechanics.banking.config import BankingConfig
from referee.mechanics.banking.contexts import Seen
from referee.mechanics.banking.state import BankState, Hand
from referee.mechanics.banking.transfers import transfer, under_the_pack
from referee.mechanics.banking.visibility import DEALT, DEFAULT, Visibility
from referee.mechanics.context import Builder
from referee.model import Event
from referee.spec.rules import SpecExpression

NO_HAND = Hand()  # where a seat has no hand yet: what the rules read of it (never changed)


class HandFlow:
    """The procedure of a hand at a table of one spec: its config, and the names its expressions
    read. It is the `leaving.Flow` a seat leaving the hand has the hand go on with."""

    def __init__(self, config: BankingConfig, context: Builder[Seen]) -> None:
        self.config = config
        self.kitty = config.kitty
        self.context = context

    # --- expressions --------------------------------------------------------------------------
    def env(
        self,
        state: BankState,
        seat: int,
        hand: Hand | None = None,
        names: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """What the rules read (`contexts.NAMES`) of `seat`'s `hand` (its hand in play); with
        `names`, only those names (what the expressions judged with it read)."""
        dealt = bool(state.hands)  # a table being set up has no hands yet
        hand = hand or (state.hand(seat) if dealt and state.hands[seat] else NO_HAND)
        banker = state.hands[state.banker][0] if dealt and state.hands[state.banker] else NO_HAND
        return self.context.env(Seen(state, seat, hand, banker), names)

    def value(self, expression: SpecExpression, state: BankState, seat: int, hand: Hand) -> Any:
        """A `banking.*` expression of `seat`'s `hand`."""
        return expression(self.env(state, seat, hand, expression.reads))

    def holds(
        self, expression: SpecExpression | None, state: BankState, seat: int, hand: Hand
    ) -> bool:
        """An optional condition of the spec's (`banking.takes_bank`...); left out, it never holds."""
        return expression is not None and bool(self.value(expression, state, seat, hand))

    def forfeit_before_bet(self, state: BankState, seat: int) -> int:
        """What a player leaving the hand after its first card and before its bet pays the
        banker (`banking.forfeit_before_bet`, GEN-10); left out, nothing. Never a gain: a
        forfeit that paid the seat would favour it over every legal move."""
        cost = self.config.forfeit_before_bet
        if cost is None:
            return 0
        return max(0, int(self.value(cost, state, seat, state.hands[seat][0])))

    # --- the flow of play ---------------------------------------------------------------------
    def second_round(self, s: BankState, events: list[Event]) -> None:
        """The deal once every bet is placed: the second round (both, with bets before any
        card: `banking.bet_after_round`); then the banker may win at once, or play begins."""
        # a hand is dealt from the whole pack (every card comes back between hands), so both
        # rounds always find their cards
        for _ in range(2 - self.config.bet_after_round):
            for seat in [*s.players(), s.banker]:
                give(s, seat, s.own(seat, 0), False, events, self.config.visibility)
        banker = s.hands[s.banker][0]
        if self.holds(self.config.banker_wins_at_once, s, s.banker, banker):
            self._banker_wins_at_once(s, events)
            return
        s.phase = "play"
        s.to_act, s.active = s.players()[0], 0
        self.advance(s, events)

    def advance(self, s: BankState, events: list[Event]) -> None:
        """Close hands that are over by themselves; move on to the next hand, player, banker."""
        done = self.config.done
        while s.phase == "play":
            seat = s.to_act
            assert seat is not None
            hand = s.hands[seat][s.active]
            if not hand.done and self.value(done, s, seat, hand):
                hand = s.own(seat, s.active)
                self._finish(s, seat, hand, events)
            if not hand.done:
                return
            if s.active + 1 < len(s.hands[seat]):
                s.active += 1
                continue
            players = s.players()
            rest = players[players.index(seat) + 1 :]
            if rest:
                s.to_act, s.active = rest[0], 0
                continue
            self.bankers_turn(s, events)
        if s.phase == "banker":
            banker = s.hands[s.banker][0]
            if not banker.done and self.value(done, s, s.banker, banker):
                banker = s.own(s.banker, 0)
                banker.done = True
            if banker.done:
                self._settle(s, events)

    def _finish(self, s: BankState, seat: int, hand: Hand, events: list[Event]) -> None:
        """A hand over by itself: shown; a bust one pays its stake to the banker and its cards
        go under the pack at once, so that they may be dealt again in this very hand."""
        hand.done = True
        hand.face_up = [True] * len(hand.cards)
        bust = self.value(self.config.bust, s, seat, hand)
        events.append(
            Event(
                "hand_shown",
                {"seat": seat, "hand": s.active, "cards": codes(hand.cards), "bust": bool(bust)},
            )
        )
        if bust:
            events.append(transfer(s, None, s.banker, hand.on_table, "bust", hand=hand))
            self.kitty.takes(s, hand, "bust", events)
            under_the_pack(s, hand.cards)
            hand.cards, hand.face_up = [], []

    def bankers_turn(self, s: BankState, events: list[Event]) -> None:
        """The banker turns both cards up and plays, unless every player hand is bust."""
        standing = [h for seat in s.players() for h in s.hands[seat] if not h.settled]
        banker = s.own(s.banker, 0)
        banker.face_up = [True] * len(banker.cards)
        s.phase, s.to_act, s.active = "banker", s.banker, 0
        events.append(Event("banker_shows", {"cards": codes(banker.cards)}))
        if not standing:
            banker.done = True

    def _settle(self, s: BankState, events: list[Event]) -> None:
        """Every hand still standing against the banker (`banking.settle`), then the bookkeeping
        for the next hand."""
        for seat in s.players():
            for index in range(len(s.hands[seat])):
                if s.hands[seat][index].settled:
                    continue
                hand = s.own(seat, index)
                amount = self.value(self.config.settle, s, seat, hand)
                events.append(settle_hand(s, seat, hand, amount))
                self.kitty.settle(s, seat, hand, partial(self.env, s, seat, hand), events)
        self.end_hand(s, events)

    def _banker_wins_at_once(self, s: BankState, events: list[Event]) -> None:
        """The banker's hand is shown and wins at once (`banking.banker_wins_at_once`): every
        player pays `banking.instant`."""
        instant = self.config.instant
        assert instant is not None  # stated with `banking.banker_wins_at_once` (config.py)
        banker = s.own(s.banker, 0)
        banker.face_up = [True] * len(banker.cards)
        events.append(Event("banker_shows", {"cards": codes(banker.cards)}))
        for seat in s.players():
            hand = s.own(seat, 0)
            events.append(settle_hand(s, seat, hand, self.value(instant, s, seat, hand)))
            self.kitty.takes(s, hand, "banker wins at once", events)
        self.end_hand(s, events, played=False)

    def sit_out(self, s: BankState, seat: int, events: list[Event]) -> None:
        """`seat` sits the hand out: dealt no more of it (its cards, if any, go under the
        pack); the next player bets, or the hand is dealt, or ends with nobody in it."""
        order = s.players()
        following = order[order.index(seat) + 1 :] if seat in order else []
        s.out_of_hand[seat] = True
        hand = s.own(seat, 0)
        under_the_pack(s, hand.cards)
        hand.cards, hand.face_up, hand.done = [], [], True
        events.append(Event("sits_out", {"seat": seat}))
        if not s.players():
            self.end_hand(s, events, played=False)
        elif following:
            s.to_act = following[0]
        else:
            self.second_round(s, events)

    def end_hand(self, s: BankState, events: list[Event], played: bool = True) -> None:
        self._leave_the_table(s, events)
        s.reshuffle = any(
            self.value(self.config.reshuffle, s, seat, hand)
            for seat in range(s.seats)
            for hand in s.hands[seat]
        )
        s.next_banker = self._bank_taker(s) if played else None
        s.phase, s.to_act = "between", s.banker
        s.own_all()
        for hands in s.hands:
            for hand in hands:
                hand.face_up = [True] * len(hand.cards)
        # the deck is not revealed here: unless `banking.reshuffle` has it shuffled, the next hand
        # is dealt from the rest of this very pack; it is revealed when it is shuffled
        s.last_hand = {
            "hand_number": s.hand_number,
            "next_banker": s.next_banker,
            "hands": {str(seat): [codes(h.cards) for h in hs] for seat, hs in enumerate(s.hands)},
            "commitment": deck_commitment(s),
        }
        events.append(
            Event(
                "hand_over",
                {
                    "balances": {str(i): b for i, b in enumerate(s.balances)},
                    "next_banker": s.next_banker,
                },
            )
        )
        leaving.after_hand(s, self.kitty, events)

    def _leave_the_table(self, s: BankState, events: list[Event]) -> None:
        """Every player seat the spec says leaves the table now (`banking.leaves`) is out of it
        for good: dealt no hand again."""
        leaves = self.config.leaves
        if leaves is None:
            return
        for seat in s.seated():
            if seat != s.banker and self.holds(leaves, s, seat, s.hands[seat][0]):
                s.out[seat] = True
                events.append(Event("leaves_table", {"seat": seat}))

    def _bank_taker(self, s: BankState) -> int | None:
        """The first player, from the seat after the banker, holding a hand that takes the
        bank. Only for a hand that was played: one the banker won at once leaves the bank
        where it is, whatever the players were dealt."""
        takers = [
            seat
            for seat in s.players()
            for hand in s.hands[seat]
            if self.holds(self.config.takes_bank, s, seat, hand)
        ]
        return takers[0] if takers else None


def give(
    s: BankState,
    seat: int,
    hand: Hand,
    face_up: bool,
    events: list[Event],
    visibility: Visibility = DEFAULT,
) -> None:
    """The top card of the pack to `hand` (the caller has made sure there is one), face up as
    asked or as `visibility` deals it."""
    card = s.pack.pop()
    s.dealt += 1
    place, banker = len(hand.cards), seat == s.banker
    if not face_up:  # inline `visibility.face_up`: asked at every card dealt
        up = visibility.dealt_up
        face_up = up[1 + place] if banker and place < DEALT else up[0] and not banker
    hand.cards.append(card)
    hand.face_up.append(face_up)
    secret = {"card": str(card)}
    if face_up:
        events.append(Event("card", {"seat": seat, **secret}))
    else:  # a banker's hidden card is seen by nobody until the banker's turn
        hidden = banker and place in visibility.hidden_places
        events.append(
            Event("card", {"seat": seat}, secret, frozenset() if hidden else frozenset({seat}))
        )


def start_hand(s: BankState, config: BankingConfig) -> None:
    """A new hand: with bets after the first round (`banking.bet_after_round`), one card to
    each player from the seat after the banker, the banker last; then the bets."""
    s.hands = [[Hand()] for _ in range(s.seats)]
    s.out_of_hand = [False] * s.seats  # every seat at the table is dealt in again
    if config.bet_after_round:
        up = config.visibility.dealt_up
        for seat in [*s.players(), s.banker]:
            card = s.pack.pop()
            s.dealt += 1
            s.hands[seat][0].cards.append(card)
            s.hands[seat][0].face_up.append(up[1] if seat == s.banker else up[0])
    s.phase, s.to_act, s.active = "bet", s.players()[0], 0


def shuffle(s: BankState, cards: list[Card], hand_number: int) -> None:
    """GEN-5: the pack shuffled from the seed chain for the hand `hand_number`; `deck` is the
    shuffle's order, top first (committed to; revealed with its key when shuffled away)."""
    shuffled = chance.shuffle(cards, s.seed, "deal", hand_number)
    s.deck, s.keys = tuple(shuffled.cards), {shuffled.purpose: shuffled.key}
    s.pack = list(reversed(shuffled.cards))
    s.dealt = 0


def deck_commitment(s: BankState) -> str:
    """The commitment to the pack as last shuffled (it is carried on from hand to hand until
    `banking.reshuffle` has it shuffled): revealed at that shuffle, when its order no longer
    tells anything of the cards to come."""
    return chance.hand_commitment(s.salt, s.shuffle_number, s.deck)


def settle_hand(s: BankState, seat: int, hand: Hand, amount: int) -> Event:
    """The hand's stake comes back to the player with `amount` from the banker (or, when
    `amount` is negative, the stake and what is owed go to the banker)."""
    stake = hand.on_table
    s.balances[seat] += stake + amount
    s.balances[s.banker] -= amount
    hand.settled = True
    return Event(
        "settled", {"seat": seat, "stake": stake, "paid": amount, "balance": s.balances[seat]}
    )


__all__ = ["HandFlow", "deck_commitment", "give", "settle_hand", "shuffle", "start_hand"]
