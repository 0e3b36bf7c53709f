"""What a spec's rummy sections (`rummy`, `meld_kinds`, `scoring`) select and set, compiled.

The optional parts a spec may select are each `None` (or off) when absent, and then change
nothing: the elimination match (`match`), the turned card (`turned_card`), claim windows and
their priority (`claims`). `reading.py` reads them from the spec.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, codes
from referee.mechanics.rummy.melds import MeldKind
from referee.model import Violation
from referee.spec.rules import SpecExpression
from referee.spec.schema import Where


@dataclass(frozen=True)
class MatchRules:
    """The elimination match: hands are dealt until one seat is left under `blow_at`."""

    blow_at: int  # a total at or over this blows
    stake_option: str | None  # the option holding the entry stake; 0 = no stakes
    drop_percent: int  # of the stake, to whoever goes out, from every other seat in
    doubling: bool  # each re-entry pays the stake doubled per earlier blow
    # the spec's `rummy.match.reentry_score`, given the options and the scores still in (None:
    # the spec has no `reenter` move)
    reentry_score: Callable[[Mapping[str, Any], list[int]], int] | None

    def stake(self, options: Mapping[str, Any]) -> int:
        return int(options.get(self.stake_option, 0)) if self.stake_option else 0


@dataclass
class RummyConfig:
    hand_size: int
    packet_option: str | None
    packets: Mapping[str, int]
    bonus: Callable[[Mapping[str, Any]], int]  # per joker stolen from a seat's meld
    match: MatchRules | None  # None: one hand is the whole game
    turned_card: bool  # the deal turns a card: the first discard, read by `turned`
    claims: ClaimRules
    kinds: list[MeldKind]
    violations: Mapping[str, Violation]
    joker_test: Callable[[Mapping[str, Any]], bool]
    points: Callable[[Mapping[str, Any]], int]
    shapes: Mapping[str, tuple[str, Where]]  # kind -> its shape expression (for proofs)
    # the spec expressions the mechanic computes with, by dotted path (for proofs)
    expressions: Mapping[str, SpecExpression]

    @property
    def no_meld(self) -> Violation:
        return self.violations["no_meld"]

    @property
    def ambiguous(self) -> Violation:
        return self.violations["ambiguous_layoff"]

    def packet(self, options: Mapping[str, Any]) -> int:
        if self.packet_option is None:
            return 1
        return int(self.packets[options[self.packet_option]])

    def is_joker(self, options: Mapping[str, Any], turned: Card | None, card: Card) -> bool:
        return bool(self.joker_test({**_table(options, turned), "c": card}))

    def hand_points(
        self, options: Mapping[str, Any], turned: Card | None, hand: list[Card], score: int
    ) -> int:
        return int(self.points({**_table(options, turned), "hand": hand, "score": score}))

    def windows(self, options: Mapping[str, Any]) -> bool:
        """Does a discard open a claim window at this table (the option `rummy.claims` names)?"""
        rules = self.claims
        return rules.option is not None and options.get(rules.option) == rules.window_value

    def window_ms(self, options: Mapping[str, Any]) -> int:
        return int(options.get(self.claims.deadline_option or "", 0))

    def steal_bonus(self, options: Mapping[str, Any], turned: Card | None) -> int:
        return int(self.bonus({**_table(options, turned), "hand": [], "score": 0}))

    def violation(self, name: str, cards: list[Card] | None = None) -> Violation:
        v = self.violations[name]
        return Violation(v.rule, v.message, v.cites, tuple(codes(cards or [])), name)


@dataclass(frozen=True)
class ClaimRules:
    option: str | None  # the option choosing how claims are settled (None: no windows)
    window_value: str  # its value that opens a window on each discard
    deadline_option: str | None  # the option holding the window's length in milliseconds
    priority: tuple[str, ...]  # which claim wins: names of `priority.ORDERS`, first decides


def _table(options: Mapping[str, Any], turned: Card | None) -> dict[str, Any]:
    """What the expressions outside a move read of the table: the turned card only where the
    spec turns one (otherwise `turned` is no name of theirs)."""
    return {"options": options} if turned is None else {"options": options, "turned": turned}
