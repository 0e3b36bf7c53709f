"""The trick-taking mechanic's golden transcript (STYLE.md 11): one deal of Piedicavallo
Tarocchi, regenerated and compared (tests/golden/transcripts.py)."""

from __future__ import annotations

from pathlib import Path

from referee.engine.game import Game
from tests.golden.transcripts import assert_transcript_unchanged

GOLDEN = Path(__file__).parent / "golden" / "tarocchi_piedicavallo-seed3.txt"


def test_transcript_unchanged(games: dict[str, Game]) -> None:
    assert_transcript_unchanged(GOLDEN, games["tarocchi_piedicavallo"], seed=3, seats=4)  # one deal


def test_the_tarocchi_golden_plays_a_deal_and_shows_the_discard_to_the_dealer_only() -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[-1].startswith("=== match over after 1 hand(s): winner team ")
    assert text.count("> trick_won ") == 15 and "    rejected: " in text
    before_the_count = lines[: next(i for i, line in enumerate(lines) if "> deal_over " in line)]
    seat_lines = [line for line in before_the_count if " sees: " in line]
    assert seat_lines and all(
        ("| discard [" in line) == line.startswith("    seat 0 sees:")
        for line in seat_lines
        if "(discard)" not in line
    )
