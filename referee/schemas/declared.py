"""The view and event schemas declared as data: `schemas.yaml` beside the engine and each mechanic.

Each file is JSON Schema (draft 2020-12) in YAML with three shorthands, expanded here (the
engine's file says how): `optional: true`, `secret: true` (the annotation `x-secret`) and
`per_seat:` / `per_team:`. A game's view is the engine's properties and its mechanic's; its
events are the engine's kinds and its mechanic's. Nothing here knows a game or a mechanic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

import yaml

from referee.model import JSON

SECRET = "x-secret"  # the annotation: a field only the event's audience sees
SEAT_KEY = {"type": "string", "pattern": "^[0-9]+$"}  # seats and teams are decimal keys
_KEYED = {"per_seat": "seat", "per_team": "team"}
_FLAGS = ("optional", "secret")


@dataclass(frozen=True)
class Declared:
    """What one `schemas.yaml` declares, expanded: shared definitions, view properties (with
    the required ones), events (kind -> (description, properties, required))."""

    defs: Mapping[str, JSON]
    view_description: str
    view: Mapping[str, JSON]
    view_required: tuple[str, ...]
    events: Mapping[str, tuple[str, Mapping[str, JSON], tuple[str, ...]]]


@cache
def declared(package: str) -> Declared:
    """The `schemas.yaml` of a package (`referee.engine`, `referee.mechanics.tricks`)."""
    raw = yaml.safe_load(files(package).joinpath("schemas.yaml").read_text(encoding="utf-8"))
    where = f"{package.replace('.', '/')}/schemas.yaml"
    view = raw.get("view") or {}
    view_properties, view_required = _properties(view.get("properties") or {}, f"{where}: view")
    events = {}
    for kind, body in (raw.get("events") or {}).items():
        properties, required = _properties(body.get("properties") or {}, f"{where}: event `{kind}`")
        events[kind] = (str(body.get("description", "")), properties, required)
    defs = {
        name: expand(body, f"{where}: $defs.{name}")
        for name, body in (raw.get("$defs") or {}).items()
    }
    return Declared(defs, str(view.get("description", "")), view_properties, view_required, events)


def mechanic_package(mechanic: type) -> str:
    """A mechanic's `schemas.yaml` lies in the package of the module that defines it."""
    return mechanic.__module__.rpartition(".")[0]


def _properties(raw: Mapping[str, Any], where: str) -> tuple[dict[str, JSON], tuple[str, ...]]:
    """An object's properties, expanded, and the names of those it requires: every one but the
    `optional` and the `secret` ones."""
    properties, required = {}, []
    for name, body in raw.items():
        body = dict(body)
        optional = bool(body.pop("optional", False))
        if body.pop("secret", False):
            body[SECRET] = True
            optional = True
        properties[name] = expand(body, f"{where}: `{name}`")
        if not optional:
            required.append(name)
    return properties, tuple(required)


def expand(node: Any, where: str) -> Any:
    """`per_seat:` / `per_team:` made plain JSON Schema; a flag outside an object's properties
    is a mistake in the file."""
    if isinstance(node, list):
        return [expand(item, where) for item in node]
    if not isinstance(node, dict):
        return node
    flags = [flag for flag in _FLAGS if flag in node]
    if flags:
        raise ValueError(f"{where}: `{flags[0]}` marks a property of a view or an event only")
    keyed = [key for key in _KEYED if key in node]
    result = {key: expand(value, where) for key, value in node.items() if key not in _KEYED}
    if keyed:
        key = keyed[0]
        result = {
            "type": "object",
            "propertyNames": dict(SEAT_KEY),
            "additionalProperties": expand(node[key], where),
            "description": node.get("description", f"by {_KEYED[key]} number"),
        }
    return result
