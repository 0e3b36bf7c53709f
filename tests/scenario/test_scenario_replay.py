"""Adjudicate / `referee replay`: a record's first illegal move, or its confirmed result."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.adjudication.replay import adjudicate, adjudicate_yaml
from referee.cli import main
from referee.engine.game import Game
from referee.scenario.format import ScenarioError

DEAL = {
    "hands": {
        1: ["5C", "6C", "7C", "8C", "KH", "KS", "2D", "3D", "JH"],
        2: ["4S", "4H", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
        0: ["2S", "3S", "5H", "6H", "JD", "JS", "KC", "AD", "7S"],
    },
    "turned": "9D",
    "stock": ["4C", "TH", "5S"],
}
LEGAL: dict[str, Any] = {
    "format": 1,
    "game": "pontinho",
    "seats": 3,
    "dealer": 0,
    "deal": DEAL,
    "steps": [
        {"seat": 1, "move": {"type": "draw"}},
        {"seat": 1, "move": {"type": "meld", "cards": ["4C", "5C", "6C"]}},
        {"seat": 1, "move": {"type": "discard", "card": "JH"}},
        {"check": {"to_act": 0}},
    ],
}  # wrong, but ignored in a record
ILLEGAL = {
    **LEGAL,
    "steps": [
        *LEGAL["steps"],
        {"seat": 2, "move": {"type": "draw"}},
        {"seat": 2, "move": {"type": "meld", "cards": ["QD", "QC"]}},
    ],
}


def test_a_legal_record_is_confirmed_with_its_final_state(games: dict[str, Game]) -> None:
    answer = adjudicate(games, LEGAL)
    assert answer["legal"] is True and answer["moves"] == 3
    result = answer["result"]
    assert result["to_act"] == 2 and result["discard_top"] == "JH"
    assert result["melds"][0]["cards"] == ["4C", "5C", "6C"]


def test_an_illegal_record_names_the_first_illegal_move(games: dict[str, Game]) -> None:
    answer = adjudicate(games, {**ILLEGAL, "steps": [*ILLEGAL["steps"], *ILLEGAL["steps"]]})
    assert answer["legal"] is False
    assert (answer["step"], answer["seat"], answer["moves"]) == (5, 2, 4)
    assert answer["move"] == {"type": "meld", "cards": ["QD", "QC"]}
    assert "PN-13" in {i for v in answer["violations"] for i in [v["rule"], *v["cites"]]}


def test_numbers_as_a_struct_carries_them_are_read_as_integers(games: dict[str, Game]) -> None:
    record = {
        **ILLEGAL,
        "format": 1.0,
        "seats": 3.0,
        "dealer": 0.0,
        "steps": [{**s, "seat": float(s["seat"])} if "seat" in s else s for s in ILLEGAL["steps"]],
    }
    assert adjudicate(games, record) == adjudicate(games, ILLEGAL)


def test_a_yaml_record_and_a_data_record_agree(games: dict[str, Game]) -> None:
    import yaml

    assert adjudicate_yaml(games, yaml.safe_dump(ILLEGAL)) == adjudicate(games, ILLEGAL)


def test_a_record_that_cannot_be_set_up(games: dict[str, Game]) -> None:
    bad = {**LEGAL, "deal": {**DEAL, "stock": ["5C", "5C"]}}
    with pytest.raises(ScenarioError, match=r"^<record>: the table cannot be set up: .*5C"):
        adjudicate(games, bad)


@pytest.mark.parametrize(
    "record, message",
    [
        ({**LEGAL, "format": 3}, "unsupported format `3`"),
        ({**LEGAL, "game": None}, "missing `game`"),
        ({**LEGAL, "steps": [{"seat": 1}]}, "step 1: a step has exactly one of"),
    ],
)
def test_an_unreadable_record(games: dict[str, Game], record: Any, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        adjudicate(games, record)


# --- the commands -----------------------------------------------------------------------------


def write(tmp_path: Path, record: dict[str, Any], name: str = "game.yaml") -> str:
    import yaml

    path = tmp_path / name
    path.write_text(yaml.safe_dump(record))
    return str(path)


def test_replay_a_legal_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, LEGAL)
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: legal: 3 moves accepted\n") and "to_act: 2" in out


def test_replay_an_illegal_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ILLEGAL)
    assert main(["replay", path]) == 1
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert re.fullmatch(
        rf"{re.escape(path)}:\d+: step 6 \(seat 2 `meld`\): illegal move after 4 "
        r"accepted",
        first,
    ), first


def test_replay_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["replay", "--json", write(tmp_path, ILLEGAL)]) == 1
    assert json.loads(capsys.readouterr().out)["step"] == 5


def test_replay_an_unreadable_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, {**LEGAL, "format": 2})
    assert main(["replay", path]) == 2
    assert f"{path}: unsupported format `2`" in capsys.readouterr().err


def test_conformance_reports_failures_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {**LEGAL, "steps": [{"seat": 1, "move": {"type": "draw"}, "expect": "accept"}]}
    bad = {**LEGAL, "steps": [{"seat": 2, "move": {"type": "draw"}, "expect": "accept"}]}
    write(tmp_path, good, "good.yaml")
    bad_path = write(tmp_path, bad, "bad.yaml")
    assert main(["conformance", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"FAIL {bad_path}"
    assert (
        out[1].startswith(f"  {bad_path}:")
        and "step 1 (seat 2 `draw`): expected accept, got rejected: GEN-7: it is not your turn"
        in out[1]
    )
    assert out[-1] == "1 passed, 1 failed"


def test_conformance_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, {**LEGAL, "steps": LEGAL["steps"][:3]})
    assert main(["conformance", "-v", path]) == 0
    assert capsys.readouterr().out == f"ok   {path}\n1 passed, 0 failed\n"


def test_conformance_without_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", str(tmp_path)]) == 2
    assert "no scenario files" in capsys.readouterr().err
