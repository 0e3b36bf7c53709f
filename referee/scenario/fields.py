"""Value readers for scenario files: one small function per kind of value.

Each reader takes the raw YAML value and the key path it sits at, and returns the value in its
canonical form or raises `FieldError` with a message that names the key. Card codes are only
checked to be text here: whether they are cards of the game's pack is the engine's question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.bounds import integer_key
from referee.model import JSON, Move

Reader = Callable[[Any, str], Any]


class FieldError(ValueError):
    """A value of the wrong shape; the loader adds the file, line and step."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def name(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FieldError(f"`{key}` must be a name, got `{value}`")
    return value


def text(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise FieldError(f"`{key}` must be a text")
    return value


def integer(value: Any, key: str) -> int:
    if not _is_int(value):
        raise FieldError(f"`{key}` must be an integer, got `{value}`")
    return int(value)


def count(value: Any, key: str) -> int:
    if not _is_int(value) or value < 1:
        raise FieldError(f"`{key}` must be a positive integer, got `{value}`")
    return int(value)


def boolean(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise FieldError(f"`{key}` must be `true` or `false`, got `{value}`")
    return value


def seat_in(seats: int) -> Reader:
    def read(value: Any, key: str) -> int:
        if not _is_int(value) or not 0 <= value < seats:
            raise FieldError(f"`{key}` must be a seat 0..{seats - 1}, got `{value}`")
        return int(value)

    return read


def optional(reader: Reader) -> Reader:
    def read(value: Any, key: str) -> Any:
        return None if value is None else reader(value, key)

    return read


def card(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FieldError(f"`{key}` must be a card code such as `7H`, got `{value}`")
    return value


def cards(value: Any, key: str) -> list[str]:
    if not isinstance(value, list):
        raise FieldError(f"`{key}` must be a list of card codes, got `{value}`")
    return [card(item, f"{key}[{i}]") for i, item in enumerate(value)]


def list_of(reader: Reader) -> Reader:
    def read(value: Any, key: str) -> list[Any]:
        if not isinstance(value, list):
            raise FieldError(f"`{key}` must be a list, got `{value}`")
        return [reader(item, f"{key}[{i}]") for i, item in enumerate(value)]

    return read


def keyed(key_reader: Reader, value_reader: Reader) -> Reader:
    """A mapping whose keys are read as seats (or teams) and whose values by `value_reader`."""

    def read(value: Any, key: str) -> dict[int, Any]:
        if not isinstance(value, Mapping):
            raise FieldError(
                f"`{key}` must be a mapping such as `{{0: ..., 1: ...}}`, got `{value}`"
            )
        out: dict[int, Any] = {}
        named: dict[int, Any] = {}  # the key that named each number first
        for k, item in value.items():
            number = key_reader(_int_key(k), f"{key} key")
            if number in named:
                raise FieldError(
                    f"`{key}`: `{named[number]}` and `{k}` both name {number}: give each once"
                )
            named[number] = k
            out[number] = value_reader(item, f"{key}.{k}")
        return out

    return read


def integral(data: Any) -> Any:
    """JSON numbers that are whole (`4.0`, as a protobuf Struct carries them) become ints."""
    if isinstance(data, float) and data.is_integer():
        return int(data)
    if isinstance(data, list):
        return [integral(v) for v in data]
    if isinstance(data, Mapping):
        return {k: integral(v) for k, v in data.items()}
    return data


def _int_key(key: Any) -> Any:
    """A key of digits (`"1"`, as JSON writes seats) as its number; any other key as it is."""
    number = integer_key(key.strip() if isinstance(key, str) else key)
    return key if number is None else number


def seat_map(seats: int) -> Reader:
    return keyed(seat_in(seats), integer)


def seat_cards(seats: int) -> Reader:
    return keyed(seat_in(seats), cards)


def team(value: Any, key: str) -> int:
    if not _is_int(value) or value < 0:
        raise FieldError(f"`{key}` must be a team number, got `{value}`")
    return int(value)


def options(value: Any, key: str) -> dict[str, JSON]:
    if not isinstance(value, Mapping):
        raise FieldError(f"`{key}` must be a mapping of option names to values, got `{value}`")
    for name_, item in value.items():
        if not isinstance(name_, str):
            raise FieldError(f"`{key}` has an option named `{name_}`: names are text")
        _json(item, f"{key}.{name_}")
    return dict(value)


def move(value: Any, key: str = "move") -> Move:
    """A move as the engine receives it: a mapping with a `type`, every field JSON data.

    Whether the fields are right for the move type is not checked here: a malformed move is a
    rejected verdict (GEN-8), which a scenario may well want to test.
    """
    if not isinstance(value, Mapping):
        raise FieldError(f"`{key}` must be a mapping such as `{{type: draw}}`, got `{value}`")
    if not isinstance(value.get("type"), str) or not value["type"]:
        raise FieldError(f"`{key}` needs a `type`, such as `{key}: {{type: draw}}`")
    _json(value, key)
    return Move.from_data(value)


def _json(value: Any, key: str) -> None:
    """Accept only what travels as JSON (and as a protobuf Struct): no dates, no sets."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _json(item, f"{key}[{i}]")
        return
    if isinstance(value, Mapping):
        for k, item in value.items():
            if not isinstance(k, str):
                raise FieldError(f"`{key}` has a key `{k}` that is not text")
            _json(item, f"{key}.{k}")
        return
    raise FieldError(
        f"`{key}` has a value `{value}` of a type a move cannot carry "
        f"({type(value).__name__}): use text, numbers, lists or mappings"
    )
