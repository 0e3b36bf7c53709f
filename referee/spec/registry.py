"""Loading specs into games: YAML (with `extends`) → schema → the mechanic that runs it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Mapping

from referee.errors import NotFound, SpecError, SpecErrors
from referee.mechanics.base import Mechanic
from referee.model import JSON
from referee.spec.options import resolve_options
from referee.spec.schema import GameSpec, read_spec
from referee.spec.yamlsource import Located, load_yaml

DEFAULT_SPECS = Path(__file__).resolve().parents[2] / "specs"


def mechanics() -> dict[str, type[Mechanic]]:
    from referee.mechanics.rummy import RummyMechanic  # imported late: mechanics import the spec layer
    return {RummyMechanic.name: RummyMechanic}


class Game:
    """A compiled spec: its rules, options and mechanic, ready to run tables."""

    def __init__(self, spec: GameSpec, mechanic: Mechanic) -> None:
        self.spec = spec
        self.mechanic = mechanic
        self.name = spec.name

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(self.spec.options, given)

    def describe(self) -> dict[str, JSON]:
        spec = self.spec
        return {
            "name": spec.name, "title": dict(spec.title), "source": list(spec.source),
            "mechanics": spec.mechanics, "seats": {"min": spec.seats_min, "max": spec.seats_max},
            "pack": {"kind": spec.pack_kind, "copies": spec.pack_copies},
            "options": [o.describe() for o in spec.options.values()],
            "moves": [{"type": m.type, "fields": [f.name for f in m.fields], "text": dict(m.text)}
                      for m in spec.moves.values()],
            "rules": [{"id": r.id, "source": list(r.source), "on": list(r.on), "text": dict(r.text),
                       "note": r.note} for r in spec.rules],
            **self.mechanic.describe(),
        }


def load_game(path: str | Path, specs_dir: str | Path | None = None) -> Game:
    """Load and compile one spec file; raises SpecErrors listing every problem found."""
    located = _load_with_parents(Path(path), Path(specs_dir) if specs_dir else Path(path).parent)
    data = located.data if isinstance(located.data, dict) else {}
    kinds = mechanics()
    mechanic_class = kinds.get(str(data.get("mechanics")))
    if mechanic_class is None:
        known = ", ".join(f"`{k}`" for k in kinds)
        raise SpecErrors([located.error(("mechanics",), f"unknown mechanics "
                                        f"`{data.get('mechanics')}`: expected one of {known}")])
    spec, errors = read_spec(located, set(mechanic_class.sections))
    if spec is None:
        raise SpecErrors(errors)
    try:  # compile what could be read, so expression errors are reported with schema errors
        mechanic = mechanic_class(spec)
    except SpecErrors as exc:
        errors += exc.errors
    if errors:
        raise SpecErrors(errors)
    return Game(spec, mechanic)


def load_games(specs_dir: str | Path = DEFAULT_SPECS) -> dict[str, Game]:
    games = {}
    for path in sorted(Path(specs_dir).glob("*.yaml")):
        game = load_game(path, specs_dir)
        games[game.name] = game
    return games


def find_game(games: Mapping[str, Game], name: str) -> Game:
    if name not in games:
        known = ", ".join(f"`{g}`" for g in sorted(games))
        raise NotFound(f"unknown game `{name}`: this referee knows {known}")
    return games[name]


def _load_with_parents(path: Path, specs_dir: Path, seen: tuple[Path, ...] = ()) -> Located:
    """A spec with `extends: parent` is the parent's data overridden by its own (see `merge`)."""
    located = load_yaml(path)
    parent_name = located.data.get("extends") if isinstance(located.data, dict) else None
    if parent_name is None:
        return located
    parent_path = specs_dir / f"{parent_name}.yaml"
    if parent_path in seen or not parent_path.exists():
        problem = "extends itself" if parent_path in seen else "is not a spec in " + str(specs_dir)
        raise SpecErrors([located.error(("extends",), f"`{parent_name}` {problem}")])
    parent = _load_with_parents(parent_path, specs_dir, seen + (path,))
    located.data = merge(parent.data, located.data)
    return located


def merge(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Child over parent: mappings merge key by key; `rules` and `definitions` merge by id/name
    (a child entry replaces the parent's, new ones are appended); other lists are replaced."""
    result = copy.deepcopy(dict(parent))
    for key, value in child.items():
        if key == "extends":
            continue
        if key in ("rules", "definitions") and isinstance(value, list):
            result[key] = _merge_named(result.get(key, []), value, "id" if key == "rules" else "name")
        elif isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def _merge_named(parent: list[Any], child: list[Any], key: str) -> list[Any]:
    def name_of(item: Any) -> Any:
        raw = item.get(key) if isinstance(item, dict) else None
        return str(raw).split("(")[0].strip() if raw is not None else None
    merged = list(parent)
    index = {name_of(item): i for i, item in enumerate(merged)}
    for item in child:
        if isinstance(item, dict) and item.get("remove"):
            merged = [m for m in merged if name_of(m) != name_of(item)]
            index = {name_of(m): i for i, m in enumerate(merged)}
        elif name_of(item) in index:
            merged[index[name_of(item)]] = item
        else:
            index[name_of(item)] = len(merged)
            merged.append(item)
    return merged


__all__ = ["Game", "load_game", "load_games", "find_game", "merge", "SpecError"]
