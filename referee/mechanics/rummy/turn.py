"""One move being judged and applied on a working copy of a rummy state.

A turn builds the context the spec's rules read (`env`), judges them before and after the move's
effects, and applies the effects of each move type (`do_<move>`): drawing, taking the discard,
melds, lay-offs, steals, discards, going out, and the decisions between hands.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from referee.cards import Card, codes, remove_cards
from referee.engine import chance
from referee.engine.mechanic import not_held
from referee.i18n.verdicts import unreadable
from referee.mechanics.rummy import match
from referee.mechanics.rummy.melds import Reading
from referee.mechanics.rummy.state import TURNED, Meld, RummyState
from referee.mechanics.rummy.table import RummyTable
from referee.model import Event, Sentence, Violation
from referee.spec.expr.values import freeze
from referee.spec.fixes import fix_data

Env = dict[str, Any]
# `PerState.get` for the state judged: a value computed once for that state, by a key that names
# everything it reads besides the state
Kept = Callable[[Hashable, Callable[[], Any]], Any]


class Turn:
    """One move being judged and applied on a working copy of the state."""

    def __init__(
        self,
        mechanic: RummyTable,
        state: RummyState,
        seat: int,
        move_type: str,
        move: dict[str, Any],
        mend: bool = False,
        kept: Kept | None = None,
    ) -> None:
        self.m = mechanic
        self.mend = mend  # offer the fixes the mechanic computes (a search has no use for them)
        # what the fixes found at this turn's table, kept with it (`PerState`)
        self.kept = kept
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
            move_type == "discard" and len(self.hand) == 1 and move.get("card") in self.hand
        )

    # --- contexts for the rules ---
    def env(self, names: frozenset[str] | None = None) -> Env:
        """What the rules read of the table and the proposer (`contexts.COMMON`); with `names`,
        only those (what the rules judged with it read), the others not computed."""
        return self.m.move_context.env(self, names)

    @property
    def blank(self) -> Card:
        """A card name where there is no card (the turned card, or the pack's first)."""
        return self.m.pack[0] if self.s.turned is None else self.s.turned

    def check_rules(self, at: str) -> None:
        env = self.env(self.m.rules.reads_at(self.move_type, at))
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
        self.events.append(
            Event(
                "drew",
                {"seat": self.seat, "stock_size": len(self.s.stock)},
                {"card": str(card)},
                frozenset({self.seat}),
            )
        )

    def do_take_discard(self) -> None:
        hand_before = list(self.hand)
        if not self.take():
            return
        if "meld" in self.move["present"]:
            self._lay_meld(self.move["meld"])
        elif "layoff" in self.move["present"]:
            layoff = self.move["layoff"]
            self._lay_off(layoff["meld"], layoff["cards"], layoff["at"])
        self._check_take(hand_before)
        if self.seat == self.s.to_act:
            self.s.phase = "play"
        else:  # an out-of-turn take (where the rules allow one): play goes on after the taker
            self.s.to_act, self.s.phase = self.s.next_seat(self.seat), "take"

    def do_meld(self) -> None:
        self._lay_meld(self.move["cards"])

    def do_layoff(self) -> None:
        self._lay_off(self.move["meld"], self.move["cards"], self.move["at"])

    def do_swap_joker(self) -> None:
        """The natural card takes the joker's place, the joker a new meld."""
        self.steal(self.move["meld"], self.move["card"])
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
        """Take, steals, new melds, lay-offs, discard, in this order, in one move."""
        hand_before = list(self.hand)
        if "take" in self.move["present"] and not self.take():
            return
        for steal in self.move.get("steals", ()):
            self.steal(steal["meld"], steal["card"])
        if self.violations:  # the rest needs the stolen jokers: judging it would only echo
            return
        for cards in self.move.get("melds", ()):
            self._lay_meld(cards)
        for layoff in self.move.get("layoffs", ()):
            self._lay_off(layoff["meld"], layoff["cards"], layoff["at"])
        if "take" in self.move["present"]:
            self._check_take(hand_before)
        if "discard" in self.move["present"] and not self.fail(
            not_held(self.hand, [self.move["discard"]])
        ):
            self._discard(self.move["discard"])
        if not self.violations and not self.hand:
            self._go_out()

    # --- parts of moves ---
    def take(self) -> bool:
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
        env = self.take_env(hand_before, self._named_for_use(), self.m.rules.reads_at("take"))
        self.violations += self.m.rules.judge("take", env, cards=(str(self.taken),))

    def take_env(
        self, hand_before: list[Card], used: list[Card], names: frozenset[str] | None = None
    ) -> Env:
        """The context of the `take` checkpoint: the hand before the take, the card taken
        (with `names`, of the names `Turn.env` computes only those)."""
        env = self.env(names)
        env.update(hand=hand_before, taken=self.taken, used=used, discarder=self.taken_from)
        if "top_is_turned" in env:
            env["top_is_turned"] = self.taken_from == TURNED
        return env

    def _named_for_use(self) -> list[Card]:
        """The cards the move says it puts on the table (melds, lay-offs, and the natural cards
        of steals), whether or not they fit."""
        move = self.move
        if self.move_type == "take_discard":  # a spec may declare neither field: taken to hand
            named = list(move.get("meld") or []) + list((move.get("layoff") or {}).get("cards", []))
        else:
            named = [c for meld in move.get("melds", ()) for c in meld]
            named += [c for layoff in move.get("layoffs", ()) for c in layoff["cards"]]
            named += [steal["card"] for steal in move.get("steals", ())]
        return named

    def _lay_meld(self, cards: list[Card]) -> None:
        if self.fail(not_held(self.hand, cards)):
            return
        env = self.env(self.m.reader.reads)
        reading = self.m.reader.read_new(env, cards)
        if isinstance(reading, list):
            self.violations += self._with_fix(
                reading,
                lambda: fix_data(
                    "missing_cards",
                    {
                        "cards": self._found(
                            ("missing", tuple(cards), self.s.jokers, _turn_key(env)),
                            lambda: self.m.reader.missing(
                                env, cards, self.m.distinct, self.s.jokers
                            ),
                        )
                    },
                ),
            )
            return
        remove_cards(self.hand, cards)
        self.laid += cards
        self.laid_wild += [c for c, wild in zip(reading.cards, reading.wild) if wild]
        meld = Meld(len(self.s.melds) + 1, reading.kind, self.seat, reading.cards, reading.wild)
        self.s.melds.append(meld)
        self.events.append(
            Event(
                "melded",
                {
                    "seat": self.seat,
                    "meld": meld.id,
                    "meld_kind": meld.kind,
                    "cards": codes(meld.cards),
                },
            )
        )

    def _lay_off(self, meld_id: int, cards: list[Card], at: str) -> None:
        meld = self._meld(meld_id)
        if meld is None or self.fail(not_held(self.hand, cards)):
            return
        env = self.env(self.m.reader.reads)
        reading = self.m.reader.read_layoff(env, meld, cards, at)
        if isinstance(reading, list):
            self.violations += self._with_fix(
                reading,
                lambda: fix_data(
                    "lay_off",
                    {
                        "meld": meld.id,
                        "cards": self._found(
                            (
                                "fitting",
                                meld.kind,
                                tuple(meld.cards),
                                tuple(self.hand),
                                _turn_key(env),
                            ),
                            lambda: self.m.reader.fitting(env, meld, self.hand),
                        ),
                    },
                ),
            )
            return
        laid_on = self._apply(meld, reading)
        remove_cards(self.hand, cards)
        self.laid += cards
        self.laid_wild += reading.wild_added(len(cards))
        self.events.append(
            Event(
                "laid_off",
                {
                    "seat": self.seat,
                    "meld": laid_on.id,
                    "cards": codes(cards),
                    "meld_cards": codes(laid_on.cards),
                },
            )
        )

    def steal(self, meld_id: int, card: Card) -> None:
        """The natural card takes the joker's place; the joker joins the hand."""
        meld = self._meld(meld_id)
        if meld is None or self.fail(not_held(self.hand, [card])):
            return
        for place, wild in enumerate(meld.wild):
            if not wild:
                continue
            cards = meld.cards[:place] + [card] + meld.cards[place + 1 :]
            flags = self.m.reader.wild_places(self.env(self.m.reader.reads), meld.kind, cards)
            if flags is not None and not flags[place]:
                joker = meld.cards[place]
                self._apply(meld, Reading(meld.kind, cards, flags))
                remove_cards(self.hand, [card])
                self.hand.append(joker)
                if meld.owner != self.seat:  # taking back one's own joker costs nothing
                    self.s.stolen[meld.owner] += 1
                self.stolen.append(joker)
                self.events.append(
                    Event(
                        "stole_joker",
                        {
                            "seat": self.seat,
                            "meld": meld.id,
                            "card": str(card),
                            "joker": str(joker),
                        },
                    )
                )
                return
        self.fail(self.m.config.violation("steal", cards=[card]))

    def _with_fix(
        self, violations: list[Violation], fix: Callable[[], dict[str, Any]]
    ) -> list[Violation]:
        """A meld's or lay-off's rejection with the fix the mechanic finds (`fix`), where the
        spec's rules give none; only for a proposal (`mend`): a search never shows it."""
        if not self.mend or all(v.fix for v in violations):
            return violations
        found = fix()
        return [v if v.fix or not found else replace(v, fix=found) for v in violations]

    def _found(self, key: Hashable, search: Callable[[], list[Card]]) -> list[Card]:
        """The cards a fix's search finds, searched once at the turn's table: `key` names all
        it reads of the turn (the bot's many lay-offs of one state, each rejected, share one
        search; so do the same cards proposed again a turn later)."""
        if self.kept is None:
            return search()
        return list(self.kept(key, search))

    def _meld(self, meld_id: int) -> Meld | None:
        if 1 <= meld_id <= len(self.s.melds):
            return self.s.melds[meld_id - 1]
        self.fail(unreadable(Sentence("meld.unknown", {"meld": meld_id}), code="unknown_meld"))
        return None

    def _apply(self, meld: Meld, reading: Reading) -> Meld:
        """The meld read anew, in its place: a new meld object, as the old one may be the
        judged state's too (a clone shares its melds until one is written)."""
        changed = Meld(meld.id, meld.kind, meld.owner, reading.cards, reading.wild)
        self.s.melds[meld.id - 1] = changed
        return changed

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

    # --- between the hands of a match ---
    def do_reenter(self) -> None:
        rules = self.m.config.match
        assert rules is not None  # a spec with a `reenter` move has a match (reading.py)
        if self._not_deciding("reenter"):
            return
        self.s.deciding.remove(self.seat)
        self.events += match.reenter(self.s, self.seat, rules)
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
        self.events += match.after_decision(self.s, self.m.config, self.m.pack)

    def _rebuild_stock(self) -> bool:
        """The discard pile but its top card, shuffled from the table seed."""
        s = self.s
        if len(s.discard) < 2:
            return False
        s.rebuilds += 1
        shuffle = chance.shuffle(s.discard[:-1], s.seed, "rebuild", s.hand_number, s.rebuilds)
        s.stock, s.keys[shuffle.purpose] = shuffle.cards, shuffle.key
        s.discard, s.discarders = s.discard[-1:], s.discarders[-1:]
        self.events.append(Event("stock_rebuilt", {"stock_size": len(s.stock)}))
        return True


def _turn_key(env: Env) -> tuple[Any, ...]:
    """What a meld's reading reads of a turn's context, as a key of the values kept for its
    table: the options aside, which its table's states share (no move changes them)."""
    return tuple(freeze(value) for name, value in env.items() if name != "options")


def unique(violations: list[Violation]) -> list[Violation]:
    """Each violation once: two parts of one move may break the same rule alike."""
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    result = []
    for v in violations:
        key = (v.rule, v.message, v.cards)
        if key not in seen:
            seen.add(key)
            result.append(v)
    return result
