"""A mechanic's state to and from JSON values, driven by its dataclasses' type hints.

msgspec encodes and decodes every typed part of a state (dataclasses, lists, tuples, frozensets,
dicts with int keys, Optional), checking each value's type strictly on the way back. What it
cannot do alone is a value typed `Any` (a claim's parsed move holds cards; a revealed hand is
JSON): JSON would hand a card back as a dict and a tuple as a list. So the codec walks the type
hints down to each `Any` and writes what is there with its type named (`UNTYPED_TAGS`); the
parts of a state with no `Any` below them go to msgspec whole.

Only values of known kinds come back: JSON scalars, lists, dicts, tuples, frozensets, and the
dataclasses the state's own type hints reach (a `Card`). No class is named by the data that the
state's type does not already name, and no code runs (no pickle).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import types
import typing
from collections.abc import Callable
from typing import Any

import msgspec

Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]
Invalid = msgspec.ValidationError  # what a value that does not fit its type raises

SCALARS = (bool, int, float, str)
# a value typed `Any`, other than a JSON scalar or list, is written as {tag: payload}: a dict
# with text keys ({"dict": {...}}), any other dict ({"pairs": [[key, value], ...]}), a tuple,
# a frozenset, or a dataclass by its class name ({"Card": {...}})
UNTYPED_TAGS = ("dict", "pairs", "tuple", "frozenset")
KEY_TYPES = (str, int)  # JSON objects' keys: text, or integers written as text


class StateCodec:
    """The codec of one state dataclass (`RummyState`, ...) and everything its hints reach."""

    def __init__(self, kind: type) -> None:
        if not dataclasses.is_dataclass(kind):
            raise TypeError(f"`{kind.__name__}` is not a dataclass")
        self.kind = kind
        self._classes: dict[str, type] = {}  # the dataclasses an `Any` value may hold, by name
        self._untyped: dict[Any, bool] = {}  # annotation -> has an `Any` below it
        self._hints: dict[type, dict[str, Any]] = {}
        self._reading: set[Any] = set()  # the annotations being read: one met again is a cycle
        self._reach(kind)
        self._codecs: dict[Any, tuple[Encode, Decode]] = {}  # by annotation, made once each
        self._encode, self._decode = self._compile(kind)
        self.layout = hashlib.sha256(self._layout_text().encode()).hexdigest()

    def encode(self, state: Any) -> Any:
        """`state` as values msgspec writes as JSON."""
        if type(state) is not self.kind:
            raise TypeError(f"a `{type(state).__name__}`, not a `{self.kind.__name__}`")
        return self._encode(state)

    def decode(self, data: Any) -> Any:
        """The state `data` (decoded JSON) stands for; `Invalid` if it does not fit."""
        return self._decode(data)

    # -- what the hints reach ---------------------------------------------------------------

    def _reach(self, annotation: Any) -> bool:
        """Collect the dataclasses below `annotation`; True if an `Any` is below it."""
        if annotation in self._reading:
            raise TypeError(f"the state codec cannot hold a recursive `{annotation!r}`")
        if annotation in self._untyped:
            return self._untyped[annotation]
        self._reading.add(annotation)
        if annotation is Any:
            found = True
        elif dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
            found = self._reach_class(annotation)
        else:
            found = any([self._reach(arg) for arg in typing.get_args(annotation)])
        self._reading.discard(annotation)
        self._untyped[annotation] = found
        return found

    def _reach_class(self, kind: type) -> bool:
        known = self._classes.setdefault(kind.__name__, kind)
        if known is not kind or kind.__name__ in UNTYPED_TAGS:
            raise TypeError(f"two classes named `{kind.__name__}` in one state")
        fields = dataclasses.fields(kind)
        if any(not f.init for f in fields):
            raise TypeError(f"`{kind.__name__}` has a field its constructor does not take")
        self._hints[kind] = typing.get_type_hints(kind)
        return any([self._reach(self._hints[kind][f.name]) for f in fields])

    def _layout_text(self) -> str:
        """Every class's fields with their types: a state of another layout is another codec."""
        return "\n".join(
            f"{kind.__module__}.{kind.__qualname__}: "
            + ", ".join(
                f"{f.name}: {self._hints[kind][f.name]!r}" for f in dataclasses.fields(kind)
            )
            for kind in sorted(self._classes.values(), key=lambda k: k.__qualname__)
        )

    # -- compiling an annotation into its encoder and decoder -------------------------------

    def _compile(self, annotation: Any) -> tuple[Encode, Decode]:
        if annotation not in self._codecs:
            self._codecs[annotation] = self._compiled(annotation)
        return self._codecs[annotation]

    def _compiled(self, annotation: Any) -> tuple[Encode, Decode]:
        if annotation is Any:
            return self._encode_untyped, self._decode_untyped
        if not self._untyped[annotation]:  # msgspec's alone, checked strictly
            return _same, lambda data: msgspec.convert(data, annotation, str_keys=True)
        if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
            return self._compile_class(annotation)
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin in (typing.Union, types.UnionType):
            return self._compile_optional(annotation, args)
        if origin is dict:
            return self._compile_dict(annotation, args)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return self._compile_record(args)
        if origin in (list, tuple, frozenset):
            return self._compile_collection(origin, args[0])
        raise TypeError(f"the state codec cannot hold a `{annotation!r}`")

    def _compile_class(self, kind: type) -> tuple[Encode, Decode]:
        fields = {f.name: f for f in dataclasses.fields(kind)}
        codecs = {name: self._compile(self._hints[kind][name]) for name in fields}
        required = {
            name
            for name, f in fields.items()
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }

        def encode(value: Any) -> Any:
            return {name: codecs[name][0](getattr(value, name)) for name in codecs}

        def decode(data: Any) -> Any:
            _expect(data, dict, kind.__name__)
            unknown, missing = set(data) - set(codecs), required - set(data)
            if unknown or missing:
                problem = f"unknown `{min(unknown)}`" if unknown else f"no `{min(missing)}`"
                raise Invalid(f"`{kind.__name__}`: {problem}")
            return kind(**{name: codecs[name][1](value) for name, value in data.items()})

        return encode, decode

    def _compile_optional(self, annotation: Any, args: tuple[Any, ...]) -> tuple[Encode, Decode]:
        others = [arg for arg in args if arg is not type(None)]
        if len(others) != 1:
            raise TypeError(f"the state codec cannot hold a `{annotation!r}`")
        inner_encode, inner_decode = self._compile(others[0])
        return (
            lambda value: None if value is None else inner_encode(value),
            lambda data: None if data is None else inner_decode(data),
        )

    def _compile_dict(self, annotation: Any, args: tuple[Any, ...]) -> tuple[Encode, Decode]:
        key, value = args
        if key not in KEY_TYPES:
            raise TypeError(f"the state codec cannot hold a `{annotation!r}`: keys of `{key!r}`")
        encode_value, decode_value = self._compile(value)

        def decode(data: Any) -> Any:
            _expect(data, dict, "a mapping")
            keys = msgspec.convert(dict.fromkeys(data, 0), dict[key, int], str_keys=True)  # type: ignore[valid-type]
            return {k: decode_value(v) for k, v in zip(keys, data.values())}

        return lambda mapping: {k: encode_value(v) for k, v in mapping.items()}, decode

    def _compile_record(self, args: tuple[Any, ...]) -> tuple[Encode, Decode]:
        codecs = [self._compile(arg) for arg in args]

        def decode(data: Any) -> Any:
            _expect(data, list, f"a list of {len(codecs)}")
            if len(data) != len(codecs):
                raise Invalid(f"a list of {len(codecs)}, not of {len(data)}")
            return tuple(codec[1](item) for codec, item in zip(codecs, data))

        return lambda value: [codec[0](item) for codec, item in zip(codecs, value)], decode

    def _compile_collection(self, origin: type, item: Any) -> tuple[Encode, Decode]:
        encode_item, decode_item = self._compile(item)

        def decode(data: Any) -> Any:
            _expect(data, list, "a list")
            return origin(decode_item(element) for element in data)

        return lambda values: [encode_item(value) for value in values], decode

    # -- values typed `Any` -----------------------------------------------------------------

    def _encode_untyped(self, value: Any) -> Any:
        kind, encode = type(value), self._encode_untyped
        if kind is float and not math.isfinite(value):  # JSON has none: it would come back null
            raise TypeError(f"a value typed `Any` is `{value}`: JSON has no such number")
        if value is None or kind in SCALARS:
            return value
        if kind is list:
            return [encode(item) for item in value]
        if kind is dict and all(type(key) is str for key in value):
            return {"dict": {key: encode(item) for key, item in value.items()}}
        if kind is dict:
            return {"pairs": [[encode(key), encode(item)] for key, item in value.items()]}
        if kind in (tuple, frozenset):
            return {kind.__name__: [encode(item) for item in value]}
        if self._classes.get(kind.__name__) is kind:
            return {kind.__name__: self._compile(kind)[0](value)}
        raise TypeError(
            f"a value typed `Any` is a `{kind.__name__}`: the state codec cannot hold it"
        )

    def _decode_untyped(self, data: Any) -> Any:
        decode = self._decode_untyped
        if data is None or type(data) in SCALARS:
            return data
        if type(data) is list:
            return [decode(item) for item in data]
        _expect(data, dict, "a value")
        if len(data) != 1:
            raise Invalid("a value typed `Any`: one tag and its payload")
        ((tag, payload),) = data.items()
        try:
            if tag == "dict":
                _expect(payload, dict, "a mapping")
                return {key: decode(item) for key, item in payload.items()}
            if tag == "pairs":
                return {decode(key): decode(item) for key, item in _pairs(payload)}
            if tag in ("tuple", "frozenset"):
                _expect(payload, list, "a list")
                return (tuple if tag == "tuple" else frozenset)(decode(i) for i in payload)
        except TypeError as error:  # an unhashable key or member
            raise Invalid(f"`{tag}`: {error}") from None
        if tag in self._classes:
            return self._compile(self._classes[tag])[1](payload)
        raise Invalid(f"a value typed `Any` tagged `{_short(tag)}`")


def _same(value: Any) -> Any:
    return value


def _expect(data: Any, kind: type, what: str) -> None:
    if type(data) is not kind:
        raise Invalid(f"expected {what}, got `{type(data).__name__}`")


def _pairs(payload: Any) -> list[Any]:
    _expect(payload, list, "a list of pairs")
    for pair in payload:
        _expect(pair, list, "a pair")
        if len(pair) != 2:
            raise Invalid("a pair: a key and a value")
    return list(payload)


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
