"""Reading cards as a meld, the way the spec's `meld_kinds` say.

A kind (trio, sequence) applies to a card list when its `shape` holds; the meld is accepted under
the first kind whose rules all pass. When none passes, the rejection shows the rules broken under
the kind that fits best (fewest broken rules), so a same-rank meld with a repeated suit cites the
trio rule (GEN-7). Which cards are wild (jokers standing for another card) is the kind's `wild`
expression, evaluated at each place.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, codes
from referee.mechanics.rummy.state import Meld
from referee.model import Violation
from referee.spec import explaining

Env = dict[str, Any]
MELD_NAMES = frozenset({"kind", "cards", "new", "place"})  # what `meld_env` sets
RuleJudge = Callable[[str, Env, tuple[str, ...]], list[Violation]]
RuleCheck = Callable[[str, Env], bool]  # do a kind's rules all hold? (no violation worded)


@dataclass(frozen=True)
class MeldKind:
    name: str
    shape: Callable[[Mapping[str, Any]], bool]
    wild: Callable[[Mapping[str, Any]], bool]
    extend: str  # "append" (trio) or "ends" (sequence)
    misfit: Violation  # cited when added cards break the kind's shape
    # the context names its shape, wild test and rules read (and word a rejection with)
    reads: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Reading:
    kind: str
    cards: list[Card]
    wild: list[bool]
    added_low: bool = False  # a lay-off: the added cards are the first ones (else the last)

    def wild_added(self, count: int) -> list[Card]:
        """The jokers standing for another card among the `count` cards a lay-off added."""
        places = range(count) if self.added_low else range(len(self.cards) - count, len(self.cards))
        return [self.cards[i] for i in places if self.wild[i]]


class MeldReader:
    def __init__(
        self,
        kinds: list[MeldKind],
        judge: RuleJudge,
        accepts: RuleCheck,
        no_meld: Violation,
        ambiguous: Violation,
    ) -> None:
        self.kinds = {k.name: k for k in kinds}
        # what reading a meld of any kind reads of a turn's context (`Turn.env`): the names a
        # meld's own reading gives (`meld_env`) aside
        self.reads = frozenset().union(*(k.reads for k in kinds)) - MELD_NAMES
        self.judge = judge
        self.accepts = accepts
        self.no_meld = no_meld
        self.ambiguous = ambiguous

    def read_new(self, env: Env, cards: list[Card]) -> Reading | list[Violation]:
        attempts: list[list[Violation]] = []
        with explaining.alternatives() as tried:
            for kind in self.kinds.values():
                meld_env = self.meld_env(env, kind.name, cards, new=True)
                if not kind.shape(meld_env):
                    continue
                broken = self.judge(kind.name, meld_env, tuple(codes(cards)))
                if not broken:
                    tried.choose(len(attempts))
                    return Reading(kind.name, list(cards), self._wild(kind, meld_env))
                attempts.append(broken)
            if not attempts:
                return [_with_cards(self.no_meld, cards)]
            fewest = min(attempts, key=len)
            tried.choose(attempts.index(fewest))
            return fewest

    def read_layoff(
        self, env: Env, meld: Meld, added: list[Card], at: str
    ) -> Reading | list[Violation]:
        """The meld with `added` laid off: appended (trio) or at one end (sequence);
        `at` empty means the cards must tell which end."""
        kind = self.kinds[meld.kind]
        ends = [at] if at or kind.extend == "append" else ["high", "low"]
        results: list[tuple[Reading, int]] = []  # with its judgement's place among those made
        failures: list[tuple[list[Violation], int | None]] = []  # None: the shape's misfit
        made = 0
        with explaining.alternatives() as tried:
            for end in ends:
                cards = added + meld.cards if end == "low" else meld.cards + added
                meld_env = self.meld_env(env, kind.name, cards, new=False)
                if not kind.shape(meld_env):
                    failures.append(([_with_cards(kind.misfit, cards)], None))
                    continue
                broken = self.judge(kind.name, meld_env, tuple(codes(cards)))
                if broken:
                    failures.append((broken, made))
                else:
                    reading = Reading(kind.name, cards, self._wild(kind, meld_env), end == "low")
                    results.append((reading, made))
                made += 1
            if len(results) == 1 or (results and results[0][0].cards == results[-1][0].cards):
                tried.choose(results[0][1])
                return results[0][0]
            if results:  # two readings hold: the verdict is the ambiguity, no reading's
                return [_with_cards(self.ambiguous, added)]
            fewest, place = min(failures, key=lambda failure: len(failure[0]))
            if place is not None:
                tried.choose(place)
            return fewest

    # --- what would mend a rejected meld (the fixes a rejection offers) ---
    def missing(
        self, env: Env, cards: list[Card], pool: list[Card], jokers: Collection[Card]
    ) -> list[Card]:
        """The cards of `pool` any one of which, put where it fits among `cards` as a natural
        card (no joker standing for another), makes them a new meld the rules accept: the card a
        gapped sequence lacks, the third card of a pair. A kind's shape does not depend on the
        order of the cards, so it is asked once a card; and once `cards` hold a natural card
        (not one of `jokers`), a kind whose shape does not admit them is not asked again, as a
        card added never mends a shape (tests/mechanics/rummy/test_take_search.py checks both)."""
        kinds = list(self.kinds.values())
        if any(card not in jokers for card in cards):
            kinds = [k for k in kinds if k.shape(self.meld_env(env, k.name, cards, new=True))]
        found = []
        for card in pool if kinds else ():
            shaped = [
                kind
                for kind in kinds
                if kind.shape(self.meld_env(env, kind.name, [*cards, card], new=True))
            ]
            if shaped and any(
                self._natural_at(env, shaped, cards[:place] + [card] + cards[place:], place)
                for place in range(len(cards) + 1)
            ):
                found.append(card)
        return found

    def _natural_at(self, env: Env, kinds: list[MeldKind], cards: list[Card], place: int) -> bool:
        """Are `cards` a new meld, read as `read_new` reads them, with a natural card at `place`?
        Under the last kind tried, a wild card at `place` settles it before the rules are asked
        (read or not, no natural card is there): most places of a search are settled so, and the
        wild test costs a fraction of the rules."""
        last = kinds[-1] if kinds else None
        for kind in kinds:
            meld_env = self.meld_env(env, kind.name, cards, new=True)
            if kind is last and _wild_at(kind, meld_env, place):
                return False
            if self.accepts(kind.name, meld_env):
                meld_env["place"] = place
                return not kind.wild(meld_env)
        return False

    def fitting(self, env: Env, meld: Meld, hand: list[Card]) -> list[Card]:
        """The held cards that lay off alone on `meld`, its end told by the card (no `at`)."""
        return [card for card in sorted(set(hand)) if self._lays_off(env, meld, [card])]

    def _lays_off(self, env: Env, meld: Meld, added: list[Card]) -> bool:
        """Does `read_layoff(env, meld, added, "")` read a meld? (Asked without wording what
        breaks: only whether one reading holds, or the two ends read alike.)"""
        kind = self.kinds[meld.kind]
        read: list[list[Card]] = []
        for end in ["high", "low"] if kind.extend == "ends" else ["high"]:
            cards = added + meld.cards if end == "low" else meld.cards + added
            meld_env = self.meld_env(env, kind.name, cards, new=False)
            if kind.shape(meld_env) and self.accepts(kind.name, meld_env):
                read.append(cards)
        return len(read) == 1 or (bool(read) and read[0] == read[-1])

    def wild_places(self, env: Env, kind_name: str, cards: list[Card]) -> list[bool] | None:
        """Wild flags if `cards` is a valid meld of `kind_name`, else None (used by steals)."""
        kind = self.kinds[kind_name]
        meld_env = self.meld_env(env, kind_name, cards, new=False)
        if not kind.shape(meld_env) or not self.accepts(kind_name, meld_env):
            return None
        return self._wild(kind, meld_env)

    @staticmethod
    def meld_env(env: Env, kind: str, cards: list[Card], new: bool) -> Env:
        return {**env, "kind": kind, "cards": cards, "new": new, "place": 0}

    @staticmethod
    def _wild(kind: MeldKind, env: Env) -> list[bool]:
        flags = []
        for place in range(len(env["cards"])):
            env["place"] = place
            flags.append(bool(kind.wild(env)))
        return flags


def _wild_at(kind: MeldKind, meld_env: Env, place: int) -> bool:
    """Is the card at `place` wild under `kind`, whether or not the rules read the cards as a
    meld? False where the test fails on cards the rules would refuse: then they are asked."""
    meld_env["place"] = place
    try:
        return bool(kind.wild(meld_env))
    except Exception:  # noqa: BLE001 - e.g. a place the kind's rules would not read
        return False
    finally:
        meld_env["place"] = 0


def _with_cards(violation: Violation, cards: list[Card]) -> Violation:
    return violation.showing(tuple(codes(cards)))
