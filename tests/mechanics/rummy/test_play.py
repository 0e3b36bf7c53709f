"""`referee play` with the rummy bot: it plays a game of any rummy spec from what the seat's
view says (Pif-Paf, whose melds are laid only when going out, to its end). Bots that cannot go
on give up saying so: tests/cli/test_play_any_spec.py."""

from __future__ import annotations

import pytest

from referee.cli import main


def test_pif_paf_is_played_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "pif_paf", "--bots", "4", "--seed", "2", "--quiet"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith("match over after 1 hands: winner seat ")
    assert "balances {" in last  # PP-5: the stake changed hands
