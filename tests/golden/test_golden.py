"""Golden transcripts (STYLE.md 11): each checked-in playthrough is regenerated and compared.

A difference means the rules, the views, the events or the bot changed. If the change is
intended, regenerate the file with the command printed on failure and review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from types import SimpleNamespace

import pytest

from referee.spec.registry import load_games
from referee.transcript import NoTranscript, adapter_for, render

HERE = Path(__file__).parent
MAX_DIFF_LINES = 200

# file -> how it is made: game, seed, seats (the `referee transcript` arguments)
GOLDEN = {
    "pontinho-seed7.txt": ("pontinho", 7, 4),
    "pontoon-seed3.txt": ("pontoon", 3, 6),      # 5 hands: a banking table never ends by itself
    "tarocchi_piedicavallo-seed3.txt": ("tarocchi_piedicavallo", 3, 4),  # one deal
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


def test_the_pontoon_golden_plays_its_hands_and_hides_cards() -> None:
    text = (HERE / "pontoon-seed3.txt").read_text(encoding="utf-8")
    assert text.rstrip().splitlines()[-1].startswith("=== stopped after 5 hand(s): ")
    assert text.count("\n=== hand ") == 5
    assert "??" in text and "    rejected: " in text


def test_the_tarocchi_golden_plays_a_deal_and_shows_the_discard_to_the_dealer_only() -> None:
    text = (HERE / "tarocchi_piedicavallo-seed3.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[-1].startswith("=== match over after 1 hand(s): winner team ")
    assert text.count("> trick_won ") == 15 and "    rejected: " in text
    before_the_count = lines[:next(i for i, line in enumerate(lines) if "> deal_over " in line)]
    seat_lines = [line for line in before_the_count if " sees: " in line]
    assert seat_lines and all(("| discard [" in line) == line.startswith("    seat 0 sees:")
                              for line in seat_lines if "(discard)" not in line)


def test_a_mechanic_without_an_adapter_is_refused_clearly() -> None:
    game = SimpleNamespace(name="scopa", spec=SimpleNamespace(mechanics="fishing"))
    with pytest.raises(NoTranscript, match="no transcript for `scopa` yet: its mechanics "
                                           "`fishing` has no adapter"):
        adapter_for(game)


def test_the_command_stops_a_banking_table_after_its_hands(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["transcript", "pontoon", "--seed", "3", "--seats", "6", "--hands", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "# golden transcript: pontoon, 6 seats, seed 3, dealer 0, 1 hand, 1000 chips each"
    assert lines[-1].startswith("=== stopped after 1 hand(s): balances {0: ")
    golden = (HERE / "pontoon-seed3.txt").read_text(encoding="utf-8").splitlines()
    assert lines[1:-2] == golden[1:len(lines) - 2]  # the same play, cut after the first hand
