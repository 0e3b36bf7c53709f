"""`python -m referee.bench.engine`: each workload's verdicts a second in process, best of its
rounds, one line a workload (the figures themselves are not asserted: timings are not tested)."""

from __future__ import annotations

import re

import pytest

from referee.bench.engine import main


def test_it_prints_the_best_rate_of_each_workload_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--game", "tarocchi_piedicavallo", "--rounds", "2", "--seconds", "0.01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    assert re.fullmatch(
        r"tarocchi_piedicavallo: [\d,]+ verdicts/s, best of 2 \(.+, \d+ proposals\)", lines[0]
    ), lines
