"""A mechanic keeps its state whole whatever a spec's rules say: a spec that leaves out the rule
guarding a move gets a GEN-8 rejection for it, never a crash (an INTERNAL at the server). Each
case was found by `referee mutants`: with the rule disabled, the engine raised."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.mutation import disable_rule
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.scenario.runner import run_file
from referee.scenario.target import InProcessTarget

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"


@pytest.mark.parametrize(
    ("spec", "rule", "scenario"),
    [
        ("tarocchi_piedicavallo", "GEN-8-play", "tarocchi_piedicavallo/gen7-out-of-turn.yaml"),
        ("pontinho", "PN-29", "pontinho/pn28-reentry-none.yaml"),
        ("pontoon", "PO-9-accept", "pontoon/po9-sell-the-bank.yaml"),
    ],
)
def test_a_move_its_rule_no_longer_guards_is_refused_not_a_crash(
    tmp_path: Path, spec: str, rule: str, scenario: str
) -> None:
    for spec_file in DEFAULT_SPECS.glob("*.yaml"):
        shutil.copy(spec_file, tmp_path / spec_file.name)
    disable_rule(tmp_path / f"{spec}.yaml", rule)
    report = run_file(CONFORMANCE / scenario, InProcessTarget(load_games(tmp_path)))
    # the scenario notices the missing rule (it expected that rule id), as a failed step, not
    # an error: where the state could not take the move, the engine said GEN-8 itself
    assert report.status == "failed" and not any(f.error for f in report.failures)
    assert any("got rejected: GEN-8: " in f.message for f in report.failures), report.failures
