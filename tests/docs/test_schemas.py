"""The committed schemas (docs/schemas/) are what `referee schemas` makes from the shipped specs
and the `schemas.yaml` declarations, and what DescribeGame sends under `schemas`.

A spec or a declaration changed and the schemas were not regenerated: run `referee schemas` and
commit docs/schemas/.
"""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from referee.engine.game import Game
from referee.schemas.describe import describe_game

from .freshness import assert_fresh

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"


def test_the_committed_schemas_are_what_the_specs_give(tmp_path: Path) -> None:
    assert_fresh("schemas", SCHEMAS, "*.json", tmp_path)


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for path in SCHEMAS.glob("*.json"):
        document = json.loads(path.read_text(encoding="utf-8"))
        schemas = [*document["moves"].values(), document["view"], *document["events"].values()]
        for schema in schemas:
            Draft202012Validator.check_schema(schema)
            assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_move_of_the_spec_has_a_schema_and_its_typed_fields(games: dict[str, Game]) -> None:
    for name, game in games.items():
        described = describe_game(game)
        assert set(described["schemas"]["moves"]) == {m["type"] for m in described["moves"]}
        for move in described["moves"]:
            assert [f["name"] for f in move["typed_fields"]] == move["fields"], (name, move)


def test_the_docs_point_to_the_schemas() -> None:
    assert "docs/schemas/" in (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert "docs/schemas/" in (ROOT / "README.md").read_text(encoding="utf-8")


KEYWORDS = {
    "$schema",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "const",
    "enum",
    "anyOf",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "items",
    "pattern",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "x-codes",
    "x-secret",
}


def unknown_keywords(node: object, names: bool = False) -> list[str]:
    """Keys that are no keyword of the subset the referee writes (a YAML flow mapping's comma
    turns the end of a description into a key: `{description: a, b}`)."""
    if isinstance(node, list):
        return [k for item in node for k in unknown_keywords(item)]
    if not isinstance(node, dict):
        return []
    if names:  # the keys of `properties` and `$defs` are names
        return [k for value in node.values() for k in unknown_keywords(value)]
    return [
        *(k for k in node if k not in KEYWORDS),
        *(
            k
            for key, value in node.items()
            for k in unknown_keywords(value, names=key in ("properties", "$defs"))
        ),
    ]


def test_the_schemas_use_only_the_keywords_clients_know() -> None:
    for path in SCHEMAS.glob("*.json"):
        document = json.loads(path.read_text(encoding="utf-8"))
        schemas = [*document["moves"].values(), document["view"], *document["events"].values()]
        assert not [k for s in schemas for k in unknown_keywords(s)], path.name
