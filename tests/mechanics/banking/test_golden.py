"""The banking mechanic's golden transcript (STYLE.md 11): five hands of Pontoon, regenerated and
compared (tests/golden/transcripts.py); `referee transcript --hands` cuts the same play short."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main
from referee.engine.game import Game
from tests.golden.transcripts import assert_transcript_unchanged

GOLDEN = Path(__file__).parent / "golden" / "pontoon-seed3.txt"


def test_transcript_unchanged(games: dict[str, Game]) -> None:
    # 5 hands: a banking table never ends by itself
    assert_transcript_unchanged(GOLDEN, games["pontoon"], seed=3, seats=6)


def test_the_pontoon_golden_plays_its_hands_and_hides_cards() -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    assert text.rstrip().splitlines()[-1].startswith("=== stopped after 5 hand(s): ")
    assert text.count("\n=== hand ") == 5
    assert "??" in text and "    rejected: " in text


def test_the_command_stops_a_banking_table_after_its_hands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["transcript", "pontoon", "--seed", "3", "--seats", "6", "--hands", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0]
        == "# golden transcript: pontoon, 6 seats, seed 3, dealer 0, 1 hand, 1000 chips each"
    )
    assert lines[-1].startswith("=== stopped after 1 hand(s): balances {0: ")
    golden = GOLDEN.read_text(encoding="utf-8").splitlines()
    assert lines[1:-2] == golden[1 : len(lines) - 2]  # the same play, cut after the first hand


BLACKJACK = Path(__file__).parent / "golden" / "blackjack-seed5.txt"


def test_blackjack_transcript_unchanged(games: dict[str, Game]) -> None:
    # the bot plays blackjack's own move names from each seat's `legal`
    assert_transcript_unchanged(BLACKJACK, games["blackjack"], seed=5, seats=4)


def test_the_blackjack_golden_shows_the_house_and_the_hole_card() -> None:
    text = BLACKJACK.read_text(encoding="utf-8")
    # five hands played; the house dealt the sixth as the fifth ended
    assert text.count("\n=== hand ") == 6
    assert text.rstrip().splitlines()[-1].startswith("=== stopped after 5 hand(s): ")
    assert "house_played seat=0 move=next_hand" in text
    assert "[JC ??]" in text  # the up card every seat sees, the hole card nobody does
    assert "#" in text and " seat 0: " not in text  # no move of the house's is proposed
