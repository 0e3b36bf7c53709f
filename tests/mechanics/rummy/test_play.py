"""`referee play` with the rummy bot: it plays a game of any rummy spec from what the seat's
view says (Pif-Paf, whose melds are laid only when going out, to its end), and where no
proposal of the bots is ever accepted it gives up saying so instead of proposing on.
"""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from referee.cli import main
from referee.plugins import rummy
from referee.plugins.play_turns import Answer, PlayContext


def test_pif_paf_is_played_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "pif_paf", "--bots", "4", "--seed", "2", "--quiet"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith("match over after 1 hands: winner seat ")
    assert "balances {" in last  # PP-5: the stake changed hands


class Refusing:
    """A referee that refuses every proposal: the view never changes."""

    commitment = "0" * 64

    def __init__(self) -> None:
        self.proposals = 0

    def view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"match_over": False, "to_act": 0, "phase": "take"}
        view |= {"hand_number": 1, "deciding": [], "claim_window": None}
        return view if seat is None else {**view, "hand": ["2C"], "legal_moves": ["draw"]}

    def propose(self, seat: int, move: dict[str, Any]) -> Answer:
        self.proposals += 1
        return Answer("rejected", ("GEN-7",), ())

    def close(self) -> None:
        pass


def context(referee: Refusing) -> PlayContext:
    args = argparse.Namespace(bots=2, seed=1, quiet=True)
    return PlayContext("gin", args, lambda **_: referee, lambda: {})


def test_the_bots_give_up_when_nothing_they_propose_is_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    referee = Refusing()
    assert rummy.play(context(referee)) == 1
    assert referee.proposals == rummy.STALLS  # one `draw` a turn, each refused
    out = capsys.readouterr().out
    assert "the bots gave up after 50 proposals: seat 0 found no move the referee accepts" in out


def test_without_the_limit_they_would_propose_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The control: with no stall limit the same table runs to the proposals' safety net."""
    monkeypatch.setattr(rummy, "STALLS", 10**9)
    monkeypatch.setattr(rummy, "MAX_PROPOSALS", 2_000)
    referee = Refusing()
    assert rummy.play(context(referee)) == 1
    assert referee.proposals == 2_000
    assert "2000 proposals: the game did not end" in capsys.readouterr().out
