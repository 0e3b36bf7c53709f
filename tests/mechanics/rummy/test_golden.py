"""The rummy mechanic's golden transcript (STYLE.md 11): a whole Pontinho match, regenerated and
compared (tests/golden/transcripts.py)."""

from __future__ import annotations

from pathlib import Path

from referee.engine.game import Game
from tests.golden.transcripts import assert_transcript_unchanged

GOLDEN = Path(__file__).parent / "golden" / "pontinho-seed7.txt"


def test_transcript_unchanged(games: dict[str, Game]) -> None:
    assert_transcript_unchanged(GOLDEN, games["pontinho"], seed=7, seats=4)


def test_golden_is_a_whole_match() -> None:
    """The checked-in transcript plays a match to its end, over several hands."""
    text = GOLDEN.read_text(encoding="utf-8")
    assert text.rstrip().splitlines()[-1].startswith("=== match over after ")
    assert text.count("\n=== hand ") >= 2
    assert "    rejected: " in text  # rejected proposals are shown, with their rules
    assert len(text.encode("utf-8")) < 300_000
