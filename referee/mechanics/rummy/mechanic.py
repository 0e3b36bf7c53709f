"""The rummy mechanic: draw or take the discard, lay melds, lay off, steal jokers, discard, go out.

The effects of moves are generic Python; whether a move is allowed is the spec's rules, judged at
checkpoints (each move type before and after its effects, `take`, and one per meld kind). Every
move is judged on a clone of the state, so a rejected move changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from referee.cards import Card, codes, remove_cards
from referee.errors import SpecError, SpecErrors
from referee.mechanics.base import Deadline, Deal, Judgement, Mechanic, not_held
from referee.mechanics.rummy import claims, legal, match, views
from referee.mechanics.rummy.config import RummyConfig, read_config
from referee.mechanics.rummy.melds import MeldReader, Reading
from referee.mechanics.rummy.scopes import checkpoint_scopes
from referee.mechanics.rummy.search import SearchExhausted, TakeSearch
from referee.mechanics.rummy.state import TURNED, Meld, RummyState
from referee.engine import chance
from referee.i18n.verdicts import unreadable
from referee.model import JSON, Event, Sentence, Violation
from referee.spec.expr import BOOL
from referee.spec.fixes import fix_data
from referee.spec.rules import RuleBook
from referee.spec.schema import GameSpec
from referee.spec.sections import ANY, VERDICT

Env = dict[str, Any]




class RummyMechanic(Mechanic):
    name = "rummy"
    moves = {"draw": frozenset(), "take_discard": frozenset(), "meld": frozenset({"cards"}),
             "layoff": frozenset({"meld", "cards", "at"}), "discard": frozenset({"card"}),
             "go_out": frozenset({"steals", "melds", "layoffs"}),
             "swap_joker": frozenset({"meld", "card", "new_meld"}), "pass": frozenset(),
             "reenter": frozenset(), "decline": frozenset()}
    section_shapes = {
        "rummy": {"hand_size": None, "packets": None, "steal_bonus": None,
                  "claims": {"option": None, "window": None, "deadline": None},
                  "match": {"blow_at": None, "stake": None, "drop_percent": None,
                            "reentry_doubling": None, "reentry_score": None},
                  "violations": {ANY: VERDICT}},
        "meld_kinds": {ANY: {"source": None, "shape": None, "misfit": VERDICT, "wild": None,
                             "extend": None}},
        "scoring": {"hand_points": None, "source": None},
    }

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.rules = RuleBook(spec, checkpoint_scopes(spec))
        try:
            self.config: RummyConfig = read_config(spec, self.rules)
        except SpecError as exc:
            raise SpecErrors([exc]) from None
        self.reader = MeldReader(self.config.kinds, self._judge_meld, self.config.no_meld,
                                 self.config.ambiguous)
        self.pack = spec.pack()
        self.distinct = sorted(set(self.pack))  # the cards a fix may offer

    # --- setting up -------------------------------------------------------------------------
    def new_state(self, deal: Deal) -> RummyState:
        seats = deal.seats
        state = RummyState(
            seats=seats, dealer=deal.dealer, seed=deal.seed, salt=deal.salt, options=dict(deal.options),
            turned=self.pack[0], jokers=frozenset(), hands=[[] for _ in range(seats)], stock=[],
            discard=[], discarders=[], deck=(), keys={}, to_act=None,
            scores=[int((deal.scores or {}).get(s, 0)) for s in range(seats)],
            in_match=[True] * seats, blown=[False] * seats, blows=[0] * seats,
            reentries=[0] * seats, stolen=[0] * seats,
            balances=[int((deal.balances or {}).get(s, 0)) for s in range(seats)])
        match.pay_entry_stakes(state, self.config.match)
        match.deal_hand(state, self.config, deal.stacked, self.pack)
        return state

    def is_over(self, state: RummyState) -> bool:
        return state.match_over

    def commitment(self, state: RummyState) -> str:
        return chance.hand_commitment(state.salt, state.hand_number, state.deck)

    def view(self, state: RummyState, seat: int | None) -> dict[str, JSON]:
        return views.view(state, seat)

    def describe(self) -> dict[str, JSON]:
        return {"checkpoints": sorted(self.rules.programs)}

    # --- proofs: what `accepted at a checkpoint` means, and replaying a counterexample ---
    def acceptance(self, checkpoint: str) -> list[tuple[Any, Any]]:
        """(when, require) pairs, typed, that hold exactly when `checkpoint` accepts."""
        pairs = [(r.typed_when, r.typed_require) for r in self.rules.rules_at(checkpoint)]
        if checkpoint in self.config.shapes:
            text, where = self.config.shapes[checkpoint]
            pairs.insert(0, (None, self.rules.check_expression(checkpoint, text, where, BOOL)))
        return pairs

    def replay_accepts(self, checkpoint: str, given: Mapping[str, Any], cards: list[Card],
                       turned: Card) -> bool:
        """Does the engine's own meld checker accept `cards` as a `checkpoint` meld?"""
        env: dict[str, Any] = {name: False for name in ("in_turn", "has_discard", "top_is_turned",
                                                        "going_out", "has_taken")}
        env.update(seat=0, to_act=0, mao=0, seats=1, phase="play", hand=[], discard_top=turned,
                   discarder=TURNED, move_type="meld", taken_card=turned, turned=turned,
                   score=0, deciding=False, reentries=0, blows=0, under=1, stolen=[],
                   window_open=False, responded=False, claims_closed=False, playing=True,
                   laid=[], laid_wild=[], turned_covered=False)
        env.update(given)
        kind = self.reader.kinds[checkpoint]
        meld_env = self.reader.meld_env(env, checkpoint, cards, new=bool(given.get("new", True)))
        return bool(kind.shape(meld_env)) and not self.rules.judge(checkpoint, meld_env)

    # --- judging ----------------------------------------------------------------------------
    def judge(self, state: RummyState, seat: int, move_type: str, move: Mapping[str, Any]) -> Judgement:
        work = state.clone()
        if work.window is not None and move_type in (*claims.CLAIMS, "pass"):
            return self._void_if_stuck(self._answer_window(work, seat, move_type, dict(move),
                                                           mend=True))
        outcome = self.apply(work, seat, move_type, dict(move), mend=True)
        if (outcome.accepted and move_type == "discard" and not work.hand_over
                and self.config.windows(work.options)):
            outcome.events.append(claims.open_window(work))
        return self._void_if_stuck(outcome)

    def apply(self, work: RummyState, seat: int, move_type: str, move: dict[str, Any],
              mend: bool = False) -> Judgement:
        """Judge a move and apply it to `work` (a copy the caller may throw away); `mend`: a
        rejection offers the fixes the mechanic computes (a proposal's, not a search's)."""
        playing_hand = work.went_out is None
        turn = _Turn(self, work, seat, move_type, move, mend)
        turn.check_rules(at="before")
        handler = getattr(turn, f"do_{move_type}", None)
        if not turn.violations and handler is None:
            turn.fail(unreadable(Sentence("table.no_move_now", {"type": move_type})))
        if not turn.violations and handler is not None:
            handler()
        if not turn.violations:
            turn.check_rules(at="after")
        if turn.violations:
            return Judgement(_unique(turn.violations))
        work.hand_ended = playing_hand and work.went_out is not None  # this move went out
        if work.hand_ended:
            turn.events += match.end_hand(work, self.config, self.config.match,
                                          self.may_reenter, self.pack)
        return Judgement([], work, turn.events)

    def accepts(self, state: RummyState, seat: int, move_type: str, move: Mapping[str, Any]) -> bool:
        """Would `judge` accept the move? (Without the fixes of a rejection, nor what an
        accepted move sets off: a claim window opening, a hand ending void.)"""
        work = state.clone()
        if work.window is not None and move_type in (*claims.CLAIMS, "pass"):
            return self._answer_window(work, seat, move_type, dict(move)).accepted
        return self.apply(work, seat, move_type, dict(move)).accepted

    def legal(self, state: RummyState, seat: int) -> dict[str, JSON]:
        return legal.moves(self, state, seat)

    def context(self, state: RummyState, seat: int, move_type: str) -> Env:
        """What the rules of `move_type` read of the table and `seat`, before any move is made."""
        return _Turn(self, state, seat, move_type, {"present": []}).env()

    def _answer_window(self, work: RummyState, seat: int, move_type: str,
                       move: dict[str, Any], mend: bool = False) -> Judgement:
        """TD-4: a claim is judged as if applied now, and recorded (pending) if valid."""
        turn = _Turn(self, work, seat, move_type, move)
        turn.check_rules(at="before")
        if not turn.violations and move_type != "pass":
            turn.violations += self.apply(work.clone(), seat, move_type, move, mend).violations
        if turn.violations:
            return Judgement(_unique(turn.violations))
        return claims.record(self, work, seat, move_type, move)

    def expire(self, state: RummyState) -> Judgement | None:
        """The open claim window's deadline passed (TD-4): close it."""
        if state.window is None:
            return None
        return self._void_if_stuck(claims.close(self, state.clone()))

    def _void_if_stuck(self, outcome: Judgement) -> Judgement:
        """PN-21: after an accepted move, a seat in turn that must take a card where there is
        none to draw, and cannot use the top discard either, ends the hand void."""
        state: RummyState | None = outcome.state
        if (state is None or state.hand_over or state.window is not None or state.phase != "take"
                or state.to_act is None or state.stock or len(state.discard) >= 2):
            return outcome
        try:
            if TakeSearch(self, state, state.to_act).legal_take() is not None:
                return outcome
        except SearchExhausted:  # it could not tell: the hand goes on, the seat may still move
            return outcome
        state.hand_ended = True
        outcome.events += match.void_hand(state, self.config, self.pack)
        return outcome

    def deadline(self, state: RummyState) -> Deadline | None:
        """An open claim window expires `claim_window_ms` after it opens (TD-4)."""
        if state.window is None:
            return None
        return Deadline(state.window.number, self.config.window_ms(state.options))

    def has_deadlines(self, options: Mapping[str, Any]) -> bool:
        return self.config.windows(options)

    def may_reenter(self, state: RummyState, seat: int) -> bool:
        """PN-28: would this blown seat's `reenter` be accepted now (the spec's rules)?"""
        asking = state.clone()
        asking.phase, asking.deciding, asking.to_act = "decide", [seat], None
        turn = _Turn(self, asking, seat, "reenter", {"present": []})
        turn.check_rules(at="before")
        return not turn.violations

    def _judge_meld(self, kind: str, env: Env, cards: tuple[str, ...]) -> list[Violation]:
        return self.rules.judge(kind, env, cards=cards)


