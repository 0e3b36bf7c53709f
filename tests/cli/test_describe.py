"""`referee describe GAME --context CHECKPOINT`: each name a rule there may read, its type and
meaning, exactly the names of the checkpoint's scope and the spec's definitions meant for it."""

from __future__ import annotations

import re

import pytest

from referee.cli import main
from referee.spec.describe import describe, programs_of
from tests.support.games import shipped_games

GAMES = shipped_games()


def columns(out: str) -> dict[str, list[str]]:
    """name -> [type, meaning]: the columns are two spaces apart or more."""
    rows = [re.split(r"\s{2,}", line, maxsplit=2) for line in out.splitlines()]
    return {row[0]: row[1:] for row in rows}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_describe_lists_every_name_of_the_context_with_its_type(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "describe", "tarocchi_piedicavallo", "--context", "play")
    assert status == 0
    rows = {name: cells[0] for name, cells in columns(out).items()}
    game = GAMES["tarocchi_piedicavallo"]
    # the rules as `referee describe` reads them (each mechanic has its own)
    scope = programs_of(getattr(game.mechanic, "rules", None)).get("play")
    assert scope is not None
    for name, ty in scope.scope.items():
        assert rows[name] == ("record" if name in ("options", "move") else str(ty)), name
    assert rows["move.card"] == "card" and rows["options.top_trump"] == "str"
    assert rows["follows(c: card)"] == "bool" and rows["playable"] == "list[card]"
    assert "discardable" not in rows  # a definition meant for `discard` only


def test_describe_gives_meanings_from_the_spec(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "describe", "tarocchi_piedicavallo", "--context", "discard")
    meaning = {name: cells[-1] for name, cells in columns(out).items()}
    assert "the highest trump" in meaning["options.top_trump"]  # the option's text
    assert "the dealer's discard of two cards" in meaning["move"]  # the move's text
    assert "tarocchi_piedicavallo.yaml:" in meaning["trumps_discarded"]  # where it is defined


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_checkpoint_of_every_game_can_be_described(game: str) -> None:
    programs = programs_of(getattr(GAMES[game].mechanic, "rules", None))
    for checkpoint, program in programs.items():
        rows = describe(GAMES[game].spec, programs, checkpoint)
        names = [row.name for row in rows]
        assert set(program.scope.names()) <= set(names), checkpoint
        assert len(names) == len(set(names)), checkpoint
        # every name means something: the mechanic's are declared with their meaning
        assert [r.name for r in rows if "no meaning declared" in r.meaning] == [], checkpoint


def test_without_context_describe_lists_the_checkpoints(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "describe", "tarocchi_piedicavallo")
    assert status == 0
    assert [line.strip() for line in out.splitlines()[1:]] == [
        "count",
        "discard",
        "play",
        "setup",
        "trick_end",
    ]


def test_an_unknown_checkpoint_is_one_line_naming_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, "describe", "tarocchi_piedicavallo", "--context", "lead")
    assert status == 2
    assert err == (
        "referee describe: `tarocchi_piedicavallo` has no checkpoint `lead`: it has "
        "`count`, `discard`, `play`, `setup`, `trick_end`\n"
    )
