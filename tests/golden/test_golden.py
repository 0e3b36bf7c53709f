"""Golden transcripts (STYLE.md 11): each checked-in playthrough is regenerated and compared.

A difference means the rules, the views, the events or the bot changed. If the change is
intended, regenerate the file with the command printed on failure and review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from referee.spec.registry import load_games
from referee.transcript import render

HERE = Path(__file__).parent
MAX_DIFF_LINES = 200

# file -> how it is made: game, seed, seats (the `referee transcript` arguments)
GOLDEN = {
    "pontinho-seed7.txt": ("pontinho", 7, 4),
}


def regenerate_command(name: str, game: str, seed: int, seats: int) -> str:
    return (f"referee transcript {game} --seed {seed} --seats {seats} "
            f"--out tests/golden/{name}")


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_transcript_unchanged(name: str) -> None:
    game, seed, seats = GOLDEN[name]
    path = HERE / name
    assert path.exists(), f"missing {path}: make it with `{regenerate_command(name, *GOLDEN[name])}`"
    expected = path.read_text(encoding="utf-8")
    actual = render(load_games()[game], seed, seats)
    if actual == expected:
        return
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                     fromfile=f"tests/golden/{name}", tofile="regenerated",
                                     lineterm="", n=2))
    shown = "\n".join(diff[:MAX_DIFF_LINES])
    more = f"\n... {len(diff) - MAX_DIFF_LINES} more diff lines" if len(diff) > MAX_DIFF_LINES else ""
    pytest.fail(f"the transcript {name} changed: the rules, the views, the events or the bot "
                f"changed.\n{shown}{more}\nIf the change is intended, regenerate it:\n"
                f"  {regenerate_command(name, game, seed, seats)}\nand review the diff.",
                pytrace=False)


def test_golden_is_a_whole_match() -> None:
    """The checked-in transcript plays a match to its end, over several hands."""
    text = (HERE / "pontinho-seed7.txt").read_text(encoding="utf-8")
    assert text.rstrip().splitlines()[-1].startswith("=== match over after ")
    assert text.count("\n=== hand ") >= 2
    assert "    rejected: " in text  # rejected proposals are shown, with their rules
    assert len(text.encode("utf-8")) < 300_000


def test_a_game_without_transcripts_is_refused_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["transcript", "pontoon", "--seed", "3", "--seats", "4"]) == 2
    assert "transcripts cover rummy games so far" in capsys.readouterr().err
