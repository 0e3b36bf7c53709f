"""The function vocabulary: a table of name -> signature, python implementation, z3 implementation.

Games extend it: pass extra `Function`s to `Program(functions=...)`. A python implementation
takes runtime values (lists may be tuples; return a list for a list result); a z3
implementation takes the symbolic representations of `symbolic.py` (cards as `SymCard`, lists
as `SymList`, ints/bools as python values or z3 terms) and returns one. Builtins are total:
none raises, so the encoder only tracks errors of indexing and division.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from referee.spec.expr import symbolic as s
from referee.spec.expr.types import BOOL, CARD, INT, STR, ListType, Type, TypeVar
from referee.spec.expr.values import freeze


@dataclass(frozen=True)
class Function:
    """One vocabulary entry. `params` may use `TypeVar`s (bound per call by the checker)."""

    name: str
    params: tuple[Type, ...]
    result: Type
    py: Callable[..., Any]
    z3: Callable[..., Any] | None = None
    doc: str = ""

    def signature(self) -> str:
        return f"{self.name}({', '.join(map(str, self.params))}) -> {self.result}"


T = TypeVar("T")
LIST_T = ListType(T)


def _distinct(xs: Sequence[Any]) -> list[Any]:
    seen: set[Any] = set()
    out = []
    for x in xs:
        key = freeze(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _contains(xs: Sequence[Any], ys: Sequence[Any]) -> bool:
    have = Counter(freeze(x) for x in xs)
    want = Counter(freeze(y) for y in ys)
    return all(have[k] >= n for k, n in want.items())


def _index_of(xs: Sequence[Any], x: Any) -> int:
    key = freeze(x)
    return next((k for k, y in enumerate(xs) if freeze(y) == key), -1)


def _slice(xs: Sequence[Any], i: int, j: int) -> list[Any]:
    return list(xs[max(i, 0) : max(j, 0)])


# ---- z3 implementations -------------------------------------------------------------------


def _z_indices(xs: s.SymList) -> s.SymList:
    if xs.plain:
        return s.SymList.of(range(len(xs.items)))
    size = xs.size()
    return s.SymList(
        tuple(range(len(xs.items))), tuple(s.s_lt(k, size) for k in range(len(xs.items)))
    )


def _z_distinct(xs: s.SymList) -> s.SymList:
    """Keep an item iff it is present and no present item before it is equal."""
    flags = []
    for j, (x, flag) in enumerate(zip(xs.items, xs.flags)):
        earlier = [s.s_and(f, s.s_eq(y, x)) for y, f in zip(xs.items[:j], xs.flags[:j])]
        flags.append(s.s_and(flag, s.s_not(s.s_or(*earlier))))
    return s.SymList(xs.items, tuple(flags))


def _z_contains(xs: s.SymList, ys: s.SymList) -> Any:
    """Every present y occurs in ys no more often than in xs."""
    return s.s_and(
        *(
            s.s_implies(f, s.s_occurrences(y, ys) <= s.s_occurrences(y, xs))
            for y, f in zip(ys.items, ys.flags)
        )
    )


def _z_index_of(xs: s.SymList, x: Any) -> Any:
    """The position (among present items) of the first present item equal to x, else -1."""
    result: Any = -1
    for position, item, flag in reversed(list(zip(xs.prefix_counts(), xs.items, xs.flags))):
        result = s.s_if(s.s_and(flag, s.s_eq(item, x)), position, result)
    return result


def _z_slice(xs: s.SymList, i: Any, j: Any) -> s.SymList:
    slots, size = xs.compact()
    flags = tuple(
        s.s_and(s.s_not(s.s_lt(k, i)), s.s_lt(k, j), s.s_lt(k, size)) for k in range(len(slots))
    )
    return s.SymList(tuple(slots), flags)


def _z_reverse(xs: s.SymList) -> s.SymList:
    return s.SymList(xs.items[::-1], xs.flags[::-1])


def _z_suit(card: s.SymCard) -> Any:
    return s.str_value(card.suit)


def _z_is_red(card: s.SymCard) -> Any:
    red = (s.STRINGS.code("H"), s.STRINGS.code("D"))
    return s.s_or(*(s.s_eq(card.suit, code) for code in red))


BUILTINS: dict[str, Function] = {
    f.name: f
    for f in (
        Function("size", (LIST_T,), INT, len, s.SymList.size, "the number of items"),
        Function(
            "indices",
            (LIST_T,),
            ListType(INT),
            lambda xs: list(range(len(xs))),
            _z_indices,
            "`[0, 1, .., size(xs) - 1]`",
        ),
        Function(
            "distinct",
            (LIST_T,),
            LIST_T,
            _distinct,
            _z_distinct,
            "the first occurrence of each item, in order",
        ),
        Function(
            "rank",
            (CARD,),
            INT,
            attrgetter("value"),
            attrgetter("rank"),
            "the numeric rank: A=1 .. K=13 (a trump: its number)",
        ),
        Function(
            "suit",
            (CARD,),
            STR,
            attrgetter("suit"),
            _z_suit,
            "the suit letter: `S H D C`, `T` for tarot trumps",
        ),
        Function("is_red", (CARD,), BOOL, attrgetter("is_red"), _z_is_red, "hearts or diamonds"),
        Function("min", (INT, INT), INT, min, s.s_min),
        Function("max", (INT, INT), INT, max, s.s_max),
        Function("abs", (INT,), INT, abs, s.s_abs),
        Function(
            "contains",
            (LIST_T, LIST_T),
            BOOL,
            _contains,
            _z_contains,
            "multiset containment: every item of the second list, counted with multiplicity, "
            "is in the first",
        ),
        Function(
            "index_of",
            (LIST_T, T),
            INT,
            _index_of,
            _z_index_of,
            "the position of an item in a list, from 0 (its first occurrence); -1 when absent: "
            "an ordering written as a ranking list, `index_of([ace, jack, queen, king], rank(c))`",
        ),
        Function("reverse", (LIST_T,), LIST_T, lambda xs: list(reversed(xs)), _z_reverse),
        Function(
            "slice",
            (LIST_T, INT, INT),
            LIST_T,
            _slice,
            _z_slice,
            "`xs[i:j]` with i and j clamped to `0..size(xs)` (no counting from the end)",
        ),
    )
}


def vocabulary(
    extra: Iterable[Function] | Mapping[str, Function] | None = None,
) -> dict[str, Function]:
    """The builtins plus `extra`; an extra function may not silently replace a builtin."""
    table = dict(BUILTINS)
    extras = extra.values() if isinstance(extra, Mapping) else (extra or ())
    for function in extras:
        if function.name in BUILTINS:
            raise ValueError(f"`{function.name}` is a builtin function and cannot be redefined")
        table[function.name] = function
    return table
