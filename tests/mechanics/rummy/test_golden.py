"""The rummy mechanic's golden transcripts (STYLE.md 11): a whole Pontinho match and a hand of
Pif-Paf, each regenerated and compared (tests/golden/transcripts.py)."""

from __future__ import annotations

from pathlib import Path

from referee.engine.game import Game
from tests.golden.transcripts import assert_transcript_unchanged

GOLDEN = Path(__file__).parent / "golden" / "pontinho-seed7.txt"
PIF_PAF = Path(__file__).parent / "golden" / "pif_paf-seed3.txt"


def test_transcript_unchanged(games: dict[str, Game]) -> None:
    assert_transcript_unchanged(GOLDEN, games["pontinho"], seed=7, seats=4)


def test_golden_is_a_whole_match() -> None:
    """The checked-in transcript plays a match to its end, over several hands."""
    text = GOLDEN.read_text(encoding="utf-8")
    assert text.rstrip().splitlines()[-1].startswith("=== match over after ")
    assert text.count("\n=== hand ") >= 2
    assert "    rejected: " in text  # rejected proposals are shown, with their rules
    assert len(text.encode("utf-8")) < 300_000


def test_pif_paf_transcript_unchanged(games: dict[str, Game]) -> None:
    assert_transcript_unchanged(PIF_PAF, games["pif_paf"], seed=3, seats=3)


def test_pif_paf_golden_goes_out_and_settles() -> None:
    """The hand ends with a seat going out with its whole hand and every other seat paying it
    the stake (PP-4, PP-5); nothing lay on the table before."""
    text = PIF_PAF.read_text(encoding="utf-8")
    assert text.rstrip().splitlines()[-1].startswith("=== match over after 1 hand(s): winner seat")
    assert text.count(": go_out melds=") == 1 and " melded " not in text.split(": go_out ")[0]
    assert text.count("reason=settlement") == 2
