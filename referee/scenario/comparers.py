"""The building blocks of `check` keys (SCENARIOS.md): one small comparer per key, each taking
the expected value (as the loader read it) and the table's full view, and returning the
mismatches as sentences (`seat 1: expected 10, got 9`); no mismatch, no sentence. Mappings by
seat (`hand_size`, `scores`, ...) compare only the seats the scenario lists.

A seat's hand is a list of cards (rummy), or a list of hands each with its `cards` (banking: a
split gives a seat several); `hand` and `hand_size` read a banking seat's cards across all its
hands, in order. A card shown `??` (a view built from the seats' own views, against a remote
referee: the banker's own first card before its turn) stands for any card the check lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from referee.model import JSON

View = Mapping[str, JSON]
Comparer = Callable[[Any, View], list[str]]
MISSING = object()


def show(value: Any, between: str = ", ") -> str:
    """A value as a scenario writes it: `[4C, 5C]`, `{0: 12}`, `true`, `null` (`between`
    separates list items: transcripts use a space)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + between.join(show(v, between) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {show(v, between)}" for k, v in value.items()) + "}"
    return str(value)


def canonical_card(code: Any) -> Any:
    """`10h` -> `TH`: the loose input GEN-2 accepts, in canonical form (others as they are)."""
    if not isinstance(code, str):
        return code
    text = code.strip().upper()
    return "T" + text[2:] if text.startswith("10") and len(text) == 3 else text


def canonical_cards(codes: Any) -> list[Any]:
    return [canonical_card(c) for c in codes] if isinstance(codes, list) else codes


def differ(expected: Any, actual: Any) -> list[str]:
    if actual is MISSING:
        return ["the view does not have it"]
    return [] if expected == actual else [f"expected {show(expected)}, got {show(actual)}"]


def field_of(name: str, normalize: Callable[[Any], Any] = lambda v: v) -> Comparer:
    """A scalar field of the view under the same name (`to_act`, `pot`, `hand_over`, ...)."""

    def compare(expected: Any, view: View) -> list[str]:
        actual = view.get(name, MISSING)
        if actual is not MISSING:
            actual = normalize(actual)
        return differ(normalize(expected), actual)

    return compare


def per_key(
    name: str, compare_one: Callable[[Any, Any], list[str]] | None = None, label: str = "seat"
) -> Comparer:
    """A mapping by seat or team in the view's field `name`; only the listed keys are compared."""
    one = compare_one or differ

    def compare(expected: Mapping[int, Any], view: View) -> list[str]:
        table = view.get(name, MISSING)
        if not isinstance(table, Mapping):
            return [f"the view has no `{name}`"]
        problems = []
        for key, want in expected.items():
            got = table.get(str(key), table.get(key, MISSING))
            problems += [f"of {label} {key}: {p}" for p in one(want, got)]
        return problems

    return compare


HIDDEN = "??"


def seat_cards(hand: Any) -> Any:
    """A seat's cards: a rummy hand as it is; a banking seat's hands one after another."""
    if isinstance(hand, list) and all(isinstance(h, Mapping) and "cards" in h for h in hand):
        return [card for h in hand for card in h["cards"]]
    return hand


def same_cards(expected: list[str], actual: Any) -> list[str]:
    actual = seat_cards(actual)
    if not isinstance(actual, list):
        return ["the view does not show this hand"]
    want, got = Counter(canonical_cards(expected)), Counter(canonical_cards(actual))
    hidden = got.pop(HIDDEN, 0)
    missing, extra = sorted((want - got).elements()), sorted((got - want).elements())
    if not extra and len(missing) == hidden:  # each `??` stands for one card not seen
        return []
    detail = "; ".join(
        part
        for part in (
            f"missing {show(missing)}" if missing and not hidden else "",
            f"extra {show(extra)}" if extra else "",
            f"{hidden} not seen" if hidden else "",
        )
        if part
    )
    shown = sorted(got.elements()) + [HIDDEN] * hidden
    return [f"expected {show(sorted(want.elements()))}, got {show(shown)} ({detail})"]


def _same_size(expected: int, actual: Any) -> list[str]:
    cards = seat_cards(actual)
    if cards is MISSING:
        return ["the view does not have it"]
    if not isinstance(cards, list):
        return ["the view does not show this hand"]
    return differ(expected, len(cards))


def hand_size(expected: Mapping[int, int], view: View) -> list[str]:
    """The view's `hand_sizes` (rummy); without it, counted from `hands` (banking)."""
    if "hand_sizes" in view:
        return per_key("hand_sizes")(expected, view)
    return per_key("hands", _same_size)(expected, view)
