"""`check` keys compared with a table's full view (SCENARIOS.md): one small function per key.

Each comparer takes the expected value (as the loader read it) and the view, and returns the
mismatches as sentences (`seat 1: expected 10, got 9`); no mismatch, no sentence. Mappings by
seat (`hand_size`, `scores`, ...) compare only the seats the scenario lists.

A seat's hand is a list of cards (rummy), or a list of hands each with its `cards` (banking: a
split gives a seat several); `hand` and `hand_size` read a banking seat's cards across all its
hands, in order. A card shown `??` (a view built from the seats' own views, against a remote
referee: the banker's own first card before its turn) stands for any card the check lists.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping

from referee.model import JSON

View = Mapping[str, JSON]
Comparer = Callable[[Any, View], list[str]]
_MISSING = object()


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


def _cards(codes: Any) -> list[Any]:
    return [canonical_card(c) for c in codes] if isinstance(codes, list) else codes


def _differ(expected: Any, actual: Any) -> list[str]:
    if actual is _MISSING:
        return ["the view does not have it"]
    return [] if expected == actual else [f"expected {show(expected)}, got {show(actual)}"]


def field_of(name: str, normalize: Callable[[Any], Any] = lambda v: v) -> Comparer:
    """A scalar field of the view under the same name (`to_act`, `pot`, `hand_over`, ...)."""
    def compare(expected: Any, view: View) -> list[str]:
        actual = view.get(name, _MISSING)
        if actual is not _MISSING:
            actual = normalize(actual)
        return _differ(normalize(expected), actual)
    return compare


def per_key(name: str, compare_one: Callable[[Any, Any], list[str]] | None = None,
            label: str = "seat") -> Comparer:
    """A mapping by seat or team in the view's field `name`; only the listed keys are compared."""
    one = compare_one or _differ

    def compare(expected: Mapping[int, Any], view: View) -> list[str]:
        table = view.get(name, _MISSING)
        if not isinstance(table, Mapping):
            return [f"the view has no `{name}`"]
        problems = []
        for key, want in expected.items():
            got = table.get(str(key), table.get(key, _MISSING))
            problems += [f"of {label} {key}: {p}" for p in one(want, got)]
        return problems
    return compare


HIDDEN = "??"


def seat_cards(hand: Any) -> Any:
    """A seat's cards: a rummy hand as it is; a banking seat's hands one after another."""
    if isinstance(hand, list) and all(isinstance(h, Mapping) and "cards" in h for h in hand):
        return [card for h in hand for card in h["cards"]]
    return hand


def _same_multiset(expected: list[str], actual: Any) -> list[str]:
    actual = seat_cards(actual)
    if not isinstance(actual, list):
        return ["the view does not show this hand"]
    want, got = Counter(_cards(expected)), Counter(_cards(actual))
    hidden = got.pop(HIDDEN, 0)
    missing, extra = sorted((want - got).elements()), sorted((got - want).elements())
    if not extra and len(missing) == hidden:  # each `??` stands for one card not seen
        return []
    detail = "; ".join(part for part in (
        f"missing {show(missing)}" if missing and not hidden else "",
        f"extra {show(extra)}" if extra else "",
        f"{hidden} not seen" if hidden else "") if part)
    shown = sorted(got.elements()) + [HIDDEN] * hidden
    return [f"expected {show(sorted(want.elements()))}, got {show(shown)} ({detail})"]


def _same_size(expected: int, actual: Any) -> list[str]:
    cards = seat_cards(actual)
    if cards is _MISSING:
        return ["the view does not have it"]
    if not isinstance(cards, list):
        return ["the view does not show this hand"]
    return _differ(expected, len(cards))


def hand_size(expected: Mapping[int, int], view: View) -> list[str]:
    """The view's `hand_sizes` (rummy); without it, counted from `hands` (banking)."""
    if "hand_sizes" in view:
        return per_key("hand_sizes")(expected, view)
    return per_key("hands", _same_size)(expected, view)


def melds(expected: list[list[str]], view: View) -> list[str]:
    table = view.get("melds", _MISSING)
    if not isinstance(table, list):
        return ["the view has no `melds`"]
    actual = [_cards(m.get("cards", [])) for m in table]
    return _differ([_cards(m) for m in expected], actual)


def blown(expected: list[int], view: View) -> list[str]:
    actual = view.get("blown", _MISSING)
    if not isinstance(actual, list):
        return ["the view has no `blown`"]
    return _differ(sorted(set(expected)), sorted(set(actual)))


def void(expected: bool, view: View) -> list[str]:
    """The hand that ended last ended void (PN-21): its `last_hand` says so."""
    last = view.get("last_hand")
    return _differ(expected, bool(last.get("void", False)) if isinstance(last, Mapping) else False)


COMPARERS: dict[str, Comparer] = {
    "to_act": field_of("to_act"),
    "hand": per_key("hands", _same_multiset),
    "hand_size": hand_size,
    "discard_top": field_of("discard_top", canonical_card),
    "stock_size": field_of("stock_size"),
    "melds": melds,
    "scores": per_key("scores"),
    "blown": blown,
    "hand_over": field_of("hand_over"),
    "void": void,
    "match_over": field_of("match_over"),
    "winner": field_of("winner"),
    "balances": per_key("balances"),
    "pot": field_of("pot"),
    "kitty": field_of("kitty"),
    "banker": field_of("banker"),
    "points": per_key("points", label="team"),
    "tricks": per_key("tricks", label="team"),
    "totals": per_key("totals", label="team"),
    "announced_trumps": field_of("announced_trumps"),
}


# Right after a move that ended a hand, the next hand may already be dealt; a check then speaks
# of the hand just ended, which the view keeps, revealed, in `last_hand` (docs/scenarios.md).
FINISHED_TABLE = ("melds", "hands", "hand_sizes", "discard_top", "stock_size", "tricks")


def as_checked(view: View) -> View:
    last = view.get("last_hand")
    if not isinstance(last, Mapping) or not view.get("hand_over"):
        return view
    if last.get("hand_number") == view.get("hand_number"):  # not dealt on: the view says it all
        return view
    return {**view, **{k: last[k] for k in FINISHED_TABLE if k in last}}


def compare(checks: Mapping[str, Any], view: View) -> list[str]:
    """Every mismatch between `checks` and `view`, each prefixed by its key."""
    problems = []
    checked = as_checked(view)
    for key, expected in checks.items():
        problems += [f"`{key}` {p}" for p in COMPARERS[key](expected, checked)]
    return problems
