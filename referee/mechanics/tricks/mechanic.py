"""The trick-taking mechanic: deal, an optional discard by the dealer, tricks, the count.

The Python moves cards: dealing in packets (`deal`), the dealer's discard and cards to the
trick (`moves`), the trick to its winner, the deal's count, the next deal (`flow`); this class is
the engine's contract over them. Which card may be played (following, trumping) is the spec's
rules; which card wins a trick (`tricks.winner`), who owns each card at the count
(`tricks.owner`) and what it is worth (`tricks.points`) are the spec's expressions (`config`), so
another trick-taking game is a new spec (docs/example-specs/whist.yaml is one).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from referee.cards import PackKind, codes
from referee.engine.mechanic import Deal, Judgement, Mechanic, not_held
from referee.i18n.verdicts import unreadable
from referee.mechanics.legal import Candidates, refused
from referee.mechanics.tricks import deal as dealing
from referee.mechanics.tricks import flow, knowable, views
from referee.mechanics.tricks.config import KEYS, SECTION_SHAPES, read_config
from referee.mechanics.tricks.contexts import MOVE, Seen, checkpoint_scopes
from referee.mechanics.tricks.moves import MOVES
from referee.mechanics.tricks.state import TrickState
from referee.model import JSON, Event, Sentence
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec


class TricksMechanic(Mechanic[TrickState]):
    name = "tricks"
    section_shapes = SECTION_SHAPES
    moves = MOVES
    keys = KEYS

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.rules = RuleBook(spec, checkpoint_scopes(spec))
        self.context = MOVE.builder(spec)
        self.pack = spec.pack()
        self.kind = PackKind(spec.pack_kind)
        self.config = read_config(spec, self.rules)
        self._reads: dict[str, frozenset[str]] = {}  # `reads`, by move type

    def describe(self) -> dict[str, JSON]:
        """What a client needs to lay out the table: the teams and the hands' sizes."""
        return {
            "checkpoints": sorted(self.rules.programs),
            "teams": [list(team) for team in self.config.teams],
            "hand_size": self.config.hand_size,
            "dealer_extra": self.config.dealer_extra,
        }

    # what a checkpoint accepts is the base's `acceptance`, its rules: the handlers add no
    # condition of their own (a card played is one the rules say is held)
    @property
    def expressions(self) -> dict[str, SpecExpression]:
        """The `tricks.*` expressions, by dotted path: what `referee prove` evaluates."""
        return self.config.expressions

    # --- dealing ------------------------------------------------------------------------------
    def new_state(self, deal: Deal) -> TrickState:
        state = TrickState(
            seats=deal.seats,
            dealer=deal.dealer,
            seed=deal.seed,
            salt=deal.salt,
            options=dict(deal.options),
            teams=self.config.teams,
            totals=[0] * len(self.config.teams),
            game_points=None if self.config.game_points is None else [0] * len(self.config.teams),
        )
        if deal.stacked is not None:
            hands, deck = dealing.stacked(self, self.kind, state, deal.stacked)
        else:
            hands, deck = dealing.dealt(self, state)
        dealing.start_deal(self.config, state, hands, deck)
        return state

    def commitment(self, state: TrickState) -> str:
        return dealing.commitment(state)

    def is_over(self, state: TrickState) -> bool:
        return state.phase == "over"

    # --- the play clock ---------------------------------------------------------------------
    listed = frozenset({"play", "discard"})

    def awaited(self, state: TrickState) -> tuple[int, ...]:
        return () if state.phase == "over" or state.to_act is None else (state.to_act,)

    def env_before(self, state: TrickState, seat: int, move_type: str) -> dict[str, Any]:
        return self.env(state, seat)

    def candidates(self, state: TrickState, seat: int, move_type: str) -> list[dict[str, JSON]]:
        """Each card held to play; each set of the dealer's extra cards to discard."""
        hand = list(dict.fromkeys(state.hands[seat]))
        if move_type == "play":
            return [{"card": str(card)} for card in hand]
        if move_type == "discard":
            size = self.config.dealer_extra
            return [{"cards": codes(list(cards))} for cards in itertools.combinations(hand, size)]
        return []

    tallies = ("score",)  # the points of a seat's team, deals added

    def adjust(
        self, state: TrickState, seat: int, tally: str, amount: int
    ) -> tuple[TrickState, int]:
        """The seat's team's total; once the game is over, its winner is the best total again."""
        work = state.clone()
        team = work.team_of(seat)
        work.totals[team] += amount
        if work.phase == "over":
            work.winner = flow.game_winner(work)
        return work, work.totals[team]

    def view(self, state: TrickState, seat: int | None) -> dict[str, JSON]:
        return views.view(state, seat, self.commitment(state))

    def knowable(self, state: TrickState, seat: int | None) -> frozenset[str]:
        return knowable.knowable(state, seat)

    def legal(self, state: TrickState, seat: int) -> dict[str, JSON]:
        """The cards the seat may play now (`play: {cards}`), or the discards the dealer may
        make (`discard: {count, cards}`, or each one, `choices`, when not every set of those
        cards is legal). Judged by the rules alone: the moves add no condition of their own."""
        env = self.env(state, seat)
        judge = Candidates(
            self.spec,
            lambda move_type, move: self.rules.judge(move_type, {**env, "move": move}),
            lambda move_type, move: self.rules.accepts(move_type, {**env, "move": move}),
        )
        hand = state.hands[seat]
        found: dict[str, JSON] = {}
        if "play" in self.spec.moves and not refused(self.rules, "play", env):
            playable = judge.cards("play", "card", hand)
            if playable:
                found["play"] = {"cards": playable}
        extra = self.config.dealer_extra
        if extra and "discard" in self.spec.moves and not refused(self.rules, "discard", env):
            choices = judge.combinations("discard", "cards", hand, extra)
            if choices is not None:
                found["discard"] = choices
        return found

    # --- judging ------------------------------------------------------------------------------
    def env(
        self, state: TrickState, seat: int, names: frozenset[str] | None = None
    ) -> dict[str, Any]:
        """What a move's rules read (`contexts.MOVE`); with `names`, only those."""
        return self.context.env(Seen(state, seat), names)

    def reads(self, move_type: str) -> frozenset[str]:
        """What judging a move of `move_type` reads of its context: its rules, and what its
        handler computes with it (the discard's `tricks.announce`)."""
        found = self._reads.get(move_type)
        if found is None:
            found = self.rules.reads_at(move_type)
            if move_type == "discard" and self.config.announce is not None:
                found |= self.config.announce.reads
            self._reads[move_type] = found
        return found

    def judge(
        self, state: TrickState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> Judgement[TrickState]:
        env = self.env(state, seat, self.reads(move_type))
        env["move"] = move
        violations = self.rules.judge(
            move_type,
            env,
            cards=lambda: codes(move.get("cards") or ([move["card"]] if "card" in move else [])),
        )
        if violations:
            return Judgement(violations)
        served = self.served(move_type)
        if served is None:
            return Judgement([unreadable(Sentence("table.no_move_now", {"type": move_type}))])
        named = move.get("cards") or ([move["card"]] if "card" in move else [])
        missing = not_held(state.hands[seat], list(named))
        if missing is not None:
            return Judgement([missing])
        work = state.clone()
        work.deal_ended = False
        events: list[Event] = []
        served.handler(self, work, seat, dict(move), env, events)
        return Judgement([], work, events)

    # --- the play clock: a seat leaving the deal, or the game -------------------------------
    def forfeit(self, state: TrickState, seat: int) -> Judgement[TrickState]:
        """A trick is not played a seat short: the deal ends there, and every card of it counts
        for the team of the next seat in play order (the other team, in a game of two)."""
        work = state.clone()
        work.deal_ended = False
        points = [0] * len(work.teams)
        base = flow.points_base(work)
        points[work.team_of((seat + 1) % work.seats)] = sum(
            flow.card_points(self.config, work, card, base) for card in work.deck
        )
        events = [Event("out_of_hand", {"seat": seat})]
        flow.end_deal(self, work, events, points)
        return Judgement([], work, events)

    def retire(self, state: TrickState, seat: int) -> Judgement[TrickState]:
        """A partnership is not played a seat short: the game is over, won by the team of the
        next seat in play order."""
        work = state.clone()
        work.phase, work.to_act = "over", None
        work.winner = work.team_of((seat + 1) % work.seats)
        ended: dict[str, JSON] = {"winner": work.winner, "totals": flow.per_team(work.totals)}
        if work.game_points is not None:
            ended["game_points"] = flow.per_team(work.game_points)
        events = [Event("out_of_match", {"seat": seat}), Event("game_over", ended)]
        return Judgement([], work, events)


__all__ = ["TricksMechanic"]
