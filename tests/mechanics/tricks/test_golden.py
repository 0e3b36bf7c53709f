"""The trick-taking mechanic's golden transcripts (STYLE.md 11): one deal of Piedicavallo
Tarocchi, and a whole match of Sueca, regenerated and compared (tests/golden/transcripts.py)."""

from __future__ import annotations

from pathlib import Path

from referee.engine.game import Game
from tests.golden.transcripts import assert_transcript_unchanged

GOLDEN = Path(__file__).parent / "golden" / "tarocchi_piedicavallo-seed3.txt"
SUECA = Path(__file__).parent / "golden" / "sueca-seed2.txt"


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


def test_the_sueca_transcript_unchanged(games: dict[str, Game]) -> None:
    assert_transcript_unchanged(SUECA, games["sueca"], seed=2, seats=4)  # a match of two deals


def test_the_sueca_golden_shows_the_turned_card_to_all_until_the_dealer_plays_it() -> None:
    text = SUECA.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[-1].startswith("=== match over after 2 hand(s): winner team 1; ")
    assert "game points {0: 0, 1: 4}" in lines[-1] and text.count("> trick_won ") == 20
    first_deal = lines[: next(i for i, line in enumerate(lines) if "> deal_over " in line)]
    turned = next(line for line in first_deal if " sees: " in line).split("| turned ")[1][:2]
    played = next(
        i
        for i, line in enumerate(first_deal)
        if line.startswith("#") and line.endswith(f"seat 0: play card={turned}")
    )
    seen = [line for line in first_deal if " sees: " in line]
    before = [line for line in first_deal[:played] if " sees: " in line]
    assert before and all(f"| turned {turned} |" in line for line in before)
    assert all("| turned " not in line for line in seen[len(before) :])
    assert "trumps discarded" not in text  # no discard in this game
