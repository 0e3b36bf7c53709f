"""The scenario examples of docs/scenarios.md (docs/examples/) run and pass, in-process."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_the_documented_examples_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.yaml")), "docs/examples/ holds no scenario"
    assert main(["conformance", str(EXAMPLES)]) == 0, capsys.readouterr().out
