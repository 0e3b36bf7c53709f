"""Compiled comprehensions: one loop per kind, the binder living in one frame slot.

`all`, `any` and `first_index` stop at the first deciding item, like the interpreter; the
others (`best_index` too: it compares every key) run the body on every item.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Code = Callable[[Mapping[str, Any], list[Any]], Any]


def _all(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> bool:
        for item in source(env, frame):
            frame[slot] = item
            if not body(env, frame):
                return False
        return True

    return code


def _any(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> bool:
        for item in source(env, frame):
            frame[slot] = item
            if body(env, frame):
                return True
        return False

    return code


def _count(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> int:
        n = 0
        for item in source(env, frame):
            frame[slot] = item
            if body(env, frame):
                n += 1
        return n

    return code


def _filter(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> list[Any]:
        kept = []
        for item in source(env, frame):
            frame[slot] = item
            if body(env, frame):
                kept.append(item)
        return kept

    return code


def _map(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> list[Any]:
        out = []
        for item in source(env, frame):
            frame[slot] = item
            out.append(body(env, frame))
        return out

    return code


def _sum(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> int:
        total = 0
        for item in source(env, frame):
            frame[slot] = item
            total += body(env, frame)
        return total

    return code


def _first_index(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> int:
        for k, item in enumerate(source(env, frame)):
            frame[slot] = item
            if body(env, frame):
                return k
        return -1

    return code


def _best_index(source: Code, body: Code, slot: int) -> Code:
    def code(env: Mapping[str, Any], frame: list[Any]) -> int:
        best, top = -1, 0
        for k, item in enumerate(source(env, frame)):
            frame[slot] = item
            key = body(env, frame)
            if best < 0 or key > top:
                best, top = k, key
        return best

    return code


COMPREHENSION_CODE: dict[str, Callable[[Code, Code, int], Code]] = {
    "all": _all,
    "any": _any,
    "count": _count,
    "filter": _filter,
    "map": _map,
    "sum": _sum,
    "first_index": _first_index,
    "best_index": _best_index,
}
