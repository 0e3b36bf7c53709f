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
