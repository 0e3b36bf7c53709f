"""`referee explain`: a step of a game record explained offline, rule by rule, with the values
each rule read; by default the record's first illegal move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests/conformance/pontinho/example-layoff-on-sequence.yaml"  # step 4 is illegal


def explained(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["explain", str(RECORD), *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_first_illegal_move_is_explained_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = explained(capsys)
    lines = out.splitlines()
    assert status == 1
    assert lines[:2] == [
        f"{RECORD}: step 4",
        "seat 1 proposed to lay a meld at version 3: rejected",
    ]
    assert (
        "  PN-13-size broken: a meld has at least three cards (it read cards: K\u2665, K\u2660; new: yes)"
        in lines
    )
    assert (
        "  GEN-7 held (its sentence: \u201cit is not your turn\u201d) (it read in turn: yes)"
        in lines
    )


def test_any_step_is_explained_in_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = explained(capsys, "--step", "2", "--language", "pt")
    assert status == 0
    assert "o lugar 1 propôs baixar um jogo na versão 1: aceita" in out
    assert "  PN-13 cumprida (a sua frase: \u201ca sequência é de cartas seguidas" in out
    assert "(leu cards: 4\u2663, 5\u2663, 6\u2663; new: sim;" in out


def test_the_json_answer_holds_each_rule_s_outcome_and_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = explained(capsys, "--step", "4", "--json")
    answer: dict[str, Any] = json.loads(out)
    assert status == 1 and answer["step"] == 4 and answer["judged_at"] == 3
    cited = {v["rule"] for v in answer["verdict"]["violations"]}
    broken = {
        r["rule"]
        for j in answer["judged"]
        if j["role"] != "tried"
        for r in j["rules"]
        if r["outcome"] == "broken"
    }
    assert broken == cited == {"PN-13-size", "PN-12"}
    trio = next(j for j in answer["judged"] if j["checkpoint"] == "trio")
    assert trio["rules"][0] == {
        "rule": "PN-13-size",
        "outcome": "broken",
        "reads": {"cards": ["KH", "KS"], "new": True},
    }


@pytest.mark.parametrize("step", ["5", "99", "0"])
def test_a_step_that_is_no_move_is_a_clear_answer(
    capsys: pytest.CaptureFixture[str], step: str
) -> None:
    status, out, err = explained(capsys, "--step", step)
    assert status == 2 and out == ""
    assert f"step {step} is no move: the moves are steps 1, 2, 3, 4, 6, 7, 8, 9" in err
