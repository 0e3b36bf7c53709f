"""The rummy mechanic: draw or take the discard, lay melds, lay off, steal jokers, discard, go out.

The effects of moves are generic Python; whether a move is allowed is the spec's rules, judged at
checkpoints (each move type before and after its effects, `take`, and one per meld kind). Every
move is judged on a clone of the state, so a rejected move changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from referee.cards import Card
from referee.engine import chance
from referee.engine.mechanic import Condition, Deadline, Deal, Judgement, Mechanic
from referee.errors import SpecError, SpecErrors
from referee.i18n.verdicts import unreadable
from referee.mechanics.per_state import PerState
from referee.mechanics.rummy import claims, knowable, leaving, legal, match, search, views
from referee.mechanics.rummy.config import KEYS, SECTION_SHAPES, RummyConfig, read_config
from referee.mechanics.rummy.contexts import COMMON, checkpoint_scopes
from referee.mechanics.rummy.melds import MeldReader
from referee.mechanics.rummy.moves import MOVES
from referee.mechanics.rummy.state import LINEAGE, TURNED, Lineage, RummyState, lineage
from referee.mechanics.rummy.turn import Kept, Turn, unique
from referee.model import JSON, Sentence, Violation
from referee.spec.expr import BOOL
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec

Env = dict[str, Any]

# Where a proof's counterexample meld is replayed, besides the names it gives and the neutral
# values of the others: a one-seat table whose seat plays, in the play step of a `meld` move, the
# turned card (if any) on the discard pile.
REPLAYED_MELD: Env = {
    "seats": 1,
    "under": 1,
    "playing": True,
    "phase": "play",
    "move_type": "meld",
    "discarder": TURNED,
}


class RummyMechanic(Mechanic[RummyState]):
    name = "rummy"
    moves = MOVES
    section_shapes = SECTION_SHAPES
    keys = KEYS

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.rules = RuleBook(spec, checkpoint_scopes(spec))
        self.move_context = COMMON.builder(spec)
        try:
            self.config: RummyConfig = read_config(spec, self.rules)
        except SpecError as exc:
            raise SpecErrors([exc]) from None
        self.reader = MeldReader(
            self.config.kinds,
            self._judge_meld,
            self.rules.accepts,
            self.config.no_meld,
            self.config.ambiguous,
        )
        self.pack = spec.pack()
        self.distinct = sorted(set(self.pack))  # the cards a fix may offer
        self.per_state = PerState()  # what the fixes found at a table, while its states live

    # --- setting up -------------------------------------------------------------------------
    def new_state(self, deal: Deal) -> RummyState:
        seats = deal.seats
        state = RummyState(
            seats=seats,
            dealer=deal.dealer,
            seed=deal.seed,
            salt=deal.salt,
            options=dict(deal.options),
            turned=None,
            jokers=frozenset(),
            hands=[[] for _ in range(seats)],
            stock=[],
            discard=[],
            discarders=[],
            deck=(),
            keys={},
            to_act=None,
            scores=[int((deal.scores or {}).get(s, 0)) for s in range(seats)],
            in_match=[True] * seats,
            blown=[False] * seats,
            blows=[0] * seats,
            reentries=[0] * seats,
            stolen=[0] * seats,
            out_of_hand=[False] * seats,
            balances=[int((deal.balances or {}).get(s, 0)) for s in range(seats)],
        )
        state.__dict__[LINEAGE] = Lineage()  # its copies keep it (`clone` copies the dict)
        match.pay_entry_stakes(state, self.config.match)
        match.deal_hand(state, self.config, deal.stacked, self.pack)
        return state

    def is_over(self, state: RummyState) -> bool:
        return state.match_over

    def commitment(self, state: RummyState) -> str:
        return chance.hand_commitment(state.salt, state.hand_number, state.deck)

    def view(self, state: RummyState, seat: int | None) -> dict[str, JSON]:
        return views.view(
            state,
            seat,
            self.spec.moves,
            lambda at, move_type: legal.refused_outright(self, state, at, move_type),
        )

    def knowable(self, state: RummyState, seat: int | None) -> frozenset[str]:
        return knowable.knowable(state, seat)

    def describe(self) -> dict[str, JSON]:
        return {"checkpoints": sorted(self.rules.programs)}

    # --- the play clock ---------------------------------------------------------------------
    listed = frozenset({"discard"})

    def awaited(self, state: RummyState) -> tuple[int, ...]:
        """The seat in turn; between hands, the blown seats deciding on re-entry."""
        if state.match_over or state.window is not None:
            return ()
        if state.phase == "decide":
            return tuple(state.deciding)
        if state.to_act is None or state.hand_over:
            return ()
        return (state.to_act,)

    def env_before(self, state: RummyState, seat: int, move_type: str) -> Env:
        return self.context(state, seat, move_type)

    def forfeit(self, state: RummyState, seat: int) -> Judgement[RummyState]:
        return leaving.forfeit(self, state, seat, self.may_reenter, self._void_if_stuck)

    def retire(self, state: RummyState, seat: int) -> Judgement[RummyState]:
        return leaving.retire(self, state, seat, self.may_reenter, self._void_if_stuck)

    def candidates(self, state: RummyState, seat: int, move_type: str) -> list[dict[str, JSON]]:
        """A discard's: each card held, in the order held (the last one drawn last)."""
        if move_type != "discard":
            return []
        return [{"card": str(card)} for card in dict.fromkeys(state.hands[seat])]

    # a seat's match total, and its chips (the stakes of `rummy.match`)
    tallies = ("score", "chips")

    def adjust(
        self, state: RummyState, seat: int, tally: str, amount: int
    ) -> tuple[RummyState, int]:
        """A score adjusted counts when the hand is next scored (whether the seat blows)."""
        work = state.clone()
        kept = work.scores if tally == "score" else work.balances
        kept[seat] += amount
        return work, kept[seat]

    # --- proofs: what `accepted at a checkpoint` means, and replaying a counterexample ---
    @property
    def expressions(self) -> Mapping[str, SpecExpression]:
        return self.config.expressions

    def acceptance(self, checkpoint: str) -> list[Condition]:
        """(when, require) pairs, typed, that hold exactly when `checkpoint` accepts."""
        pairs = [(r.typed_when, r.typed_require) for r in self.rules.rules_at(checkpoint)]
        if checkpoint in self.config.shapes:
            text, where = self.config.shapes[checkpoint]
            pairs.insert(0, (None, self.rules.check_expression(checkpoint, text, where, BOOL)))
        return pairs

    def replay_accepts(
        self, checkpoint: str, given: Mapping[str, Any], cards: list[Card], turned: Card | None
    ) -> bool:
        """Does the engine's own meld checker accept `cards` as a `checkpoint` meld?"""
        env = COMMON.neutral_env(self.spec, turned)  # the turned card stands for any card
        env.update({name: value for name, value in REPLAYED_MELD.items() if name in env})
        env.update(given)
        kind = self.reader.kinds[checkpoint]
        meld_env = self.reader.meld_env(env, checkpoint, cards, new=bool(given.get("new", True)))
        return bool(kind.shape(meld_env)) and not self.rules.judge(checkpoint, meld_env)

    # --- judging ----------------------------------------------------------------------------
    def judge(
        self, state: RummyState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> Judgement[RummyState]:
        if sat_out(state, seat):
            return Judgement([unreadable(Sentence("table.out_of_hand"))])
        work = state.clone()
        if work.window is not None and move_type in (*claims.CLAIMS, "pass"):
            return self._void_if_stuck(
                claims.answer(self, work, seat, move_type, dict(move), mend=True)
            )
        # what fixes found at this table (`work` is a copy of `state`): each by a key naming all
        # it reads of the turn, its table's options and pack aside
        kept = partial(self.per_state.get, lineage(state))
        outcome = self.apply(work, seat, move_type, dict(move), mend=True, kept=kept)
        if (
            outcome.accepted
            and move_type == "discard"
            and not work.hand_over
            and self.config.windows(work.options)
        ):
            outcome.events.append(claims.open_window(work))
        return self._void_if_stuck(outcome)

    def apply(
        self,
        work: RummyState,
        seat: int,
        move_type: str,
        move: dict[str, Any],
        mend: bool = False,
        kept: Kept | None = None,
    ) -> Judgement[RummyState]:
        """Judge a move and apply it to `work` (a copy the caller may throw away); `mend`: a
        rejection offers the fixes the mechanic computes (a proposal's, not a search's), those
        `kept` for the state `work` copies found once."""
        playing_hand = work.went_out is None
        turn = Turn(self, work, seat, move_type, move, mend, kept)
        turn.check_rules(at="before")
        served = self.served(move_type)
        handler = None if served is None else served.handler
        if not turn.violations and handler is None:
            turn.fail(unreadable(Sentence("table.no_move_now", {"type": move_type})))
        if not turn.violations and handler is not None:
            handler(turn)
        if not turn.violations:
            turn.check_rules(at="after")
        if turn.violations:
            return Judgement(unique(turn.violations))
        work.hand_ended = playing_hand and work.went_out is not None  # this move went out
        if work.hand_ended:
            turn.events += match.end_hand(work, self.config, self.may_reenter, self.pack)
        return Judgement([], work, turn.events)

    def accepts(
        self, state: RummyState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> bool:
        """Would `judge` accept the move? (Without the fixes of a rejection, nor what an
        accepted move sets off: a claim window opening, a hand ending void.)"""
        if sat_out(state, seat):
            return False
        work = state.clone()
        if work.window is not None and move_type in (*claims.CLAIMS, "pass"):
            return claims.answer(self, work, seat, move_type, dict(move)).accepted
        return self.apply(work, seat, move_type, dict(move)).accepted

    def legal(self, state: RummyState, seat: int) -> dict[str, JSON]:
        return legal.moves(self, state, seat)

    def context(self, state: RummyState, seat: int, move_type: str) -> Env:
        """What the rules of `move_type` read of the table and `seat`, before any move is made."""
        return Turn(self, state, seat, move_type, {"present": []}).env()

    def expire(self, state: RummyState) -> Judgement[RummyState] | None:
        """The open claim window's deadline passed: close it."""
        if state.window is None:
            return None
        return self._void_if_stuck(claims.close(self, state.clone()))

    def _void_if_stuck(self, outcome: Judgement[RummyState]) -> Judgement[RummyState]:
        """A hand never waits forever: after an accepted move, see `search.void_if_stuck`."""
        return search.void_if_stuck(self, outcome)

    def deadline(self, state: RummyState) -> Deadline | None:
        """An open claim window expires after the milliseconds of the option `rummy.claims`
        names (`deadline`)."""
        if state.window is None:
            return None
        return Deadline(state.window.number, self.config.window_ms(state.options))

    def has_deadlines(self, options: Mapping[str, Any]) -> bool:
        return self.config.windows(options)

    def may_reenter(self, state: RummyState, seat: int) -> bool:
        """Would this blown seat's `reenter` be accepted now (the spec's rules)?"""
        asking = state.clone()
        asking.phase, asking.deciding, asking.to_act = "decide", [seat], None
        turn = Turn(self, asking, seat, "reenter", {"present": []})
        turn.check_rules(at="before")
        return not turn.violations

    def _judge_meld(self, kind: str, env: Env, cards: tuple[str, ...]) -> list[Violation]:
        return self.rules.judge(kind, env, cards=cards)


def sat_out(state: RummyState, seat: int) -> bool:
    """The seat is out of the hand being played: it makes no move of it."""
    return 0 <= seat < state.seats and state.out_of_hand[seat] and not state.hand_over
