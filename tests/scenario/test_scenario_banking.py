"""`hand` and `hand_size` checks on a banking table (Pontoon), in-process and over gRPC.

A banking seat's hand is its cards across all its hands (a split makes two). Over gRPC the full
view is built from the seats' own views, where the banker's first card is `??` until its turn:
the same scenario must pass both ways.
"""

from __future__ import annotations

import pytest

from referee.engine.game import Game
from referee.scenario.format import load_text
from referee.scenario.runner import run_scenario
from referee.scenario.target import InProcessTarget, Target

SCENARIO = """\
format: 1
scenario: pontoon/hand-and-hand-size
game: pontoon
seats: 2
dealer: 0                        # seat 1 plays; seat 0 banks
balances: {0: 500, 1: 500}
deal:
  # seat 1: 8H 8D, banker: 5S 9C; the split: 8H 3S | 8D 4D; then 9H, 7S, TC
  deck: [8H, 5S, 8D, 9C, 3S, 4D, 9H, 7S, TC]
steps:
  - check: {hand_size: {0: 1, 1: 1}, hand: {0: [5S], 1: [8H]}}   # the banker's card: face down
  - {seat: 1, move: {type: bet, amount: 10}, expect: accept}
  - check: {hand_size: {0: 2, 1: 2}, hand: {0: [5S, 9C], 1: [8D, 8H]}}
  - {seat: 1, move: {type: split}, expect: accept}
  - check: {hand_size: {1: 4}, hand: {1: [8H, 3S, 8D, 4D]}}      # across both hands
  - {seat: 1, move: {type: twist}, expect: accept}               # 8H 3S 9H: 20
  - {seat: 1, move: {type: stick}, expect: accept}
  - {seat: 1, move: {type: twist}, expect: accept}               # 8D 4D 7S: 19
  - {seat: 1, move: {type: stick}, expect: accept}
  - check: {to_act: 0, hand_size: {0: 2, 1: 6}, hand: {0: [5S, 9C]}}
  - {seat: 0, move: {type: twist}, expect: accept}               # 5S 9C TC: bust
  # between hands the checks read the hand just played, shown
  - check: {hand_over: true, hand_size: {0: 3, 1: 6}, hand: {1: [8H, 3S, 9H, 8D, 4D, 7S]}}
  - {seat: 0, move: {type: next_hand}, expect: accept}
  - check: {hand_over: false, hand_size: {0: 1, 1: 1}}
"""

WRONG = (
    SCENARIO.split("steps:\n")[0]
    + """\
steps:
  - {seat: 1, move: {type: bet, amount: 10}, expect: accept}
  - check: {hand_size: {0: 3, 1: 2}, hand: {0: [5S, 9D]}}
"""
)


@pytest.fixture(params=["in-process", "over-grpc"])
def target(request: pytest.FixtureRequest, games: dict[str, Game]) -> Target:
    if request.param == "in-process":
        return InProcessTarget(games)
    remote: Target = request.getfixturevalue("over_grpc")
    return remote


def failures(text: str, target: Target) -> list[str]:
    report = run_scenario(load_text(text, "pontoon/t.yaml"), target)
    return [str(f) for f in report.failures]


def test_hand_and_hand_size_read_every_hand_of_a_banking_seat(target: Target) -> None:
    assert failures(SCENARIO, target) == []


def test_a_wrong_banking_hand_is_reported(target: Target) -> None:
    problems = failures(WRONG, target)
    assert problems[0].endswith("`hand_size` of seat 0: expected 3, got 2")
    assert "`hand` of seat 0: expected [5S, 9D], got " in problems[1]
    assert "9C" in problems[1] and len(problems) == 2
