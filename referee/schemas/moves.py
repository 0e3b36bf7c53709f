"""A JSON Schema for each move type, made from the spec's move declarations (`moves:` fields).

The schema says what `referee.engine.moves.parse_move` reads: the declared fields and no other,
each of its type; an optional field may be left out or sent as null (both mean absent). Numbers
are integers within plus or minus 2^53 - 1 (`SAFE_INTEGER`): what the spec bounds beyond that
(bets between `min_bet` and `max_bet`) is the rules' to judge, with a rule id, not the schema's.
"""

from __future__ import annotations

from referee.engine.disputes import DISPUTE, MAX_MOVE_ID_CHARS, MAX_REASON_CHARS, dispute_move
from referee.engine.seeding import CONTRIBUTE, MAX_ENTROPY_CHARS, contribute_move
from referee.model import JSON, SAFE_INTEGER
from referee.spec.schema import FieldSpec, MoveSpec

INTEGER: dict[str, JSON] = {"type": "integer", "minimum": -SAFE_INTEGER, "maximum": SAFE_INTEGER}
CARD = {"$ref": "#/$defs/card"}
CARDS = {"$ref": "#/$defs/cards"}
# `isprintable` is more than a pattern can say: this one refuses the control characters
PRINTABLE = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"


def move_schema(move: MoveSpec) -> dict[str, JSON]:
    schema = _record(move.fields, {"type": {"const": move.type}})
    text = move.text.get("en")
    return {"title": f"move `{move.type}`", **({"description": text} if text else {}), **schema}


def contribute_schema() -> dict[str, JSON]:
    """The table's own move (referee/engine/seeding.py), beside every game's."""
    entropy = {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_ENTROPY_CHARS,
        "pattern": PRINTABLE,
        "description": "printable characters of your own",
    }
    text = contribute_move("en")["sentence"]
    return {
        "title": f"move `{CONTRIBUTE}`",
        "description": text,
        **_object({"type": {"const": CONTRIBUTE}, "entropy": entropy}, ["type", "entropy"]),
    }


def dispute_schema() -> dict[str, JSON]:
    """A seat's call to the director (referee/engine/disputes.py), beside every game's moves."""
    text = {"type": "string", "minLength": 1, "pattern": PRINTABLE}
    fields = {
        "type": {"const": DISPUTE},
        "version": {
            "type": "integer",
            "minimum": 1,
            "description": "the accepted move that made this version",
        },
        "proposal": {
            **text,
            "maxLength": MAX_MOVE_ID_CHARS,
            "description": "the proposal sent with this move id",
        },
        "reason": {
            **text,
            "maxLength": MAX_REASON_CHARS,
            "description": "why, in your words: for the director",
        },
    }
    return {  # exactly one of `version` and `proposal`: said, not a keyword clients must know
        "title": f"move `{DISPUTE}`",
        "description": dispute_move("en")["sentence"],
        **_object(fields, ["type", "reason"]),
    }


def field_schema(spec: FieldSpec) -> dict[str, JSON]:
    """One field's value, as it must be sent."""
    if spec.type == "card":
        return dict(CARD)
    if spec.type == "cards":
        return dict(CARDS)
    if spec.type == "int":
        return dict(INTEGER)
    if spec.type == "enum":
        return {"enum": list(spec.values)}
    if spec.type == "list_of_cards":
        return {"type": "array", "items": dict(CARDS)}
    if spec.type == "record":
        return _record(spec.fields)
    if spec.type == "list":
        return {"type": "array", "items": _record(spec.fields)}
    raise ValueError(f"field `{spec.name}`: no schema for the type `{spec.type}`")


def typed_fields(fields: tuple[FieldSpec, ...]) -> list[dict[str, JSON]]:
    """DescribeGame's `typed_fields` of a move: each field's name, type and whether optional
    (an enum's values, a record's or a list's own fields)."""
    described = []
    for spec in fields:
        entry: dict[str, JSON] = {"name": spec.name, "type": spec.type, "optional": spec.optional}
        if spec.values:
            entry["values"] = list(spec.values)
        if spec.fields:
            entry["fields"] = typed_fields(spec.fields)
        described.append(entry)
    return described


def _record(fields: tuple[FieldSpec, ...], first: dict[str, JSON] | None = None) -> dict[str, JSON]:
    properties = dict(first or {})
    for spec in fields:
        value = field_schema(spec)
        properties[spec.name] = {"anyOf": [value, {"type": "null"}]} if spec.optional else value
    required = [*(first or {}), *(f.name for f in fields if not f.optional)]
    return _object(properties, required)


def _object(properties: dict[str, JSON], required: list[str]) -> dict[str, JSON]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
