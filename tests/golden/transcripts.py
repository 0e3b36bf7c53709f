"""Golden transcripts (STYLE.md 11): a checked-in playthrough, regenerated and compared.

Each mechanic keeps its own under `tests/mechanics/<name>/golden/`. A difference means the rules,
the views, the events or the bot changed. If the change is intended, regenerate the file with the
command printed on failure and review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.plugins.transcript import render

ROOT = Path(__file__).resolve().parents[2]
MAX_DIFF_LINES = 200


def regenerate_command(path: Path, game: str, seed: int, seats: int) -> str:
    return (
        f"referee transcript {game} --seed {seed} --seats {seats} "
        f"--out {path.resolve().relative_to(ROOT)}"
    )


def assert_transcript_unchanged(path: Path, game: Game, seed: int, seats: int) -> None:
    """The transcript at `path` is what `referee transcript` makes of `game` today."""
    command = regenerate_command(path, game.name, seed, seats)
    assert path.exists(), f"missing {path}: make it with `{command}`"
    expected = path.read_text(encoding="utf-8")
    actual = render(game, seed, seats)
    if actual == expected:
        return
    shown_as = str(path.resolve().relative_to(ROOT))
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            fromfile=shown_as,
            tofile="regenerated",
            lineterm="",
            n=2,
        )
    )
    shown = "\n".join(diff[:MAX_DIFF_LINES])
    more = (
        f"\n... {len(diff) - MAX_DIFF_LINES} more diff lines" if len(diff) > MAX_DIFF_LINES else ""
    )
    pytest.fail(
        f"the transcript {path.name} changed: the rules, the views, the events or the bot "
        f"changed.\n{shown}{more}\nIf the change is intended, regenerate it:\n"
        f"  {command}\nand review the diff.",
        pytrace=False,
    )
