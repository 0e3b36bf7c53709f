"""Re-adjudication agrees with itself: every conformance scenario, read as a record and judged
again under the same specs, is unchanged, every move judged alike (the two sides share a salt,
so even their deck commitments agree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.adjudication.readjudication import Change, readjudicate
from referee.engine.game import Game
from referee.scenario.format import load_file

SCENARIOS = sorted((Path(__file__).parents[1] / "conformance").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_record_judged_again_under_the_same_specs_is_unchanged(
    path: Path, games: dict[str, Game]
) -> None:
    judged = readjudicate(games, games, load_file(str(path)))
    assert judged.change is Change.UNCHANGED and judged.difference is None
    assert judged.before == judged.after
