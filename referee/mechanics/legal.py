"""A seat's concrete legal moves (its view's `legal`), found by judging candidate moves.

A mechanic says which candidates its moves can take (each held card for a one-card move, the
combinations of a discard, a meld's lay-offs); `Candidates` keeps those its judge accepts, as
proposals would be judged, applying none. The range of a move's number (a bet) is read from the
rejections themselves: the `amount_range` fixes of the rules a move breaks with numbers below and
above every range (0, and the largest a table holds), then both its ends are judged. A range is
taken to have no hole in it: what the spec's `amount_range` fixes say.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from math import comb
from typing import Any

from referee.cards import Card, PackKind, codes
from referee.engine.moves import parse_move
from referee.errors import MoveFormatError
from referee.model import JSON, SAFE_INTEGER, Move, Violation
from referee.spec.rules import RuleBook
from referee.spec.schema import GameSpec, MoveSpec

# move type, parsed move -> the rules it breaks ([] when accepted); -> whether it is accepted
Verdict = Callable[[str, dict[str, Any]], list[Violation]]
Accepts = Callable[[str, dict[str, Any]], bool]
PROBES = (0, SAFE_INTEGER)  # numbers outside every range a spec's rules allow
AMOUNT_RANGE = "amount_range"


def refused(
    rules: RuleBook,
    move_type: str,
    env: Mapping[str, Any],
    move_names: frozenset[str] = frozenset({"move"}),
) -> bool:
    """Does a rule that reads nothing of the move (none of `move_names`) refuse every move of
    `move_type` now (not in turn, not this phase)? Then no candidate need be judged."""
    return any(
        rule.broken(env) for rule in rules.rules_at(move_type) if not rule.reads & move_names
    )


class Candidates:
    """Judges one seat's candidate moves on one state, as proposals would be judged."""

    def __init__(self, spec: GameSpec, verdict: Verdict, accepts: Accepts | None = None) -> None:
        """`accepts`, when given, answers as `verdict` would, faster: without wording the
        violations (their fixes can cost more than the judging)."""
        self.moves = spec.moves
        self.kind = PackKind(spec.pack_kind)
        self.verdict = verdict
        self.quick = accepts or (lambda move_type, move: not verdict(move_type, move))

    def _parsed(self, move: Move) -> dict[str, Any] | None:
        try:
            return parse_move(self.moves, move, self.kind)
        except MoveFormatError:
            return None

    def broken(self, move: Move) -> list[Violation] | None:
        """The rules `move` breaks, [] when it is accepted; None when it cannot be read."""
        parsed = self._parsed(move)
        return None if parsed is None else self.verdict(move.type, parsed)

    def accepts(self, move: Move) -> bool:
        parsed = self._parsed(move)
        return parsed is not None and self.quick(move.type, parsed)

    def cards(self, move_type: str, field: str, cards: Iterable[Card]) -> list[str]:
        """The codes of the distinct `cards` accepted one at a time in the one-card `field`."""
        return [
            code
            for code in dict.fromkeys(codes(list(cards)))
            if self.accepts(Move(move_type, {field: code}))
        ]

    def combinations(
        self, move_type: str, field: str, cards: Iterable[Card], count: int
    ) -> dict[str, JSON] | None:
        """The sets of `count` distinct `cards` accepted in the many-card `field`: `{count, cards}`
        when every set of `count` of those cards is, else each set (`{count, choices}`)."""
        chosen = [
            list(c)
            for c in itertools.combinations(sorted(set(codes(list(cards)))), count)
            if self.accepts(Move(move_type, {field: list(c)}))
        ]
        if not chosen:
            return None
        used = sorted({code for choice in chosen for code in choice})
        if len(chosen) == comb(len(used), count):
            return {"count": count, "cards": used}
        return {"count": count, "choices": chosen}

    def numbers(self, spec: MoveSpec) -> dict[str, JSON] | None:
        """A move whose fields are numbers: `{}` when it has none, else the range of its one
        required number, `{min, max}` (of each, by name, when it has several); the range of
        each optional number by its name. None when the move is not legal now."""
        if any(f.type != "int" for f in spec.fields):
            return None
        required = [f.name for f in spec.fields if not f.optional]
        ranges = self.ranges(spec.type, required, {}) if required else {}
        if ranges is None or (not required and not self.accepts(Move(spec.type))):
            return None
        least = {name: low for name, (low, _) in ranges.items()}
        entry: dict[str, JSON] = {}
        if len(ranges) == 1:
            ((low, high),) = ranges.values()
            entry = {"min": low, "max": high}
        else:
            entry = {name: {"min": low, "max": high} for name, (low, high) in ranges.items()}
        for name in (f.name for f in spec.fields if f.optional):
            extra = self.ranges(spec.type, [name], least)
            if extra is not None:
                entry[name] = {"min": extra[name][0], "max": extra[name][1]}
        return entry

    def ranges(
        self, move_type: str, names: list[str], given: Mapping[str, int]
    ) -> dict[str, tuple[int, int]] | None:
        """The range of each number `names`, the others `given`: the `amount_range` fixes of the
        rules broken by the probes, both ends then accepted. None when a rule without such a fix
        refuses the move, or a number gets no range."""
        found: dict[str, tuple[int, int]] = {}
        for probe in PROBES:
            broken = self.broken(Move(move_type, {**given, **{n: probe for n in names}}))
            for violation in broken or ():
                fix = violation.fix
                if fix.get("kind") != AMOUNT_RANGE or fix.get("field") not in names:
                    return None
                low, high = found.get(fix["field"], (fix["min"], fix["max"]))
                found[fix["field"]] = (max(low, fix["min"]), min(high, fix["max"]))
        if set(found) != set(names) or any(low > high for low, high in found.values()):
            return None
        ends = [{**given, **{n: found[n][end] for n in names}} for end in (0, 1)]
        return found if all(self.accepts(Move(move_type, fields)) for fields in ends) else None
