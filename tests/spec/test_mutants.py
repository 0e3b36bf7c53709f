"""`referee mutants`: a rule the scenarios pin is caught when disabled; one they leave unpinned
survives, and is named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.mutation import mutants
from tests.support import examples

WHIST = examples.WHIST
# seat 0 plays out of turn (seat 1, after the dealer, leads): GEN-7 is the rule that says no
SCENARIO = """\
format: 1
scenario: whist/out-of-turn
game: whist
seats: 4
seed: 3
steps:
  - {seat: 0, move: {type: play, card: AS}, expect: reject, rule: GEN-7}
"""


def test_a_pinned_rule_is_caught_and_the_others_survive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    specs, scenarios = tmp_path / "specs", tmp_path / "scenarios"
    specs.mkdir()
    scenarios.mkdir()
    shutil.copy(WHIST, specs / "whist.yaml")
    (scenarios / "out-of-turn.yaml").write_text(SCENARIO, encoding="utf-8")

    found = {m.rule: m for m in mutants(specs, [scenarios])}
    assert sorted(found) == ["GEN-7", "GEN-8", "WH-1"]
    assert found["GEN-7"].caught_by == str(scenarios / "out-of-turn.yaml")
    assert found["GEN-8"].survived and found["WH-1"].survived
    assert found["WH-1"].games == ("whist",)

    assert main(["mutants", str(scenarios), "--specs", str(specs)]) == 1  # a rule survives
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "1 of 3 rules pinned by the scenarios (33.3%)"
    assert "survived whist.yaml WH-1: no scenario of whist fails without it" in printed
