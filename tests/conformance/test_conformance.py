"""Every conformance scenario under this folder, in-process and through a real gRPC server.

Each scenario file is one test id (`pontinho/pn12-trio.yaml`); a failure lists every step that
did not get the expected answer, with its file, line and step, as `referee conformance` does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.scenario.format import CloseWindowStep, ScenarioError, load_file
from referee.scenario.runner import Report, run_file, scenario_files
from referee.scenario.target import InProcessTarget, Target

HERE = Path(__file__).parent

# Scenarios that show a suspected engine bug (RULES.md is the authority): expected to fail until
# the engine is fixed; `xfail_strict` turns the fix into a reminder to remove the entry.
KNOWN_ENGINE_BUGS: dict[str, str] = {
    # "pontinho/pn16-one-take-when-going-out.yaml": "PN-16: a second take in a go_out",
}

# `{deadline: true}` (`close_window`) moves the virtual clock of an in-process table; over gRPC
# the server's own clock closes windows and ends turns, so those scenarios run in-process only.
REMOTE_CLOCK = (
    "a remote server's clock cannot be moved from outside: its deadlines are covered by "
    "tests/server/test_claim_deadline.py and tests/server/test_server_clock.py"
)


def moves_the_clock(path: Path) -> bool:
    """Does the scenario have a `{deadline: true}` step? (A broken file: no, let it fail.)"""
    try:
        scenario = load_file(path)
    except ScenarioError:
        return False
    return any(isinstance(step, CloseWindowStep) for step in scenario.steps)


def scenario_params(*, remote: bool = False) -> list[pytest.ParameterSet]:
    params = []
    for path in scenario_files([HERE]):
        name = path.relative_to(HERE).as_posix()
        bug = KNOWN_ENGINE_BUGS.get(name)
        marks = [pytest.mark.xfail(reason=f"engine bug: {bug}", strict=True)] if bug else []
        if remote and moves_the_clock(path):
            marks = [pytest.mark.skip(reason=REMOTE_CLOCK)]
        params.append(pytest.param(path, id=name, marks=marks))
    return params


SCENARIOS = scenario_params()
REMOTE_SCENARIOS = scenario_params(remote=True)


@pytest.fixture(scope="module")
def in_process(games: dict[str, Game]) -> Target:
    return InProcessTarget(games)


def assert_passed(report: Report) -> None:
    assert report.passed, "\n".join(str(f) for f in report.failures)


def test_every_scenario_file_runs_and_every_game_has_its_own(games: dict[str, Game]) -> None:
    """No file is left out of the runs, and no game is left without scenarios."""
    collected = [param.values[0] for param in SCENARIOS]
    assert collected == sorted(HERE.rglob("*.yaml"))
    per_game = {name: len(list((HERE / name).glob("*.yaml"))) for name in games}
    assert min(per_game.values()) >= 5, per_game  # today 9 to 73 a game


@pytest.mark.parametrize("path", SCENARIOS)
def test_in_process(path: Path, in_process: Target) -> None:
    assert_passed(run_file(path, in_process))


@pytest.mark.parametrize("path", REMOTE_SCENARIOS)
def test_over_grpc(path: Path, over_grpc: Target) -> None:
    assert_passed(run_file(path, over_grpc))
