"""`check` keys compared with a table's full view (SCENARIOS.md): the keys every game has, and
those each mechanic's plugin declares (`declare`, called for every plugin installed by
`referee.plugins.installed`, the composition root, which every loader of games imports), each
read by one reader and compared by one small function (`referee.scenario.comparers`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.scenario import fields as f
from referee.scenario.comparers import (
    Comparer,
    View,
    canonical_card,
    field_of,
    hand_size,
    per_key,
    same_cards,
    show,
)
from referee.scenario.fields import FieldError, Reader

__all__ = [
    "COMPARERS",
    "FINISHED_TABLE",
    "CheckKey",
    "as_checked",
    "canonical_card",
    "check_readers",
    "compare",
    "declare",
    "read",
    "show",
]


@dataclass(frozen=True)
class CheckKey:
    """A `check` key: how its expected value is read (given the table's seats) and compared."""

    read: Callable[[int], Reader]
    compare: Comparer


# the keys of every game's view, whatever its mechanic
GENERIC: dict[str, CheckKey] = {
    "to_act": CheckKey(lambda seats: f.optional(f.seat_in(seats)), field_of("to_act")),
    "hand": CheckKey(f.seat_cards, per_key("hands", same_cards)),
    "hand_size": CheckKey(lambda seats: f.keyed(f.seat_in(seats), f.integer), hand_size),
    "stock_size": CheckKey(lambda seats: f.integer, field_of("stock_size")),
    "hand_over": CheckKey(lambda seats: f.boolean, field_of("hand_over")),
    "match_over": CheckKey(lambda seats: f.boolean, field_of("match_over")),
    "winner": CheckKey(lambda seats: f.optional(f.team), field_of("winner")),
}
KEYS: dict[str, CheckKey] = dict(GENERIC)  # and each plugin's (`declare`)
COMPARERS: dict[str, Comparer] = {key: check.compare for key, check in KEYS.items()}

# Right after a move that ended a hand, the next hand may already be dealt; a check then speaks
# of the hand just ended, which the view keeps, revealed, in `last_hand` (docs/scenarios.md).
FINISHED_TABLE: list[str] = ["hands", "hand_sizes", "stock_size"]


def declare(keys: Mapping[str, CheckKey], finished_view_keys: Iterable[str]) -> None:
    """A mechanic's own `check` keys, and the view keys a hand just ended keeps in `last_hand`."""
    KEYS.update(keys)
    COMPARERS.update({key: check.compare for key, check in keys.items()})
    FINISHED_TABLE.extend(k for k in finished_view_keys if k not in FINISHED_TABLE)


def check_readers(seats: int) -> dict[str, Reader]:
    """Every `check` key of SCENARIOS.md and how its expected value is read."""
    return {key: check.read(seats) for key, check in KEYS.items()}


def read(value: Any, seats: int) -> dict[str, Any]:
    """A `check` step's mapping, each expected value read by its key's reader."""
    if not isinstance(value, Mapping) or not value:
        raise FieldError(
            "`check` must be a mapping of what to check, such as `{to_act: 1, hand_size: {1: 10}}`"
        )
    readers = check_readers(seats)
    out: dict[str, Any] = {}
    for key, expected in value.items():
        if key not in readers:
            known = ", ".join(f"`{k}`" for k in readers)
            raise FieldError(f"unknown check key `{key}`: expected one of {known}")
        out[key] = readers[key](expected, f"check.{key}")
    return out


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
