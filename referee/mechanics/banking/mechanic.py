"""The banking mechanic (Pontoon, twenty-one): a banker against each player's hands, stakes on
the table.

The Python moves cards and chips: the moves (`moves.py`) and the flow of a hand they share
(`flow.py`: the second round, the banker's turn, settlement, the next hand). Whether a move is
allowed, what a hand is worth, when it is over and what it is paid are the spec's expressions
(`banking:` and the rules, `config.py`); a game's own procedure is a part the spec selects (the
kitty, `banking.kitty`), a no-op when left out. Every chip that moves is a `transfer` event;
balances plus the stakes on the table never change in sum. This class is the engine's contract:
it judges a move by its checkpoint's rules, then has the move table's handler make it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.cards import Card, PackKind
from referee.engine import stacked as stacking
from referee.engine.auto_moves import HOUSE
from referee.engine.mechanic import Deal, Judgement, Mechanic
from referee.i18n.verdicts import unreadable
from referee.mechanics.banking import knowable, leaving, views
from referee.mechanics.banking.config import KEYS, SECTION_SHAPE, read_config
from referee.mechanics.banking.contexts import NAMES, checkpoint_scopes
from referee.mechanics.banking.flow import HandFlow, deck_commitment, shuffle, start_hand
from referee.mechanics.banking.moves import MOVES, Handler
from referee.mechanics.banking.state import BankState, Hand
from referee.mechanics.legal import Candidates, refused
from referee.model import JSON, Event, Sentence, Violation
from referee.spec import explaining
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec

OVER = leaving.OVER


class BankingMechanic(Mechanic[BankState]):
    name = "banking"
    section_shapes = {"banking": SECTION_SHAPE}
    moves = MOVES
    keys = KEYS

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.rules = RuleBook(spec, checkpoint_scopes(spec))
        context = NAMES.builder(spec)
        self.config = read_config(spec, self.rules)
        self.flow = HandFlow(self.config, context)  # the procedure of a hand, shared by the moves
        self.pack = spec.pack()
        self._has_house = isinstance(spec.located.data, dict) and HOUSE in spec.located.data

    # --- setting up -------------------------------------------------------------------------
    def new_state(self, deal: Deal) -> BankState:
        given = deal.balances or {}
        state = BankState(
            seats=deal.seats,
            banker=deal.dealer,
            seed=deal.seed,
            salt=deal.salt,
            options=dict(deal.options),
            pack=[],
            balances=[0] * deal.seats,
            out_of_hand=[False] * deal.seats,
            out=[False] * deal.seats,
        )
        buy_in = self._setup_value(self.config.buy_in, state, 0)
        state.balances = [int(given.get(seat, buy_in)) for seat in range(deal.seats)]
        shoe = self.pack * max(1, self._setup_value(self.config.packs, state, 1))
        state.shoe = len(shoe)
        if deal.stacked is not None:
            state.pack = list(reversed(_stacked_deck(shoe, deal.stacked)))
            state.deck = tuple(reversed(state.pack))
        else:
            shuffle(state, shoe, 1)
        start_hand(state, self.config)
        self.config.kitty.ask(state)
        return state

    def _setup_value(
        self, expression: SpecExpression | None, state: BankState, default: int
    ) -> int:
        """A `banking.*` number the table is set up with (`packs`, `buy_in`), read over the
        banker's empty hand; left out, `default`."""
        if expression is None:
            return default
        return int(self.flow.value(expression, state, state.banker, Hand()))

    def house(self, state: BankState) -> int | None:
        """A game with a `house:` section has the banker's seat the house's: the table plays
        its every move (the spec's `house.auto`), whenever it is the banker's to move."""
        if not self._has_house or state.phase == OVER or state.to_act != state.banker:
            return None
        return state.banker

    def is_over(self, state: BankState) -> bool:
        """A banking table goes on hand after hand, until fewer than two seats are left at it
        (the others' time ran out too often: `leaving.py`)."""
        return state.phase == OVER

    def commitment(self, state: BankState) -> str:
        return deck_commitment(state)

    def view(self, state: BankState, seat: int | None) -> dict[str, JSON]:
        return views.view(
            state, seat, deck_commitment(state), self.config.kitty, self.config.visibility
        )

    def knowable(self, state: BankState, seat: int | None) -> frozenset[str]:
        return knowable.knowable(state, seat, self.config.visibility)

    def awaited(self, state: BankState) -> tuple[int, ...]:
        """The seat to act: a player betting or playing its hand, the banker in its turn, or
        dealing the next hand."""
        return () if state.to_act is None else (state.to_act,)

    def env_before(self, state: BankState, seat: int, move_type: str) -> dict[str, Any]:
        return self.env(state, seat)

    def forfeit(self, state: BankState, seat: int) -> Judgement[BankState]:
        return leaving.forfeit(self.flow, state, seat)

    def retire(self, state: BankState, seat: int) -> Judgement[BankState]:
        return leaving.retire(self.flow, state, seat)

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

    def env(
        self,
        state: BankState,
        seat: int,
        hand: Hand | None = None,
        names: frozenset[str] | None = None,
    ) -> dict[str, Any]:
        """What the rules read of `seat`'s `hand` (`HandFlow.env`)."""
        return self.flow.env(state, seat, hand, names)

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
        env = self.env(state, seat, names=self.rules.reads_at(move_type))
        env["move"] = move
        violations = self.rules.judge(move_type, env, cards=lambda: self._cards_shown(state, seat))
        if (
            violations
            and blind
            and views.banker_blind(state, seat, self.config.visibility.hidden_places)
        ):
            violations = self._judged_blind(state, seat, move_type, move)
        if violations:
            return Judgement(violations)
        served = self.served(move_type)
        if served is None:
            return Judgement([unreadable(Sentence("table.no_move_now", {"type": move_type}))])
        work = state.clone_sharing()  # only a move the rules allow is made: on a copy
        events: list[Event] = []
        handler: Handler = served.handler
        problem = handler(self.flow, work, seat, dict(move), events)
        if problem is not None:
            return Judgement([problem])
        work.written()
        return Judgement([], work, events)

    def _judged_blind(
        self, state: BankState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> list[Violation]:
        """The rejection of a banker that does not see its first card is the same
        whatever that card is (GEN-3): every rule broken with some card of the pack in its place,
        each worded as for the first such card in pack order."""
        shown = self._cards_shown(state, seat)
        found: dict[str, Violation] = {}
        cards = state.hands[seat][0].cards
        place = next(p for p in self.config.visibility.hidden_places if p < len(cards))
        with explaining.blind():
            for card in dict.fromkeys(self.pack):
                blind = state.clone()
                blind.hands[seat][0].cards[place] = card
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
        seen = views.seen_cards(
            state, seat, state.hand(seat), seat, self.config.visibility.hidden_places
        )
        return [c for c in seen if c != views.HIDDEN]


def _stacked_deck(pack: list[Card], stacked: Mapping[str, Any]) -> list[Card]:
    """SCENARIOS.md: `deck`, top first; the cards it does not list follow in pack order."""
    stacking.check_keys(stacked, ("deck",))
    listed = [stacking.read_card(c, "deck", PackKind.FRENCH) for c in stacked.get("deck") or []]
    return listed + stacking.rest_of_pack(pack, listed)


__all__ = ["BankingMechanic"]
