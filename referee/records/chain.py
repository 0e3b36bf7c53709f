"""The hash chain of a record's steps: each step's `prev` is the sha256 of the step before it
(its canonical JSON, its own `prev` included), the first's that of the table's creation, what
the record says of it before any move (its setup, rules version and deal commitment; not what is
revealed later, nor the steps, the decks, the result or the signature). So a step changed,
dropped, added or moved breaks the chain at the step after it."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from referee.model import JSON
from referee.records.canonical import canonical

# what a record holds besides its creation: the moves and what they revealed, and the seal
NOT_CREATION = frozenset({"steps", "decks", "result", "secret", "salt", "signature"})


def creation_hash(record: Mapping[str, JSON]) -> str:
    return _hash({key: value for key, value in record.items() if key not in NOT_CREATION})


def step_hash(step: Mapping[str, JSON]) -> str:
    return _hash(step)


def chained(record: Mapping[str, JSON]) -> dict[str, Any]:
    """`record` with each step's `prev` set."""
    linked = dict(record)
    prev = creation_hash(record)
    steps = []
    for step in record.get("steps") or ():
        step = {**step, "prev": prev}
        steps.append(step)
        prev = step_hash(step)
    linked["steps"] = steps
    return linked


def first_break(record: Mapping[str, JSON]) -> int | None:
    """The index of the first step whose `prev` is not the hash before it; None: the chain holds."""
    prev = creation_hash(record)
    steps = record.get("steps") or []
    if not isinstance(steps, list):
        return 0
    for index, step in enumerate(steps):
        if not isinstance(step, Mapping) or step.get("prev") != prev:
            return index
        prev = step_hash(step)
    return None


def _hash(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()
