"""The kinds of fix a rejection may carry: how to mend the move, where the rules can tell.

A fix is data a client acts on (`Violation.fix`): `{"kind": "play_one_of", "cards": ["7C"]}`.
Each kind names its values and their types. A spec rule gives an expression for each value
(`fix:`, type-checked against these types like `say:`); a mechanic computes some itself (the
card a gapped sequence lacks). The English sentence of each kind is `fix.<kind>` in
`referee/i18n/fixes.yaml`, its placeholders the value names (a test keeps the two alike).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import Card
from referee.model import JSON
from referee.spec.expr import CARD, INT, STR, ListType, Type


@dataclass(frozen=True)
class FixKind:
    name: str
    values: Mapping[str, Type]
    meaning: str


FIX_KINDS: dict[str, FixKind] = {
    kind.name: kind
    for kind in (
        FixKind(
            "play_one_of",
            {"cards": ListType(CARD)},
            "play one of these cards instead: each of them is legal",
        ),
        FixKind(
            "choose_from",
            {"count": INT, "cards": ListType(CARD)},
            "the move's cards are `count` of these (each legal on its own)",
        ),
        FixKind(
            "amount_range",
            {"field": STR, "min": INT, "max": INT},
            "the move's number `field` lies between `min` and `max`, both included",
        ),
        FixKind(
            "missing_cards",
            {"cards": ListType(CARD)},
            "the meld would be legal with one of these cards added where it fits",
        ),
        FixKind(
            "lay_off",
            {"meld": INT, "cards": ListType(CARD)},
            "each of these held cards may be laid off alone on meld `meld`",
        ),
        FixKind(
            "order_cards",
            {"cards": ListType(CARD)},
            "the move's cards are right, listed in this order (a sequence low to high)",
        ),
        FixKind(
            "move_instead",
            {"moves": ListType(STR)},
            "the move types to make instead (each is still judged)",
        ),
    )
}


def fix_data(kind: str, values: Mapping[str, Any]) -> dict[str, JSON]:
    """The fix a violation carries: its kind and values as JSON (a card as its code). Empty when
    it offers no way out: an empty list of cards or moves, a range whose `min` exceeds `max`."""
    data = {name: _json(value) for name, value in values.items()}
    if any(isinstance(v, list) and not v for v in data.values()):
        return {}
    if "min" in data and "max" in data and data["min"] > data["max"]:
        return {}
    return {"kind": kind, **data}


def _json(value: Any) -> JSON:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value
