"""Reading a proposed move against the fields its spec declares.

A move that cannot be read (unknown type, missing field, bad card code, a field of the wrong
type) raises MoveFormatError; the table turns it into a rejected verdict citing GEN-8.
The parsed move is a record the rules can read: typed values, neutral values for absent optional
fields, and `present`, the names of the fields the proposal gave.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.cards import Card, PackKind
from referee.errors import CardError, MoveFormatError
from referee.model import SAFE_INTEGER, Move, Sentence
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, RecordType, Type
from referee.spec.schema import FieldSpec, MoveSpec

# Absent optional fields hold a neutral value of their type; rules test `"name" in move.present`.
NO_CARD = Card("A", "S")
Where = Sentence  # where in the move a value is: `move `meld`: field `cards`[2]`, in any language
# where, or how to word it once a value there is found wrong (a move read whole words nothing)
Place = Sentence | Callable[[], Sentence]


def field_type(spec: FieldSpec) -> Type:
    simple: dict[str, Type] = {
        "card": CARD,
        "cards": ListType(CARD),
        "int": INT,
        "enum": STR,
        "list_of_cards": ListType(ListType(CARD)),
    }
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
        raise MoveFormatError(Sentence("move.unknown_type", {"type": shown, "known": known}))
    return _parse_record(
        spec.fields, move.fields, lambda: Sentence("move.at", {"type": move.type}), pack
    )


def _worded(place: Place) -> Where:
    return place() if callable(place) else place


def _parse_record(
    fields: tuple[FieldSpec, ...], given: Any, where: Place, pack: PackKind
) -> dict[str, Any]:
    if given.__class__ is not dict and not isinstance(given, Mapping):  # a dict: no ABC asked
        raise _malformed("move.not_a_mapping", where, given=_short(given))
    declared = _declared(fields)
    if not given.keys() <= declared.keys():
        extra = sorted(set(given) - set(declared))
        allowed = ", ".join(f"`{n}`" for n in declared) or "none"
        raise _malformed("move.unknown_field", where, field=extra[0], allowed=allowed)
    record: dict[str, Any] = {"present": [n for n in declared if given.get(n) is not None]}
    for name, spec in declared.items():
        value = given.get(name)
        if value is None:
            if not spec.optional:
                raise _malformed("move.missing_field", where, field=name)
            record[name] = _neutral(spec)
        else:
            record[name] = _parse_value(spec, value, where, name, pack)
    return record


# each move's declared fields by name, by the identity of its fields' tuple (kept with it)
_DECLARED: dict[int, tuple[tuple[FieldSpec, ...], dict[str, FieldSpec]]] = {}


def _declared(fields: tuple[FieldSpec, ...]) -> dict[str, FieldSpec]:
    """`fields` by name: worked out once for each spec's move (a spec's fields are immutable)."""
    kept = _DECLARED.get(id(fields))
    if kept is None or kept[0] is not fields:
        kept = _DECLARED[id(fields)] = (fields, {f.name: f for f in fields})
    return kept[1]


def _parse_value(spec: FieldSpec, value: Any, record: Place, name: str, pack: PackKind) -> Any:
    """The field `name` of the record at `record`: the common cases are read at once (a card,
    cards, a whole number, one of an enum's values); where the value is in the move is worded
    only to say what is wrong with it."""
    kind = spec.type
    try:
        if kind == "card" and isinstance(value, str):
            return Card.parse(value, pack)
        if kind == "cards" and isinstance(value, list):
            return [Card.parse(v, pack) for v in value]
    except CardError:
        pass  # worded below, with where it is
    if kind == "int" and type(value) is int and abs(value) <= SAFE_INTEGER:  # not a bool
        return value
    if kind == "enum" and type(value) is str and value in spec.values:
        return value

    def where() -> Sentence:  # worded only for a value found wrong
        return Sentence("move.at_field", {"at": _worded(record), "field": name})

    try:
        return _VALUE_READERS[spec.type](spec, value, where, pack)
    except CardError as exc:
        raise _malformed("move.bad_card", where, problem=exc.sentence or exc.message) from None


def _malformed(key: str, where: Place, **values: Any) -> MoveFormatError:
    return MoveFormatError(Sentence(key, {"at": _worded(where), **values}))


def _item(where: Place, index: int) -> Place:
    """The item at `index` of the list at `where` (counted from 1, as players count), worded
    only for a value found wrong."""
    return lambda: Sentence("move.at_item", {"at": _worded(where), "index": index + 1})


def _card(spec: FieldSpec, value: Any, where: Place, pack: PackKind) -> Card:
    return Card.parse(value, pack)


def _cards(spec: FieldSpec, value: Any, where: Place, pack: PackKind) -> list[Card]:
    if not isinstance(value, (list, tuple)):
        raise _malformed("move.not_cards", where, given=_short(value))
    return [Card.parse(v, pack) for v in value]


def _int(spec: FieldSpec, value: Any, where: Place, pack: PackKind) -> int:
    integral = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not integral:  # NaN and infinities are not integers either
        raise _malformed("move.not_an_integer", where, given=_short(value))
    if abs(value) > SAFE_INTEGER:  # beyond what every view and verdict can carry exactly
        raise _malformed("move.out_of_range", where, given=_short(value), limit=SAFE_INTEGER)
    return int(value)


def _short(value: Any) -> str:
    """A value as a message may quote it: at most a few dozen characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _enum(spec: FieldSpec, value: Any, where: Place, pack: PackKind) -> str:
    if value not in spec.values:
        allowed = ", ".join(f"`{v}`" for v in spec.values)
        raise _malformed("move.not_one_of", where, given=str(value), allowed=allowed)
    return str(value)


def _list_of_cards(spec: FieldSpec, value: Any, where: Place, pack: PackKind) -> list[list[Card]]:
    if not isinstance(value, (list, tuple)):
        raise _malformed("move.not_card_lists", where, given=_short(value))
    return [_cards(spec, v, _item(where, i), pack) for i, v in enumerate(value)]


def _record(spec: FieldSpec, value: Any, where: Place, pack: PackKind) -> dict[str, Any]:
    return _parse_record(spec.fields, value, where, pack)


def _list(spec: FieldSpec, value: Any, where: Place, pack: PackKind) -> list[dict[str, Any]]:
    if not isinstance(value, (list, tuple)):
        raise _malformed("move.not_a_list", where, given=_short(value))
    return [_parse_record(spec.fields, v, _item(where, i), pack) for i, v in enumerate(value)]


_VALUE_READERS = {
    "card": _card,
    "cards": _cards,
    "int": _int,
    "enum": _enum,
    "list_of_cards": _list_of_cards,
    "record": _record,
    "list": _list,
}


def _neutral(spec: FieldSpec) -> Any:
    if spec.type == "record":
        return {f.name: _neutral(f) for f in spec.fields} | {"present": []}
    return _NEUTRAL[spec.type]()


# an absent optional field's value, by its type (a list a new one each time: the caller's)
_NEUTRAL: dict[str, Callable[[], Any]] = {
    "card": lambda: NO_CARD,
    "cards": list,
    "int": int,
    "enum": str,
    "list_of_cards": list,
    "list": list,
}


__all__ = ["BOOL", "NO_CARD", "field_type", "move_record_type", "parse_move"]
