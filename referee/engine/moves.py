"""Reading a proposed move against the fields its spec declares.

A move that cannot be read (unknown type, missing field, bad card code, a field of the wrong
type) raises MoveFormatError; the table turns it into a rejected verdict citing GEN-8.
The parsed move is a record the rules can read: typed values, neutral values for absent optional
fields, and `present`, the names of the fields the proposal gave.
"""

from __future__ import annotations

from typing import Any, Mapping

from referee.cards import Card, PackKind
from referee.errors import CardError, MoveFormatError
from referee.model import SAFE_INTEGER, Move
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, RecordType, Type
from referee.spec.schema import FieldSpec, MoveSpec

# Absent optional fields hold a neutral value of their type; rules test `"name" in move.present`.
NO_CARD = Card("A", "S")


def field_type(spec: FieldSpec) -> Type:
    simple: dict[str, Type] = {"card": CARD, "cards": ListType(CARD), "int": INT, "enum": STR,
                               "list_of_cards": ListType(ListType(CARD))}
    if spec.type in simple:
        return simple[spec.type]
    record = record_type(spec.fields)
    return ListType(record) if spec.type == "list" else record


def record_type(fields: tuple[FieldSpec, ...]) -> RecordType:
    types: dict[str, Type] = {f.name: field_type(f) for f in fields}
    types["present"] = ListType(STR)
    return RecordType(types)


def move_record_type(spec: MoveSpec) -> RecordType:
    return record_type(spec.fields)


def parse_move(moves: Mapping[str, MoveSpec], move: Move, pack: PackKind) -> dict[str, Any]:
    spec = moves.get(move.type)
    if spec is None:
        known = ", ".join(f"`{m}`" for m in moves)
        shown = move.type or "(none)"
        raise MoveFormatError(f"unknown move type `{shown}`: expected one of {known}")
    return _parse_record(spec.fields, move.fields, f"move `{move.type}`", pack)


def _parse_record(fields: tuple[FieldSpec, ...], given: Any, where: str, pack: PackKind) -> dict[str, Any]:
    if not isinstance(given, Mapping):
        raise MoveFormatError(f"{where}: expected a mapping of fields, got `{given!r}`")
    declared = {f.name: f for f in fields}
    extra = sorted(set(given) - set(declared))
    if extra:
        allowed = ", ".join(f"`{n}`" for n in declared) or "none"
        raise MoveFormatError(f"{where}: unknown field `{extra[0]}`: its fields are {allowed}")
    record: dict[str, Any] = {"present": [n for n in declared if given.get(n) is not None]}
    for name, spec in declared.items():
        value = given.get(name)
        if value is None:
            if not spec.optional:
                raise MoveFormatError(f"{where}: missing field `{name}`")
            record[name] = _neutral(spec)
        else:
            record[name] = _parse_value(spec, value, f"{where}: field `{name}`", pack)
    return record


def _parse_value(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> Any:
    try:
        return _VALUE_READERS[spec.type](spec, value, where, pack)
    except CardError as exc:
        raise MoveFormatError(f"{where}: {exc.message}") from None


def _card(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> Card:
    return Card.parse(value, pack)


def _cards(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> list[Card]:
    if not isinstance(value, (list, tuple)):
        raise MoveFormatError(f"{where}: expected a list of cards, got `{value!r}`")
    return [Card.parse(v, pack) for v in value]


def _int(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> int:
    integral = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not integral:  # NaN and infinities are not integers either
        raise MoveFormatError(f"{where}: expected an integer, got `{_short(value)}`")
    if abs(value) > SAFE_INTEGER:  # beyond what every view and verdict can carry exactly
        raise MoveFormatError(f"{where}: `{_short(value)}` is out of range: an integer within "
                              f"plus or minus {SAFE_INTEGER}")
    return int(value)


def _short(value: Any) -> str:
    """A value as a message may quote it: at most a few dozen characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _enum(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> str:
    if value not in spec.values:
        allowed = ", ".join(f"`{v}`" for v in spec.values)
        raise MoveFormatError(f"{where}: `{value}` is not one of {allowed}")
    return str(value)


def _list_of_cards(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> list[list[Card]]:
    if not isinstance(value, (list, tuple)):
        raise MoveFormatError(f"{where}: expected a list of card lists, got `{value!r}`")
    return [_cards(spec, v, f"{where}[{i}]", pack) for i, v in enumerate(value)]


def _record(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> dict[str, Any]:
    return _parse_record(spec.fields, value, where, pack)


def _list(spec: FieldSpec, value: Any, where: str, pack: PackKind) -> list[dict[str, Any]]:
    if not isinstance(value, (list, tuple)):
        raise MoveFormatError(f"{where}: expected a list, got `{value!r}`")
    return [_parse_record(spec.fields, v, f"{where}[{i}]", pack) for i, v in enumerate(value)]


_VALUE_READERS = {"card": _card, "cards": _cards, "int": _int, "enum": _enum,
                  "list_of_cards": _list_of_cards, "record": _record, "list": _list}


def _neutral(spec: FieldSpec) -> Any:
    if spec.type == "record":
        return {f.name: _neutral(f) for f in spec.fields} | {"present": []}
    return {"card": NO_CARD, "cards": [], "int": 0, "enum": "", "list_of_cards": [],
            "list": []}[spec.type]


__all__ = ["parse_move", "move_record_type", "field_type", "NO_CARD", "BOOL"]