class _Turn:
    """One move being judged and applied on a working copy of the state."""

    def __init__(self, mechanic: RummyMechanic, state: RummyState, seat: int, move_type: str,
                 move: dict[str, Any], mend: bool = False) -> None:
        self.m = mechanic
        self.mend = mend  # offer the fixes the mechanic computes (a search has no use for them)
        self.s = state
        self.seat = seat
        self.move_type = move_type
        self.move = move
        self.hand = state.hands[seat]
        self.violations: list[Violation] = []
        self.events: list[Event] = []
        self.taken: Card | None = None
        self.taken_from = TURNED
        self.stolen: list[Card] = []  # jokers taken back by this move
        self.laid: list[Card] = []  # every card this move laid, in melds and lay-offs
        self.laid_wild: list[Card] = []  # jokers this move laid standing for another card
        self.going_out = move_type == "go_out" or (
            move_type == "discard" and len(self.hand) == 1 and move.get("card") in self.hand)

    # --- contexts for the rules ---
    def env(self) -> Env:
        s = self.s
        return {
            "options": s.options, "turned": s.turned, "seat": self.seat,
            "to_act": -1 if s.to_act is None else s.to_act,
            "mao": s.mao, "seats": s.seats, "in_turn": self.seat == s.to_act, "phase": s.phase,
            "hand": self.hand, "discard_top": s.discard[-1] if s.discard else s.turned,
            "has_discard": bool(s.discard), "top_is_turned": s.top_is_turned,
            "turned_covered": s.turned_covered,
            "discarder": s.discarder, "going_out": self.going_out, "move_type": self.move_type,
            "has_taken": self.taken is not None, "taken_card": self.taken or s.turned,
            "score": s.scores[self.seat], "deciding": self.seat in s.deciding,
            "reentries": s.reentries[self.seat], "blows": s.blows[self.seat],
            "under": len(s.playing), "stolen": self.stolen, "playing": self.seat in s.playing,
            "laid": self.laid, "laid_wild": self.laid_wild,
            "window_open": s.window is not None,
            # the top discard's claim window has closed: out of turn it is no longer claimable
            "claims_closed": s.window_count > 0 and s.closed_windows == s.window_count
                             and s.discarder != TURNED and s.window is None,
            "responded": s.window is not None and s.window.answered(self.seat),
        }

    def check_rules(self, at: str) -> None:
        env = self.env()
        env["move"] = self.move
        self.violations += self.m.rules.judge(self.move_type, env, at=at, cards=self._move_cards())

    def _move_cards(self) -> tuple[str, ...]:
        cards = self.move.get("cards") or []
        single = [self.move["card"]] if "card" in self.move.get("present", ()) else []
        return tuple(codes(list(cards) + single))

    def fail(self, violation: Violation | None) -> bool:
        if violation is not None:
            self.violations.append(violation)
        return violation is not None

    # --- moves ---
    def do_draw(self) -> None:
        if not self.s.stock and not self._rebuild_stock():
            self.fail(self.m.config.violation("empty_stock"))
            return
        card = self.s.stock.pop()
        self.hand.append(card)
        self.s.phase = "play"
        self.events.append(Event("drew", {"seat": self.seat, "stock_size": len(self.s.stock)},
                                 {"card": str(card)}, frozenset({self.seat})))

    def do_take_discard(self) -> None:
        hand_before = list(self.hand)
        if not self._take():
            return
        if "meld" in self.move["present"]:
            self._lay_meld(self.move["meld"])
        elif "layoff" in self.move["present"]:
            layoff = self.move["layoff"]
            self._lay_off(layoff["meld"], layoff["cards"], layoff["at"])
        self._check_take(hand_before)
        if self.seat == self.s.to_act:
            self.s.phase = "play"
        else:  # TD-2: an out-of-turn take; play continues from the seat after the taker
            self.s.to_act, self.s.phase = self.s.next_seat(self.seat), "take"

    def do_meld(self) -> None:
        self._lay_meld(self.move["cards"])

    def do_layoff(self) -> None:
        self._lay_off(self.move["meld"], self.move["cards"], self.move["at"])

    def do_swap_joker(self) -> None:
        """PN-10 `substitute`: the natural card takes the joker's place, the joker a new meld."""
        self._steal(self.move["meld"], self.move["card"])
        if not self.violations:
            self._lay_meld(self.move["new_meld"])

    def do_discard(self) -> None:
        card = self.move["card"]
        if self.fail(not_held(self.hand, [card])):
            return
        self._discard(card)
        if not self.hand:
            self._go_out()
            return
        self.s.to_act = self.s.next_seat(self.seat)
        self.s.phase = "take"

    def do_go_out(self) -> None:
        """PN-23: take, steals, new melds, lay-offs, discard, in this order, in one move."""
        hand_before = list(self.hand)
        if "take" in self.move["present"] and not self._take():
            return
        for steal in self.move["steals"]:
            self._steal(steal["meld"], steal["card"])
        if self.violations:  # the rest needs the stolen jokers: judging it would only echo
            return
        for cards in self.move["melds"]:
            self._lay_meld(cards)
        for layoff in self.move["layoffs"]:
            self._lay_off(layoff["meld"], layoff["cards"], layoff["at"])
        if "take" in self.move["present"]:
            self._check_take(hand_before)
        if "discard" in self.move["present"] and not self.fail(not_held(self.hand, [self.move["discard"]])):
            self._discard(self.move["discard"])
        if not self.violations and not self.hand:
            self._go_out()

    # --- parts of moves ---
    def _take(self) -> bool:
        if not self.s.discard:
            self.fail(self.m.config.violation("no_discard"))
            return False
        self.taken = self.s.discard[-1]
        self.taken_from = self.s.discarder
        self.events.append(Event("took_discard", {"seat": self.seat, "card": str(self.taken)}))
        self.s.discard.pop()
        self.s.discarders.pop()
        self.hand.append(self.taken)
        return True

    def _check_take(self, hand_before: list[Card]) -> None:
        env = self.take_env(hand_before, self._named_for_use())
        self.violations += self.m.rules.judge("take", env, cards=(str(self.taken),))

    def take_env(self, hand_before: list[Card], used: list[Card]) -> Env:
        """The context of the `take` checkpoint: the hand before the take, the card taken."""
        env = self.env()
        env.update(hand=hand_before, taken=self.taken, used=used,
                   discarder=self.taken_from, top_is_turned=self.taken_from == TURNED)
        return env

    def _named_for_use(self) -> list[Card]:
        """The cards the move says it puts on the table (melds, lay-offs, and the natural cards
        of steals, PN-18), whether or not they fit."""
        move = self.move
        if self.move_type == "take_discard":
            named = list(move["meld"]) + list(move["layoff"]["cards"])
        else:
            named = [c for meld in move["melds"] for c in meld]
            named += [c for layoff in move["layoffs"] for c in layoff["cards"]]
            named += [steal["card"] for steal in move["steals"]]
        return named

    def _lay_meld(self, cards: list[Card]) -> None:
        if self.fail(not_held(self.hand, cards)):
            return
        env = self.env()
        reading = self.m.reader.read_new(env, cards)
        if isinstance(reading, list):
            self.violations += self._with_fix(reading, lambda: fix_data(
                "missing_cards", {"cards": self.m.reader.missing(env, cards, self.m.distinct)}))
            return
        remove_cards(self.hand, cards)
        self.laid += cards
        self.laid_wild += [c for c, wild in zip(reading.cards, reading.wild) if wild]
        meld = Meld(len(self.s.melds) + 1, reading.kind, self.seat, reading.cards, reading.wild)
        self.s.melds.append(meld)
        self.events.append(Event("melded", {"seat": self.seat, "meld": meld.id, "meld_kind": meld.kind,
                                            "cards": codes(meld.cards)}))

    def _lay_off(self, meld_id: int, cards: list[Card], at: str) -> None:
        meld = self._meld(meld_id)
        if meld is None or self.fail(not_held(self.hand, cards)):
            return
        env = self.env()
        reading = self.m.reader.read_layoff(env, meld, cards, at)
        if isinstance(reading, list):
            self.violations += self._with_fix(reading, lambda: fix_data(
                "lay_off", {"meld": meld.id, "cards": self.m.reader.fitting(env, meld, self.hand)}))
            return
        self._apply(meld, reading)
        remove_cards(self.hand, cards)
        self.laid += cards
        self.laid_wild += reading.wild_added(len(cards))
        self.events.append(Event("laid_off", {"seat": self.seat, "meld": meld.id,
                                              "cards": codes(cards), "meld_cards": codes(meld.cards)}))

    def _steal(self, meld_id: int, card: Card) -> None:
        """PN-10: the natural card takes the joker's place; the joker joins the hand."""
        meld = self._meld(meld_id)
        if meld is None or self.fail(not_held(self.hand, [card])):
            return
        for place, wild in enumerate(meld.wild):
            if not wild:
                continue
            cards = meld.cards[:place] + [card] + meld.cards[place + 1:]
            flags = self.m.reader.wild_places(self.env(), meld.kind, cards)
            if flags is not None and not flags[place]:
                joker = meld.cards[place]
                self._apply(meld, Reading(meld.kind, cards, flags))
                remove_cards(self.hand, [card])
                self.hand.append(joker)
                if meld.owner != self.seat:  # taking back one's own joker costs nothing (PN-10)
                    self.s.stolen[meld.owner] += 1
                self.stolen.append(joker)
                self.events.append(Event("stole_joker", {"seat": self.seat, "meld": meld.id,
                                                         "card": str(card), "joker": str(joker)}))
                return
        self.fail(self.m.config.violation("steal", cards=[card]))

    def _with_fix(self, violations: list[Violation], fix: Callable[[], dict[str, Any]]
                  ) -> list[Violation]:
        """A meld's or lay-off's rejection with the fix the mechanic finds (`fix`), where the
        spec's rules give none; only for a proposal (`mend`): a search never shows it."""
        if not self.mend or all(v.fix for v in violations):
            return violations
        found = fix()
        return [v if v.fix or not found else replace(v, fix=found) for v in violations]

    def _meld(self, meld_id: int) -> Meld | None:
        if 1 <= meld_id <= len(self.s.melds):
            return self.s.melds[meld_id - 1]
        self.fail(unreadable(Sentence("meld.unknown", {"meld": meld_id}), code="unknown_meld"))
        return None

    @staticmethod
    def _apply(meld: Meld, reading: Reading) -> None:
        meld.cards, meld.wild = reading.cards, reading.wild

    def _discard(self, card: Card) -> None:
        remove_cards(self.hand, [card])
        self.s.discard.append(card)
        self.s.discarders.append(self.seat)
        self.s.turned_covered = True
        self.events.append(Event("discarded", {"seat": self.seat, "card": str(card)}))

    def _go_out(self) -> None:
        self.s.went_out = self.seat
        self.s.to_act = None  # nobody acts until the next hand is dealt
        self.events.append(Event("went_out", {"seat": self.seat}))

    # --- between hands (PN-28, PN-29) ---
    def do_reenter(self) -> None:
        if self._not_deciding("reenter"):
            return
        self.s.deciding.remove(self.seat)
        self.events += match.reenter(self.s, self.seat, self.m.config.match)
        self._after_decision()

    def do_decline(self) -> None:
        if self._not_deciding("decline"):
            return
        self.s.deciding.remove(self.seat)
        self.events += match.decline(self.s, self.seat)
        self._after_decision()

    def _not_deciding(self, move_type: str) -> bool:
        """Only a seat asked to decide may (the spec's rules say so too; this keeps the state
        whole whatever a spec says)."""
        if self.seat in self.s.deciding:
            return False
        self.fail(unreadable(Sentence("table.no_move_now", {"type": move_type})))
        return True

    def _after_decision(self) -> None:
        if self.s.deciding:
            return
        if len(self.s.playing) <= 1:
            self.events += match.end_match(self.s, [])
        else:
            self.events += match.next_hand(self.s, self.m.config, self.m.pack)

    def _rebuild_stock(self) -> bool:
        """PN-21: the discard pile but its top card, shuffled from the table seed."""
        s = self.s
        if len(s.discard) < 2:
            return False
        s.rebuilds += 1
        shuffle = chance.shuffle(s.discard[:-1], s.seed, "rebuild", s.hand_number, s.rebuilds)
        s.stock, s.keys[shuffle.purpose] = shuffle.cards, shuffle.key
        s.discard, s.discarders = s.discard[-1:], s.discarders[-1:]
        self.events.append(Event("stock_rebuilt", {"stock_size": len(s.stock)}))
        return True


def _unique(violations: list[Violation]) -> list[Violation]:
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    result = []
    for v in violations:
        key = (v.rule, v.message, v.cards)
        if key not in seen:
            seen.add(key)
            result.append(v)
    return result
