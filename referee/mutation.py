"""Which rules the scenarios pin (mutation testing of the specs).

Each rule of each spec is disabled in turn (its `require` made `true`) and the project's
scenarios for its game, and for every game whose spec extends that one, are run against the
mutant. A mutant some scenario notices is caught: the rule is pinned. One no scenario notices
survives: the rule is untested, or dead (something else enforces it, so it can never fire).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from referee.engine.game import Game
from referee.plugins.games import load_games
from referee.scenario.format import Scenario, load_file
from referee.scenario.runner import run_scenario, scenario_files
from referee.scenario.target import InProcessTarget
from referee.spec.proofs_file import spec_files
from referee.spec.yamlsource import load_yaml


@dataclass(frozen=True)
class Mutant:
    spec: str  # the spec file the rule is written in
    rule: str
    games: tuple[str, ...]  # the games it changes: the spec's and those extending it
    caught_by: str | None  # the first scenario that failed; None: it survived

    @property
    def survived(self) -> bool:
        return self.caught_by is None


def mutants(specs: Path, scenario_paths: Iterable[str | Path]) -> Iterator[Mutant]:
    """Every rule of every spec in `specs`, disabled, against the scenarios that play its games
    (those that pass on the specs as they are: a scenario failing already tells nothing)."""
    games = load_games(specs)
    passing = _passing(games, [load_file(path) for path in scenario_files(scenario_paths)])
    for spec_file in spec_files(specs):
        users = tuple(
            sorted(name for name, game in games.items() if spec_file.name in _files(game))
        )
        played = [s for s in passing if s.setup.game in users]
        for rule in _own_rules(spec_file):
            yield Mutant(
                spec_file.name, rule, users, _first_failing(specs, spec_file, rule, played)
            )


def _files(game: Game) -> set[str]:
    """The names of the spec files a game is read from: its own and those it extends."""
    located = game.spec.located
    return {Path(located.file).name, *(Path(f).name for f in located.files.values())}


def _own_rules(spec_file: Path) -> list[str]:
    data = load_yaml(spec_file).data or {}
    return [
        str(rule["id"])
        for rule in data.get("rules") or []
        if isinstance(rule, Mapping) and "require" in rule and "id" in rule
    ]


def _passing(games: Mapping[str, Game], scenarios: list[Scenario]) -> list[Scenario]:
    target = InProcessTarget(games)
    return [
        s for s in scenarios if s.setup.game in games and run_scenario(s, target).status == "passed"
    ]


def _first_failing(
    specs: Path, spec_file: Path, rule: str, scenarios: list[Scenario]
) -> str | None:
    with tempfile.TemporaryDirectory() as folder:
        mutant_specs = Path(folder)
        for other in specs.glob("*.yaml"):  # the proofs files too: a spec finds its own
            shutil.copy(other, mutant_specs / other.name)
        disable_rule(mutant_specs / spec_file.name, rule)
        target = InProcessTarget(load_games(mutant_specs))
        for scenario in scenarios:
            try:
                if run_scenario(scenario, target).status != "passed":
                    return scenario.source
            except Exception as error:  # noqa: BLE001 - the mechanic relied on the rule: caught too
                return f"{scenario.source} (the engine failed: {type(error).__name__}: {error})"
    return None


def disable_rule(path: Path, rule: str) -> None:
    """The rule's `require` made `true` (comments and layout are lost: the copy is thrown away).
    Read as specs are (`on:` a key, not YAML 1.1's boolean); written with every such key quoted."""
    data: Any = load_yaml(path).data
    for body in data["rules"]:
        if isinstance(body, dict) and body.get("id") == rule:
            body["require"] = "true"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
