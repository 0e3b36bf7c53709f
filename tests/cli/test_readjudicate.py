"""`referee readjudicate`: archived records judged again under other specs (a house rule, a
corrected rule): per record, whether the outcome changes and the first move judged otherwise,
with both verdicts, and a summary line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.cli import main
from referee.plugins.games import default_specs

DEAL = {
    "hands": {
        1: ["AC", "2C", "3C", "QH", "KH", "AH", "KD", "AD", "2D"],
        2: ["4S", "5S", "7S", "6S", "4H", "5D", "6C", "TH", "JH"],
        0: ["4C", "5C", "5C", "6C", "8H", "8D", "JS", "QS", "3H"],
    },
    "turned": "9D",
    "stock": ["5S", "2H", "KS", "7H"],
}
MOVES: list[tuple[int, dict[str, Any]]] = [
    (1, {"type": "draw"}),
    (1, {"type": "meld", "cards": ["AC", "2C", "3C"]}),
    (1, {"type": "discard", "card": "5S"}),
    (2, {"type": "draw"}),
    (2, {"type": "meld", "cards": ["4S", "5S", "6S", "7S"]}),
    (2, {"type": "discard", "card": "2H"}),
]
SIZE_RULE = "require: size(cards) >= 3"


def record(path: Path, moves: list[tuple[int, dict[str, Any]]]) -> Path:
    steps = [{"seat": seat, "move": move} for seat, move in moves]
    data = {"format": 1, "game": "pontinho", "seats": 3, "dealer": 0, "deal": DEAL, "steps": steps}
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def house_rule(tmp_path: Path, smallest_meld: int) -> Path:
    """The shipped specs, but a meld needs `smallest_meld` cards."""
    specs = tmp_path / f"melds-of-{smallest_meld}"
    shutil.copytree(default_specs(), specs)
    pontinho = specs / "pontinho.yaml"
    text = pontinho.read_text()
    assert text.count(SIZE_RULE) == 1
    pontinho.write_text(text.replace(SIZE_RULE, f"require: size(cards) >= {smallest_meld}"))
    return specs


def test_a_house_rule_leaves_one_record_unchanged_and_makes_another_illegal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fours_only = [(seat, move) for seat, move in MOVES if move.get("cards") != ["AC", "2C", "3C"]]
    kept = record(tmp_path / "kept.yaml", fours_only)
    broken = record(tmp_path / "broken.yaml", MOVES)
    status = main(["readjudicate", str(kept), str(broken), "--specs", str(house_rule(tmp_path, 4))])
    said = capsys.readouterr().out.splitlines()
    assert status == 1
    assert said[0] == f"{kept}: unchanged: legal, 5 moves"
    assert said[1] == f"{broken}: no longer legal: legal, 6 moves -> illegal at step 2"
    assert said[2].startswith(f"  first judged differently: {broken}:")  # its line, then
    assert said[2].endswith(": step 2 (seat 1 `meld`)")
    assert said[3] == "    before: accepted (melded)"
    assert said[4].startswith("    after:  rejected: PN-13-size")
    assert said[-1] == "2 records: 1 unchanged, 0 changed, 1 no longer legal"


def test_a_record_illegal_before_and_legal_after_has_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pair = record(
        tmp_path / "pair.yaml",
        [(1, {"type": "draw"}), (1, {"type": "meld", "cards": ["AC", "2C"]})],
    )
    status = main(["readjudicate", str(pair), "--specs", str(house_rule(tmp_path, 2)), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert status == 1 and answer["change"] == "changed"
    assert (answer["before"]["legal"], answer["after"]["legal"]) == (False, True)
    difference = answer["difference"]
    assert difference["step"] == 1 and difference["move"]["cards"] == ["AC", "2C"]
    assert difference["before"]["outcome"] == "rejected"
    assert difference["after"]["outcome"] == "accepted"


def test_the_same_specs_change_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = record(tmp_path / "kept.yaml", MOVES)
    assert main(["readjudicate", str(kept), "--specs", str(default_specs())]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said == [
        f"{kept}: unchanged: legal, 6 moves",
        "1 records: 1 unchanged, 0 changed, 0 no longer legal",
    ]


def test_a_record_that_cannot_be_read_is_told_and_the_others_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = record(tmp_path / "kept.yaml", MOVES)
    garbage = tmp_path / "garbage.yaml"
    garbage.write_text("game: [")
    assert main(["readjudicate", str(garbage), str(kept), "--specs", str(default_specs())]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"{garbage}: cannot be judged: ")
    assert out.splitlines()[-1] == (
        "1 records: 1 unchanged, 0 changed, 0 no longer legal; 1 could not be judged"
    )
