"""A spec's moves are named by the spec: `moves: {hit: {does: twist}}` makes the mechanic's
`twist` under the name `hit`, which is what clients send and what verdicts, `legal` and records
show; a `does:` naming no handler, or a renamed move leaving out a field its handler reads, is a
spec error at the move. Shown on the banking example spec twenty_one, renamed."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.table import Table, TableSetup
from referee.errors import SpecErrors
from referee.model import Move, Outcome
from referee.plugins.games import load_game
from tests.support.examples import TWENTY_ONE

RENAMED = {
    "  twist:\n  stick:\n": "  hit: {does: twist}\n  stand: {does: stick}\n",
    "[bet, twist, stick]": "[bet, hit, stand]",
    "[twist, stick]": "[hit, stand]",
    "on: [twist]": "on: [hit]",
    "on: [stick]": "on: [stand]",
    '["stick"]': '["stand"]',
    '["twist"]': '["hit"]',
}


def renamed(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    text = TWENTY_ONE.read_text()
    for old, new in {**RENAMED, **(extra or {})}.items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "twenty_one.yaml"
    path.write_text(text)
    return path


def test_a_renamed_move_is_played_verdicted_and_listed_by_its_spec_name(tmp_path: Path) -> None:
    game = load_game(renamed(tmp_path))
    table = Table.create(game, TableSetup(game="twenty_one", seats=2, seed=3))
    assert table.propose(1, Move("bet", {"amount": 5})).outcome is Outcome.ACCEPTED
    old_name = table.propose(1, Move("twist"))
    assert old_name.outcome is Outcome.REJECTED
    assert "hit" in old_name.violations[0].message  # the spec's names are the known ones
    legal = table.legal(1)
    assert "hit" in legal and "twist" not in legal
    hit = table.propose(1, Move("hit"))
    assert hit.outcome is Outcome.ACCEPTED
    assert any(event.kind == "card" for event in hit.events)
    assert table.history[-1][1].type == "hit"


def test_a_does_naming_no_handler_is_a_spec_error_at_the_move(tmp_path: Path) -> None:
    path = renamed(tmp_path, {"hit: {does: twist}": "hit: {does: twsit}"})
    with pytest.raises(SpecErrors) as raised:
        load_game(path)
    message = str(raised.value)
    assert "twsit" in message and "twist" in message  # the nearest handler is suggested


def test_a_renamed_move_needs_the_fields_its_handler_reads(tmp_path: Path) -> None:
    path = renamed(
        tmp_path,
        {
            "  bet:\n    fields: {amount: int}\n": "  wager: {does: bet}\n",
            "on: [bet, hit, stand]": "on: [wager, hit, stand]",
            "on: [bet]\n    require: phase": "on: [wager]\n    require: phase",
        },
    )
    with pytest.raises(SpecErrors) as raised:
        load_game(path)
    assert "move `bet` reads the field `amount`" in str(raised.value)
