"""The banking mechanic (Pontoon, twenty-one): a banker against each player's hands, stakes on
the table.

The Python here moves cards and chips: dealing rounds, bets, splits, buys, twists, the banker's
turn, settlement, the next hand. Whether a move is allowed, what a hand is worth, when it is
over and what it is paid are the spec's expressions (`banking:` and the rules); a game's own
procedure is a part the spec selects (the kitty, `banking.kitty`), a no-op when left out. Every
chip that moves is a `transfer` event; balances plus the stakes on the table never change in sum.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.cards import Card, PackKind, codes
from referee.engine import chance
from referee.engine import stacked as stacking
from referee.engine.mechanic import Deal, Judgement, Mechanic, Move
from referee.i18n.verdicts import unreadable
from referee.mechanics.banking import kitty as kitty_part
from referee.mechanics.banking import leaving, views
from referee.mechanics.banking.config import SECTION_SHAPE, read_config
from referee.mechanics.banking.contexts import NAMES, Seen, checkpoint_scopes
from referee.mechanics.banking.state import BankState, Hand
from referee.mechanics.banking.transfers import transfer, under_the_pack
from referee.mechanics.legal import Candidates, refused
from referee.model import JSON, Event, Sentence, Violation
from referee.spec import explaining
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec

SPLIT_CARDS = 2  # a split deals one card to each of its two hands
OVER = leaving.OVER


class BankingMechanic(Mechanic[BankState]):
    name = "banking"
    section_shapes = {"banking": SECTION_SHAPE}

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.rules = RuleBook(spec, checkpoint_scopes(spec))
        self.context = NAMES.builder(spec)
        self.config = read_config(spec, self.rules)
        self.kitty: kitty_part.KittyPart = self.config.kitty
        self.pack = spec.pack()

    # --- setting up -------------------------------------------------------------------------
    def new_state(self, deal: Deal) -> BankState:
        balances = [int((deal.balances or {}).get(s, 0)) for s in range(deal.seats)]
        state = BankState(
            seats=deal.seats,
            banker=deal.dealer,
            seed=deal.seed,
            salt=deal.salt,
            options=dict(deal.options),
            pack=[],
            balances=balances,
            out_of_hand=[False] * deal.seats,
            out=[False] * deal.seats,
        )
        if deal.stacked is not None:
            state.pack = list(reversed(_stacked_deck(self.pack, deal.stacked)))
            state.deck = tuple(reversed(state.pack))
        else:
            _shuffle(state, self.pack, 1)
        _start_hand(state)
        self.kitty.ask(state)
        return state

    def is_over(self, state: BankState) -> bool:
        """A banking table goes on hand after hand, until fewer than two seats are left at it
        (the others' time ran out too often: `leaving.py`)."""
        return state.phase == OVER

    def commitment(self, state: BankState) -> str:
        """The commitment to the pack as last shuffled (it is carried on from hand to hand until
        `banking.reshuffle` has it shuffled): revealed at that shuffle, when its order no longer
        tells anything of the cards to come."""
        return chance.hand_commitment(state.salt, state.shuffle_number, state.deck)

    def view(self, state: BankState, seat: int | None) -> dict[str, JSON]:
        return views.view(state, seat, self.commitment(state), self.kitty)

    def awaited(self, state: BankState) -> tuple[int, ...]:
        """The seat to act: a player betting or playing its hand, the banker in its turn, or
        dealing the next hand."""
        return () if state.to_act is None else (state.to_act,)

    def env_before(self, state: BankState, seat: int, move_type: str) -> dict[str, Any]:
        return self.env(state, seat)

    def forfeit(self, state: BankState, seat: int) -> Judgement[BankState]:
        return leaving.forfeit(self, state, seat)

    def retire(self, state: BankState, seat: int) -> Judgement[BankState]:
        return leaving.retire(self, state, seat)

    tallies = ("chips",)  # a seat's balance

    def adjust(self, state: BankState, seat: int, tally: str, amount: int) -> tuple[BankState, int]:
        work = state.clone()
        work.balances[seat] += amount
        return work, work.balances[seat]

    # --- proofs: the spec expressions computed with (what a checkpoint accepts is the base's:
    # its rules; the handlers add no condition of their own, but for a card left in the pack)
    @property
    def expressions(self) -> dict[str, SpecExpression]:
        """The `banking.*` expressions, by dotted path: what `referee prove` evaluates."""
        return self.config.expressions

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
        hand = hand or (state.hand(seat) if state.hands[seat] else Hand())
        banker = state.hands[state.banker][0] if state.hands[state.banker] else Hand()
        return self.context.env(Seen(state, seat, hand, banker), names)

    def value(self, expression: SpecExpression, state: BankState, seat: int, hand: Hand) -> Any:
        """A `banking.*` expression of `seat`'s `hand`."""
        return expression(self.env(state, seat, hand, expression.reads))

    def forfeit_before_bet(self, state: BankState, seat: int) -> int:
        """What a player leaving the hand after its first card and before its bet pays the
        banker (`banking.forfeit_before_bet`, GEN-10); left out, nothing. Never a gain: a
        forfeit that paid the seat would favour it over every legal move."""
        cost = self.config.forfeit_before_bet
        if cost is None:
            return 0
        return max(0, int(self.value(cost, state, seat, state.hands[seat][0])))

    def holds(
        self, expression: SpecExpression | None, state: BankState, seat: int, hand: Hand
    ) -> bool:
        """An optional condition of the spec's (`banking.takes_bank`...); left out, it never holds."""
        return expression is not None and bool(self.value(expression, state, seat, hand))

    # --- judging ------------------------------------------------------------------------------
    def judge(
        self, state: BankState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> Judgement[BankState]:
        return self._judge(state, seat, move_type, move, blind=True)

    def legal(self, state: BankState, seat: int) -> dict[str, JSON]:
        """Each move the seat may make now, with the range of its numbers (`bet: {min, max}`,
        a shoot bet's by its name): every move of this mechanic is made of numbers only. A
        move whose numbers the rules give no range for (an offer of the bank) is not listed."""
        env = self.env(state, seat)
        judge = Candidates(
            self.spec,
            lambda move_type, move: (
                self._judge(state, seat, move_type, move, blind=False).violations
            ),
        )
        found = {}
        for move_type, spec in self.spec.moves.items():
            entry = None if refused(self.rules, move_type, env) else judge.numbers(spec)
            if entry is not None:
                found[move_type] = entry
        return found

    def _judge(
        self, state: BankState, seat: int, move_type: str, move: Mapping[str, Any], blind: bool
    ) -> Judgement[BankState]:
        """`blind`: a banker's rejection is worded alike whatever its hidden first card (a
        proposal's; a legal move's judging needs only its outcome, the same for every card)."""
        work = state.clone()
        env = self.env(work, seat, names=self.rules.reads_at(move_type))
        env["move"] = move
        violations = self.rules.judge(move_type, env, cards=self._cards_shown(work, seat))
        if violations and blind and views.banker_blind(work, seat):
            violations = self._judged_blind(work, seat, move_type, move)
        if violations:
            return Judgement(violations)
        served = self.moves.get(move_type)
        if served is None:
            return Judgement([unreadable(Sentence("table.no_move_now", {"type": move_type}))])
        events: list[Event] = []
        problem = served.handler(self, work, seat, dict(move), events)
        if problem is not None:
            return Judgement([problem])
        return Judgement([], work, events)

    def _judged_blind(
        self, state: BankState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> list[Violation]:
        """The rejection of a banker that does not see its first card is the same
        whatever that card is (GEN-3): every rule broken with some card of the pack in its place,
        each worded as for the first such card in pack order."""
        shown = self._cards_shown(state, seat)
        found: dict[str, Violation] = {}
        with explaining.blind():
            for card in dict.fromkeys(self.pack):
                blind = state.clone()
                blind.hands[seat][0].cards[0] = card
                env = self.env(blind, seat, names=self.rules.reads_at(move_type))
                env["move"] = move
                for violation in self.rules.judge(move_type, env, cards=shown):
                    found.setdefault(violation.rule, violation)
        order = [rule.spec.id for rule in self.rules.rules_at(move_type)]
        return sorted(found.values(), key=lambda v: order.index(v.rule))

    def _cards_shown(self, state: BankState, seat: int) -> list[str]:
        """The cards a rejection names: the proposer's hand as the proposer sees it (the
        banker's first card stays hidden from the banker until its turn)."""
        if not state.hands[seat]:
            return []
        return [
            c for c in views.seen_cards(state, seat, state.hand(seat), seat) if c != views.HIDDEN
        ]

    # each handler applies the move to `work`, adding events; a Violation means it cannot
    def _do_bet(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        hand = s.hands[seat][0]
        hand.stake = move["amount"]
        events.append(transfer(s, seat, None, hand.stake, "bet"))
        self.kitty.bet(s, seat, hand, move, events)
        players = s.players()
        following = players[players.index(seat) + 1 :]
        if following:
            s.to_act = following[0]
        else:
            self.second_round(s, events)
        return None

    def second_round(self, s: BankState, events: list[Event]) -> None:
        # a hand is dealt from the whole pack (every card comes back between hands), so both
        # rounds always find their cards
        for seat in [*s.players(), s.banker]:
            self._give(s, seat, s.hands[seat][0], face_up=False, events=events)
        banker = s.hands[s.banker][0]
        if self.holds(self.config.banker_wins_at_once, s, s.banker, banker):
            self._banker_wins_at_once(s, events)
            return
        s.phase = "play"
        s.to_act, s.active = s.players()[0], 0
        self.advance(s, events)

    def _do_split(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        if len(s.pack) < SPLIT_CARDS:  # refused, not stood: the hand may still twist
            return self.config.split_pack_short
        hand = s.hand(seat)
        new = Hand(
            cards=[hand.cards.pop()], face_up=[hand.face_up.pop()], stake=hand.stake, split=True
        )
        hand.split = True
        s.hands[seat].insert(s.active + 1, new)
        events.append(transfer(s, seat, None, new.stake, "split"))
        self.kitty.bet(s, seat, new, move, events)  # a split's shoot bet is the new hand's
        events.append(Event("split", {"seat": seat, "hands": len(s.hands[seat])}))
        for part in (hand, new):
            self._give(s, seat, part, face_up=False, events=events)
        self.advance(s, events)
        return None

    def _do_buy(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        hand = s.hand(seat)
        if not s.pack:  # nothing to buy: no chips move
            self._stand_on_empty_pack(s, seat, hand, events)
            return None
        hand.paid.append(move["amount"])
        events.append(transfer(s, seat, None, move["amount"], "buy"))
        self.kitty.bet(s, seat, hand, move, events)
        self._give(s, seat, hand, face_up=False, events=events)
        self.advance(s, events)
        return None

    def _do_twist(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        hand = s.hand(seat)
        if not s.pack:
            self._stand_on_empty_pack(s, seat, hand, events)
            return None
        hand.twisted = True
        self.kitty.bet(s, seat, hand, move, events)
        self._give(s, seat, hand, face_up=True, events=events)
        self.advance(s, events)
        return None

    def _stand_on_empty_pack(
        self, s: BankState, seat: int, hand: Hand, events: list[Event]
    ) -> None:
        """No card is left to deal: the hand stands as it is, whatever its total, and play goes
        on (a hand that could neither draw nor stick would hold the table up for ever)."""
        hand.done = True
        events.append(Event("pack_empty", {"seat": seat, "hand": s.active}))
        self.advance(s, events)

    def _do_stick(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        s.hand(seat).done = True
        events.append(Event("stuck", {"seat": seat, "hand": s.active}))
        self.advance(s, events)
        return None

    def _do_burn(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        """The burnt cards go under the pack at once, so the new ones are always there."""
        hand = s.hand(seat)
        burnt = hand.cards
        events.append(Event("burnt", {"seat": seat, "cards": codes(burnt)}))
        under_the_pack(s, burnt)
        hand.cards, hand.face_up = [], []
        for _ in burnt:
            self._give(s, seat, hand, face_up=False, events=events)
        self.advance(s, events)
        return None

    def _do_next_hand(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        """The cards still in hands go under the pack unshuffled, unless the finished hand has
        the pack shuffled (`banking.reshuffle`)."""
        # from the seat after the banker, the banker last, whoever sat the hand out
        order = [(s.banker + k) % s.seats for k in range(1, s.seats + 1)]
        used = [c for seat_ in order for h in s.hands[seat_] for c in h.cards]
        if s.reshuffle:
            events.append(self._reveal_deck(s))
            _shuffle(s, s.pack + used, s.hand_number + 1)
            s.shuffle_number += 1
        else:
            under_the_pack(s, used)
        if s.next_banker is not None:
            self.kitty.leave(s, events)
            events.append(Event("bank_passes", {"from": s.banker, "to": s.next_banker}))
            s.banker = s.next_banker
        s.hand_number += 1
        s.next_banker, s.reshuffle, s.offer = None, False, None
        _start_hand(s)
        self.kitty.ask(s)
        events.append(
            Event(
                "hand_dealt",
                {
                    "hand_number": s.hand_number,
                    "banker": s.banker,
                    "commitment": self.commitment(s),
                },
            )
        )
        return None

    def _reveal_deck(self, s: BankState) -> Event:
        """GEN-5: the pack about to be shuffled, as it was committed to, with its salt."""
        s.revealed = {
            "shuffle": s.shuffle_number,
            "deck": codes(s.deck),
            "salt": chance.hand_salt(s.salt, s.shuffle_number),
            "keys": dict(s.keys),
            "commitment": self.commitment(s),
        }
        return Event("deck_revealed", dict(s.revealed))

    def _do_kitty(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        return self.kitty.put_up(s, seat, move["amount"], events)

    def _do_offer_bank(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        s.offer = (move["to"], move["price"])
        events.append(Event("bank_offered", {"to": move["to"], "price": move["price"]}))
        return None

    def _do_accept_bank(
        self, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
    ) -> Violation | None:
        """The price moves from the buyer to the banker, and the bank with it."""
        if s.offer is None:  # the spec's rules say when; this keeps the state whole regardless
            return unreadable(Sentence("table.no_move_now", {"type": "accept_bank"}))
        to, price = s.offer
        events.append(transfer(s, to, s.banker, price, "bank sold"))
        self.kitty.leave(s, events)
        events.append(Event("bank_passes", {"from": s.banker, "to": to}))
        s.banker, s.offer, s.next_banker = to, None, None
        s.to_act = to  # the new banker deals the next hand
        return None

    # --- the flow of play ---------------------------------------------------------------------
    def _give(
        self, s: BankState, seat: int, hand: Hand, face_up: bool, events: list[Event]
    ) -> None:
        """The top card of the pack to `hand` (the caller has made sure there is one)."""
        card = s.pack.pop()
        hand.cards.append(card)
        hand.face_up.append(face_up)
        secret = {"card": str(card)}
        if face_up:
            events.append(Event("card", {"seat": seat, **secret}))
        else:  # the banker's first card is seen by nobody until the banker's turn
            hidden = seat == s.banker and len(hand.cards) == 1
            events.append(
                Event("card", {"seat": seat}, secret, frozenset() if hidden else frozenset({seat}))
            )

    def advance(self, s: BankState, events: list[Event]) -> None:
        """Close hands that are over by themselves; move on to the next hand, player, banker."""
        done = self.config.done
        while s.phase == "play":
            seat = s.to_act
            assert seat is not None
            hand = s.hands[seat][s.active]
            if not hand.done and self.value(done, s, seat, hand):
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
        banker = s.hands[s.banker][0]
        banker.face_up = [True] * len(banker.cards)
        s.phase, s.to_act, s.active = "banker", s.banker, 0
        events.append(Event("banker_shows", {"cards": codes(banker.cards)}))
        if not standing:
            banker.done = True

    def _settle(self, s: BankState, events: list[Event]) -> None:
        """Every hand still standing against the banker (`banking.settle`), then the bookkeeping
        for the next hand."""
        for seat in s.players():
            for hand in s.hands[seat]:
                if hand.settled:
                    continue
                amount = self.value(self.config.settle, s, seat, hand)
                events.append(_settle_hand(s, seat, hand, amount))
                self.kitty.settle(s, seat, hand, self.env(s, seat, hand), events)
        self.end_hand(s, events)

    def _banker_wins_at_once(self, s: BankState, events: list[Event]) -> None:
        """The banker's hand is shown and wins at once (`banking.banker_wins_at_once`): every
        player pays `banking.instant`."""
        instant = self.config.instant
        assert instant is not None  # stated with `banking.banker_wins_at_once` (config.py)
        banker = s.hands[s.banker][0]
        banker.face_up = [True] * len(banker.cards)
        events.append(Event("banker_shows", {"cards": codes(banker.cards)}))
        for seat in s.players():
            hand = s.hands[seat][0]
            events.append(_settle_hand(s, seat, hand, self.value(instant, s, seat, hand)))
            self.kitty.takes(s, hand, "banker wins at once", events)
        self.end_hand(s, events, played=False)

    def end_hand(self, s: BankState, events: list[Event], played: bool = True) -> None:
        s.reshuffle = any(
            self.value(self.config.reshuffle, s, seat, hand)
            for seat in range(s.seats)
            for hand in s.hands[seat]
        )
        s.next_banker = self._bank_taker(s) if played else None
        s.phase, s.to_act = "between", s.banker
        for hands in s.hands:
            for hand in hands:
                hand.face_up = [True] * len(hand.cards)
        # the deck is not revealed here: unless `banking.reshuffle` has it shuffled, the next hand
        # is dealt from the rest of this very pack; it is revealed when it is shuffled
        s.last_hand = {
            "hand_number": s.hand_number,
            "next_banker": s.next_banker,
            "hands": {str(seat): [codes(h.cards) for h in hs] for seat, hs in enumerate(s.hands)},
            "commitment": self.commitment(s),
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

    # the move table: each move's handler, the fields it reads, the checkpoints that judge it
    moves = {
        "bet": Move(_do_bet, frozenset({"amount"}), ("bet",)),
        "split": Move(_do_split, judged=("split",)),
        "buy": Move(_do_buy, frozenset({"amount"}), ("buy",)),
        "twist": Move(_do_twist, judged=("twist",)),
        "stick": Move(_do_stick, judged=("stick",)),
        "burn": Move(_do_burn, judged=("burn",)),
        "next_hand": Move(_do_next_hand, judged=("next_hand",)),
        "kitty": Move(_do_kitty, frozenset({"amount"}), ("kitty",)),
        "offer_bank": Move(_do_offer_bank, frozenset({"to", "price"}), ("offer_bank",)),
        "accept_bank": Move(_do_accept_bank, judged=("accept_bank",)),
    }


def _start_hand(s: BankState) -> None:
    """One card to each player from the seat after the banker, the banker last."""
    s.hands = [[Hand()] for _ in range(s.seats)]
    s.out_of_hand = [False] * s.seats  # every seat at the table is dealt in again
    for seat in [*s.players(), s.banker]:
        card = s.pack.pop()
        s.hands[seat][0].cards.append(card)
        s.hands[seat][0].face_up.append(False)
    s.phase, s.to_act, s.active = "bet", s.players()[0], 0


def _shuffle(s: BankState, cards: list[Card], hand_number: int) -> None:
    """GEN-5: the pack shuffled from the seed chain for the hand `hand_number`; `deck` is the
    shuffle's order, top first (committed to; revealed with its key when shuffled away)."""
    shuffle = chance.shuffle(cards, s.seed, "deal", hand_number)
    s.deck, s.keys = tuple(shuffle.cards), {shuffle.purpose: shuffle.key}
    s.pack = list(reversed(shuffle.cards))


def _settle_hand(s: BankState, seat: int, hand: Hand, amount: int) -> Event:
    """The hand's stake comes back to the player with `amount` from the banker (or, when
    `amount` is negative, the stake and what is owed go to the banker)."""
    stake = hand.on_table
    s.balances[seat] += stake + amount
    s.balances[s.banker] -= amount
    hand.settled = True
    return Event(
        "settled", {"seat": seat, "stake": stake, "paid": amount, "balance": s.balances[seat]}
    )


def _stacked_deck(pack: list[Card], stacked: Mapping[str, Any]) -> list[Card]:
    """SCENARIOS.md: `deck`, top first; the cards it does not list follow in pack order."""
    stacking.check_keys(stacked, ("deck",))
    listed = [stacking.read_card(c, "deck", PackKind.FRENCH) for c in stacked.get("deck") or []]
    return listed + stacking.rest_of_pack(pack, listed)


__all__ = ["BankingMechanic"]
