"""Runtime values: int, bool, str, `Card`, lists (list or tuple) and records (any Mapping).

Lists may arrive as tuples and records as any mapping, so equality of compound values goes
through `freeze`, which gives one hashable canonical form per value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.spec.expr.source import EvalError

_SCALARS = (int, str, bool)


def freeze(value: Any) -> Any:
    """A hashable canonical form: lists and tuples -> tuples, mappings -> sorted item tuples."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value


def equal(a: Any, b: Any) -> bool:
    """The language's `==`: structural, whatever sequence or mapping class carries the value."""
    if isinstance(a, _SCALARS):
        return bool(a == b)
    return bool(freeze(a) == freeze(b))


def field(record: Any, name: str, where: str = "") -> Any:
    """`record.name`; a missing field is a runtime error (the scope promised it)."""
    try:
        return record[name]
    except (KeyError, TypeError):
        raise EvalError(f"the record has no field `{name}`", where) from None


def item(xs: Any, index: int, where: str = "") -> Any:
    """`xs[index]`; negative or too large indices are errors (no wrap-around from the end)."""
    if 0 <= index < len(xs):
        return xs[index]
    raise EvalError(f"index `{index}` out of range for a list of size `{len(xs)}`", where)


def floordiv(a: int, b: int, where: str = "") -> int:
    if b == 0:
        raise EvalError("division by zero", where)
    return a // b


def mod(a: int, b: int, where: str = "") -> int:
    if b == 0:
        raise EvalError("modulo by zero", where)
    return a % b
