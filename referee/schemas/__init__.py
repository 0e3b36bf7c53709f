"""The typed contract of a game: a JSON Schema (draft 2020-12) for each move type, for the view
and for each event kind, so a client in any language can check and type what it sends and gets.

- moves: made from the spec's move declarations (`moves.py`), and the table's `contribute` and
  `dispute`;
- the view and the events: declared as data beside the engine and each mechanic
  (`schemas.yaml`, read by `declared.py`);
- a card is the `pattern` of the game's pack kind (referee/cards.py), with the annotation
  `x-codes`: the canonical codes of the game's pack (a client may type cards with them).
Every schema stands alone: it carries the `$defs` it refers to. DescribeGame sends them under
`schemas`; `referee schemas` writes them to docs/schemas/GAME.json.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Mapping
from typing import Any

from referee.cards import CODE_PATTERN, PackKind
from referee.engine.game import Game
from referee.engine.mechanic import Mechanic
from referee.model import JSON
from referee.schemas.declared import SECRET, Declared, declared, mechanic_package
from referee.schemas.moves import contribute_schema, dispute_schema, move_schema, typed_fields
from referee.spec.schema import GameSpec

DRAFT = "https://json-schema.org/draft/2020-12/schema"
ENGINE = "referee.engine"

__all__ = ["DRAFT", "SECRET", "game_schemas", "schemas_of", "typed_fields"]

_MADE: weakref.WeakKeyDictionary[Game, dict[str, JSON]] = weakref.WeakKeyDictionary()


def schemas_of(game: Game) -> dict[str, JSON]:
    """The game's typed contract, made once a game, on first use."""
    if game not in _MADE:
        _MADE[game] = game_schemas(game.spec, game.mechanic)
    return _MADE[game]


def game_schemas(spec: GameSpec, runs: Mechanic[Any]) -> dict[str, JSON]:
    """`{"moves": {type: schema}, "view": schema, "events": {kind: schema}}` for the game of
    `spec`, run by the mechanic `runs`."""
    engine, mechanic = declared(ENGINE), declared(mechanic_package(type(runs)))
    defs = {**engine.defs, **mechanic.defs, "card": card_schema(spec)}
    moves = {name: move_schema(move) for name, move in spec.moves.items()}
    moves["contribute"] = contribute_schema()
    moves["dispute"] = dispute_schema()
    return {
        "moves": {name: standalone(schema, defs) for name, schema in moves.items()},
        "view": standalone(view_schema(spec.name, engine, mechanic), defs),
        "events": {
            kind: standalone(schema, defs)
            for kind, schema in event_schemas(engine, mechanic).items()
        },
    }


def card_schema(spec: GameSpec) -> dict[str, JSON]:
    kind = PackKind(spec.pack_kind)
    codes = list(dict.fromkeys(str(card) for card in spec.pack()))
    return {
        "type": "string",
        "pattern": CODE_PATTERN[kind],
        "x-codes": codes,
        "description": f"a card code of the {kind.value} pack (docs/cards.md); `x-codes`: "
        "this game's cards",
    }


def view_schema(game: str, engine: Declared, mechanic: Declared) -> dict[str, JSON]:
    clash = sorted(set(engine.view) & set(mechanic.view))
    if clash:
        raise ValueError(f"view key `{clash[0]}` is declared by the engine and the mechanic")
    return {
        "title": f"{game} view",
        "description": engine.view_description,
        "type": "object",
        "properties": {**engine.view, **mechanic.view},
        "required": [*engine.view_required, *mechanic.view_required],
        "additionalProperties": False,
    }


def event_schemas(engine: Declared, mechanic: Declared) -> dict[str, dict[str, JSON]]:
    """Each event as a seat receives it: its `kind` and its fields (a secret one only when the
    seat is in the event's audience)."""
    schemas = {}
    for kind, (description, properties, required) in {**engine.events, **mechanic.events}.items():
        schemas[kind] = {
            "title": f"event `{kind}`",
            "description": description,
            "type": "object",
            "properties": {"kind": {"const": kind}, **properties},
            "required": ["kind", *required],
            "additionalProperties": False,
        }
    return schemas


def standalone(schema: Mapping[str, Any], defs: Mapping[str, JSON]) -> dict[str, JSON]:
    """`schema` with `$schema` and the definitions it refers to, at any depth."""
    used: dict[str, JSON] = {}
    pending = list(_refs(schema))
    while pending:
        name = pending.pop()
        if name in used:
            continue
        if name not in defs:
            raise ValueError(f"`#/$defs/{name}` is not defined")
        used[name] = copy.deepcopy(defs[name])
        pending.extend(_refs(defs[name]))
    result: dict[str, JSON] = {"$schema": DRAFT, **copy.deepcopy(dict(schema))}
    if used:
        result["$defs"] = {name: used[name] for name in sorted(used)}
    return result


def _refs(node: Any) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.append(ref.removeprefix("#/$defs/"))
        for value in node.values():
            found.extend(_refs(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(_refs(item))
    return found
