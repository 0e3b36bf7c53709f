"""The types of the expression language, the scope of context names, and type text.

`int bool str card`, `list[T]` and records `{field: T, ...}`. A `TypeVar` appears only in the
signatures of generic builtins (`size(xs: list[T]) -> int`); `ERROR` is given to a
sub-expression that already failed to check, so one mistake is reported once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass


class Type:
    """Base of every type; types are immutable, hashable and compare structurally."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class PrimType(Type):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class ListType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"list[{self.elem}]"


@dataclass(frozen=True, slots=True, init=False)
class RecordType(Type):
    """A record: field name -> type. Built from a mapping; nested dicts become records."""

    fields: tuple[tuple[str, Type], ...]

    def __init__(self, fields: Mapping[str, TypeLike]) -> None:
        items = tuple(sorted((name, as_type(t)) for name, t in fields.items()))
        object.__setattr__(self, "fields", items)

    def field(self, name: str) -> Type | None:
        for key, ty in self.fields:
            if key == name:
                return ty
        return None

    def names(self) -> list[str]:
        return [name for name, _ in self.fields]

    def __str__(self) -> str:
        return "{" + ", ".join(f"{n}: {t}" for n, t in self.fields) + "}"


@dataclass(frozen=True, slots=True)
class TypeVar(Type):
    name: str

    def __str__(self) -> str:
        return self.name


INT = PrimType("int")
BOOL = PrimType("bool")
STR = PrimType("str")
CARD = PrimType("card")
ERROR = PrimType("<error>")

TypeLike = Type | Mapping[str, "TypeLike"]


def as_type(value: TypeLike) -> Type:
    """A type, or a (nested) dict of field types read as a record."""
    if isinstance(value, Type):
        return value
    return RecordType(value)


class Scope:
    """The types of the context names an expression may use (`cards`, `move`, `options`)."""

    def __init__(
        self, names: Mapping[str, TypeLike] | None = None, meanings: Mapping[str, str] | None = None
    ) -> None:
        self._names: dict[str, Type] = {k: as_type(v) for k, v in (names or {}).items()}
        self._meanings = dict(meanings or {})  # what a name means, for `referee describe`

    def meaning(self, name: str) -> str:
        """What a name means at this checkpoint, when its mechanic says ("" otherwise)."""
        return self._meanings.get(name, "")

    def get(self, name: str) -> Type | None:
        return self._names.get(name)

    def names(self) -> list[str]:
        return list(self._names)

    def items(self) -> Iterator[tuple[str, Type]]:
        return iter(self._names.items())

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __repr__(self) -> str:
        return f"Scope({self._names!r})"


def is_error(ty: Type) -> bool:
    """True if a type is, or contains, the type of a sub-expression that failed to check."""
    if isinstance(ty, ListType):
        return is_error(ty.elem)
    if isinstance(ty, RecordType):
        return any(is_error(t) for _, t in ty.fields)
    return ty == ERROR


def has_order(ty: Type) -> bool:
    """Only ints have `<`: cards and strings are compared through `rank`/`==`."""
    return ty == INT


# ---- type text: `int`, `list[card]`, `{going_out: bool, cards: list[card]}` ----------------

_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*|[\[\]{}:,])")
_PRIMS = {t.name: t for t in (INT, BOOL, STR, CARD)}


class TypeSyntaxError(ValueError):
    """A malformed type text; the spec loader turns it into a located SpecError."""


def parse_type(text: str) -> Type:
    """Read a type written as in the specs: `int`, `list[card]`, `{kind: str, cards: list[card]}`."""
    tokens = _tokens(text)
    ty, rest = _parse_type(tokens, text)
    if rest:
        raise TypeSyntaxError(f"unexpected `{rest[0]}` in type `{text}`")
    return ty


def _tokens(text: str) -> list[str]:
    out, at = [], 0
    while at < len(text.rstrip()):
        match = _TOKEN.match(text, at)
        if not match:
            raise TypeSyntaxError(f"unexpected `{text[at:].strip()[:1]}` in type `{text}`")
        out.append(match.group(1))
        at = match.end()
    return out


def _parse_type(tokens: list[str], text: str) -> tuple[Type, list[str]]:
    if not tokens:
        raise TypeSyntaxError(f"incomplete type `{text}`")
    head, rest = tokens[0], tokens[1:]
    if head == "list":
        _expect(rest, "[", text)
        elem, rest = _parse_type(rest[1:], text)
        _expect(rest, "]", text)
        return ListType(elem), rest[1:]
    if head == "{":
        return _parse_record(rest, text)
    if head in _PRIMS:
        return _PRIMS[head], rest
    raise TypeSyntaxError(
        f"unknown type `{head}`: expected one of `int bool str card list[...] {{...}}`"
    )


def _parse_record(tokens: list[str], text: str) -> tuple[Type, list[str]]:
    fields: dict[str, Type] = {}
    while tokens and tokens[0] != "}":
        name = tokens[0]
        _expect(tokens[1:], ":", text)
        fields[name], tokens = _parse_type(tokens[2:], text)
        if tokens and tokens[0] == ",":
            tokens = tokens[1:]
    _expect(tokens, "}", text)
    return RecordType(fields), tokens[1:]


def _expect(tokens: list[str], want: str, text: str) -> None:
    if not tokens or tokens[0] != want:
        found = f"`{tokens[0]}`" if tokens else "the end"
        raise TypeSyntaxError(f"expected `{want}` in type `{text}`, found {found}")
