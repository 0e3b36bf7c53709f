"""The trick-taking mechanic: deal, an optional discard by the dealer, tricks, the count.

The Python here moves cards: dealing in packets, the dealer's discard, cards to the trick, the
trick to its winner, the deal's count, the next deal. Which card may be played (following,
trumping) is the spec's rules; which card wins a trick (`tricks.winner`), who owns each card at
the count (`tricks.owner`) and what it is worth (`tricks.points`) are the spec's expressions, so
another trick-taking game is a new spec (tests/mechanics/tricks/specs/whist.yaml is one).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from referee.cards import Card, PackKind, codes, remove_cards
from referee.engine import chance
from referee.engine import stacked as stacking
from referee.engine.mechanic import Deal, Judgement, Mechanic, Move, not_held
from referee.errors import RefereeError, SetupError
from referee.i18n.verdicts import unreadable
from referee.mechanics.legal import Candidates, refused
from referee.mechanics.tricks import views
from referee.mechanics.tricks.config import SECTION_SHAPES, read_config
from referee.mechanics.tricks.contexts import MOVE, Seen, checkpoint_scopes
from referee.mechanics.tricks.state import Trick, TrickState
from referee.model import JSON, Event, Sentence
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec


class TricksMechanic(Mechanic[TrickState]):
    name = "tricks"
    section_shapes = SECTION_SHAPES

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.rules = RuleBook(spec, checkpoint_scopes(spec))
        self.context = MOVE.builder(spec)
        self.pack = spec.pack()
        self.kind = PackKind(spec.pack_kind)
        self.config = read_config(spec, self.rules)

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
        )
        if deal.stacked is not None:
            hands, deck = self._stacked(state, deal.stacked)
        else:
            hands, deck = self._dealt(state)
        self._start_deal(state, hands, deck)
        return state

    def _sizes(self, state: TrickState) -> list[int]:
        extra = self.config.dealer_extra
        return [
            self.config.hand_size + (extra if s == state.dealer else 0) for s in range(state.seats)
        ]

    def _dealt(self, state: TrickState) -> tuple[list[list[Card]], tuple[Card, ...]]:
        """From the seed: packets round the table from the seat after the dealer, the dealer's
        extra cards last."""
        shuffle = chance.shuffle(self.pack, state.seed, "deal", state.deal_number)
        deck, state.keys = shuffle.cards, {shuffle.purpose: shuffle.key}
        packet = self.config.packet({"options": state.options, "seats": state.seats})
        if packet < 1:  # the spec's expression, at these options: no deal could end
            raise SetupError(
                f"the spec's `tricks.packet` gives {packet} cards a packet: at least 1"
            )
        order = [(state.dealer + k) % state.seats for k in range(1, state.seats + 1)]
        hands: list[list[Card]] = [[] for _ in range(state.seats)]
        position, size = 0, self.config.hand_size
        while any(len(hands[s]) < size for s in order):
            for seat in order:
                take = min(packet, size - len(hands[seat]))
                hands[seat] += deck[position : position + take]
                position += take
        extra = self.config.dealer_extra
        hands[state.dealer] += deck[position : position + extra]
        return hands, tuple(deck)

    def _stacked(
        self, state: TrickState, stacked: Mapping[str, Any]
    ) -> tuple[list[list[Card]], tuple[Card, ...]]:
        """SCENARIOS.md: `hands` (the dealer's holds its extra cards too)."""
        stacking.check_keys(stacked, ("hands",))
        hands = stacking.read_hands(stacked.get("hands"), self._sizes(state), self.kind)
        placed = [c for hand in hands for c in hand]
        return hands, tuple(placed + stacking.rest_of_pack(self.pack, placed))

    def _start_deal(
        self, state: TrickState, hands: list[list[Card]], deck: tuple[Card, ...]
    ) -> None:
        state.hands, state.deck = hands, deck
        state.trick, state.tricks, state.discard, state.announced = [], [], [], None
        state.leader = (state.dealer + 1) % state.seats  # the seat after the dealer leads
        if self.config.dealer_extra:
            state.phase, state.to_act = "discard", state.dealer
        else:
            state.phase, state.to_act = "play", state.leader

    def commitment(self, state: TrickState) -> str:
        return chance.hand_commitment(state.salt, state.deal_number, state.deck)

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
            work.winner = _best(work.totals)
        return work, work.totals[team]

    def view(self, state: TrickState, seat: int | None) -> dict[str, JSON]:
        return views.view(state, seat, self.commitment(state))

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
    def env(self, state: TrickState, seat: int) -> dict[str, Any]:
        """What a move's rules read (`contexts.MOVE`)."""
        return self.context.env(Seen(state, seat))

    def judge(
        self, state: TrickState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> Judgement[TrickState]:
        env = self.env(state, seat)
        env["move"] = move
        shown = codes(move.get("cards") or ([move["card"]] if "card" in move else []))
        violations = self.rules.judge(move_type, env, cards=shown)
        if violations:
            return Judgement(violations)
        served = self.moves.get(move_type)
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

    def _do_discard(
        self,
        s: TrickState,
        seat: int,
        move: dict[str, Any],
        env: dict[str, Any],
        events: list[Event],
    ) -> None:
        """The dealer's cards go face down; how many are trumps is announced."""
        remove_cards(s.hands[seat], move["cards"])
        s.discard = list(move["cards"])
        announce = self.config.announce
        s.announced = announce(env) if announce is not None else None
        public: dict[str, JSON] = {"seat": seat, "count": len(s.discard)}
        if s.announced is not None:
            public["trumps"] = s.announced
        events.append(Event("discarded", public, {"cards": codes(s.discard)}, frozenset({seat})))
        s.phase, s.to_act = "play", s.leader

    def _do_play(
        self,
        s: TrickState,
        seat: int,
        move: dict[str, Any],
        env: dict[str, Any],
        events: list[Event],
    ) -> None:
        card = move["card"]
        s.hands[seat].remove(card)
        s.trick.append((seat, card))
        events.append(Event("played", {"seat": seat, "card": str(card)}))
        if len(s.trick) < s.seats:
            s.to_act = (seat + 1) % s.seats
            return
        self._end_trick(s, events)

    def _end_trick(self, s: TrickState, events: list[Event]) -> None:
        cards = [card for _, card in s.trick]
        index = self.config.winner({"options": s.options, "trick": cards, "leader": s.leader})
        if not 0 <= index < len(cards):  # `referee prove` shows every trick has a winner
            raise RefereeError(f"the spec's `tricks.winner` gives no winner for {codes(cards)}")
        winner = s.trick[index][0]
        s.tricks.append(Trick(tuple(s.trick), winner))
        events.append(
            Event(
                "trick_won",
                {
                    "number": len(s.tricks),
                    "seat": winner,
                    "team": s.team_of(winner),
                    "cards": codes(cards),
                },
            )
        )
        s.trick = []
        s.leader = s.to_act = winner  # the winner leads the next trick
        if not any(s.hands):
            self._end_deal(s, events)

    # --- the count ----------------------------------------------------------------------------
    def owners(self, s: TrickState) -> list[tuple[Card, int]]:
        """Each card of the deal with the team that owns it at the count (`tricks.owner`)."""
        won = s.tricks_won()
        dealer_team = s.team_of(s.dealer)
        base = {"options": s.options, "dealer_team": dealer_team, "tricks": won}
        owned = []
        for trick in s.tricks:
            for seat, card in trick.plays:
                owned.append(
                    (
                        card,
                        self.config.owner(
                            {
                                **base,
                                "card": card,
                                "in_discard": False,
                                "taker": s.team_of(trick.winner),
                                "player_team": s.team_of(seat),
                            }
                        ),
                    )
                )
        for card in s.discard:
            owned.append(
                (
                    card,
                    self.config.owner(
                        {
                            **base,
                            "card": card,
                            "in_discard": True,
                            "taker": -1,
                            "player_team": dealer_team,
                        }
                    ),
                )
            )
        return owned

    def count(self, s: TrickState) -> list[int]:
        """Each team's points for the deal just played."""
        points = [0] * len(s.teams)
        for card, owner in self.owners(s):
            if not 0 <= owner < len(points):
                raise RefereeError(f"the spec's `tricks.owner` gives `{card}` to no team ({owner})")
            points[owner] += self._points(s, card)
        return points

    def _points(self, s: TrickState, card: Card) -> int:
        """What `card` counts at the count (`tricks.points`)."""
        base = {
            "options": s.options,
            "taker": -1,
            "player_team": -1,
            "in_discard": False,
            "dealer_team": s.team_of(s.dealer),
            "tricks": s.tricks_won(),
        }
        points: int = self.config.points({**base, "card": card})
        return points

    # --- the play clock: a seat leaving the deal, or the game -------------------------------
    def forfeit(self, state: TrickState, seat: int) -> Judgement[TrickState]:
        """A trick is not played a seat short: the deal ends there, and every card of it counts
        for the team of the next seat in play order (the other team, in a game of two)."""
        work = state.clone()
        work.deal_ended = False
        points = [0] * len(work.teams)
        points[work.team_of((seat + 1) % work.seats)] = sum(
            self._points(work, card) for card in work.deck
        )
        events = [Event("out_of_hand", {"seat": seat})]
        self._end_deal(work, events, points)
        return Judgement([], work, events)

    def retire(self, state: TrickState, seat: int) -> Judgement[TrickState]:
        """A partnership is not played a seat short: the game is over, won by the team of the
        next seat in play order."""
        work = state.clone()
        work.phase, work.to_act = "over", None
        work.winner = work.team_of((seat + 1) % work.seats)
        events = [
            Event("out_of_match", {"seat": seat}),
            Event("game_over", {"winner": work.winner, "totals": _per_team(work.totals)}),
        ]
        return Judgement([], work, events)

    def _end_deal(
        self, s: TrickState, events: list[Event], points: list[int] | None = None
    ) -> None:
        """The deal's count (`points`: what a deal ended early gives each team instead), then
        the next deal or the game's end."""
        points = self.count(s) if points is None else points
        s.totals = [t + p for t, p in zip(s.totals, points)]
        deal_winner = _best(points)
        s.last_hand = {
            "hand_number": s.deal_number,
            "dealer": s.dealer,
            "points": _per_team(points),
            "tricks": _per_team(s.tricks_won()),
            "winner": deal_winner,
            "discard": codes(s.discard),
            "hands": {str(seat): codes(hand) for seat, hand in enumerate(s.hands)},
            "hand_sizes": {str(seat): len(hand) for seat, hand in enumerate(s.hands)},
            "deck": codes(s.deck),
            "commitment": self.commitment(s),
            "salt": chance.hand_salt(s.salt, s.deal_number),
            "keys": dict(s.keys),
        }
        events.append(
            Event(
                "deal_over",
                {
                    "hand_number": s.deal_number,
                    "points": _per_team(points),
                    "tricks": _per_team(s.tricks_won()),
                    "winner": deal_winner,
                    "discard": codes(s.discard),
                    "totals": _per_team(s.totals),
                },
            )
        )
        s.deal_ended = True
        if s.deal_number < self.config.deals_in(s.options, s.seats):
            s.dealer = (s.dealer + 1) % s.seats  # the deal passes on
            s.deal_number += 1
            hands, deck = self._dealt(s)
            self._start_deal(s, hands, deck)
            events.append(
                Event(
                    "hand_dealt",
                    {
                        "hand_number": s.deal_number,
                        "dealer": s.dealer,
                        "commitment": self.commitment(s),
                    },
                )
            )
            return
        s.phase, s.to_act, s.winner = "over", None, _best(s.totals)
        events.append(Event("game_over", {"winner": s.winner, "totals": _per_team(s.totals)}))

    # the move table: each move's handler, the fields it reads, the checkpoints that judge it
    moves = {
        "discard": Move(_do_discard, frozenset({"cards"}), ("discard",)),
        "play": Move(_do_play, frozenset({"card"}), ("play",)),
    }


def _best(points: list[int]) -> int | None:
    """The team with the most points; None for a tie at the top (57-57)."""
    top = max(points)
    leaders = [team for team, p in enumerate(points) if p == top]
    return leaders[0] if len(leaders) == 1 else None


def _per_team(values: list[int]) -> dict[str, int]:
    return {str(team): v for team, v in enumerate(values)}


__all__ = ["TricksMechanic"]
