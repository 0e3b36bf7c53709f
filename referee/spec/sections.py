"""The shape of the sections a mechanic owns: every key a spec may write there.

A mechanic declares its sections' shapes (`Mechanic.section_shapes`); loading a spec walks each
one and refuses a key the shape does not have, at the key, with the nearest known key: a
misspelt `steal_bonsu:` or `kity:` is a spec error, not a setting silently ignored. The readers
of each mechanic then check the values themselves.

A shape is a mapping of key -> the shape of its value: `None` for a value its reader checks
(a number, an expression, a list), `TEXT` for a sentence (checked by `referee.spec.texts`),
another mapping for a nested one, and `{ANY: shape}` for one whose keys are names the spec
chooses (each verdict of `rummy.violations`, each kind of `meld_kinds`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from referee.errors import SpecError
from referee.spec.yamlsource import Located, PathKey

ANY = "*"
TEXT = "text"
Shape = None | str | Mapping[str, "Shape"]
# a verdict a mechanic gives of its own, worded by the spec
VERDICT: Mapping[str, Shape] = {"id": None, "source": None, "text": TEXT, "note": None}


def unknown_keys(
    located: Located, shapes: Mapping[str, Shape], data: Mapping[str, Any]
) -> list[SpecError]:
    """Every key of the spec's mechanic sections (`data`: the spec's top level) that their
    shapes do not have."""
    errors: list[SpecError] = []
    for section, shape in shapes.items():
        if section in data:
            errors += _walk(located, shape, data[section], (section,))
    return errors


def _walk(located: Located, shape: Shape, value: Any, path: PathKey) -> list[SpecError]:
    if not isinstance(shape, Mapping) or not isinstance(value, Mapping):
        return []  # a leaf, or a value of the wrong kind: its reader says what it expects
    if ANY in shape:
        return [
            e
            for key, item in value.items()
            for e in _walk(located, shape[ANY], item, path + (str(key),))
        ]
    errors = []
    for key, item in value.items():
        if key in shape:
            errors += _walk(located, shape[key], item, path + (key,))
        else:
            errors.append(
                located.error(path + (key,), unknown_key(str(key), shape, path), at_key=True)
            )
    return errors


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The known name `name` was most likely meant to be (a typo's), if any is close."""
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return close[0] if close else None


def unknown_key(key: str, known: Mapping[str, Any] | list[str], path: PathKey) -> str:
    """`unknown key `kity` in `banking`: did you mean `kitty`?` (or the keys it may have)."""
    where = ".".join(map(str, path))
    meant = nearest(key, known)
    if meant is not None:
        return f"unknown key `{key}` in `{where}`: did you mean `{meant}`?"
    return f"unknown key `{key}` in `{where}`: expected one of " + ", ".join(
        f"`{n}`" for n in sorted(known)
    )
