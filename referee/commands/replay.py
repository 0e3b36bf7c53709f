"""Replay a game record offline: its first illegal move with the rules broken, or its result.

The record is a scenario file of docs/scenarios.md (expectations and checks, if any, are ignored). The exit
status is 0 for a legal record, 1 when a move is illegal, 2 when the record cannot be read.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from referee.adjudication.replay import replay
from referee.engine.record import RESULT_FIELDS
from referee.model import JSON
from referee.plugins.games import default_specs, load_specs
from referee.scenario.checks import show
from referee.scenario.format import load_file
from referee.scenario.runner import reason


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a game record (the format of docs/scenarios.md)"
    )
    parser.add_argument(
        "--specs",
        metavar="DIR",
        default=None,
        help="the game specs (default: the specs shipped with the referee)",
    )
    parser.add_argument("--json", action="store_true", help="print the whole answer as JSON")


def run(args: argparse.Namespace) -> int:
    scenario = load_file(args.file)  # a RefereeError (exit status 2) is told by referee.cli
    answer = replay(load_specs(args.specs or default_specs()), scenario)
    if args.json:
        print(json.dumps(answer, indent=2, sort_keys=True))
    else:
        _print(args.file, scenario.steps, answer)
    return 0 if answer["legal"] else 1


def _print(source: str, steps: Any, answer: dict[str, JSON]) -> None:
    if answer["legal"]:
        print(f"{source}: legal: {answer['moves']} moves accepted")
        result = answer["result"]
        for key in RESULT_FIELDS:
            if key in result:
                print(f"  {key}: {show(result[key])}")
        return
    step = steps[answer["step"]]
    print(
        f"{step.where} (seat {answer['seat']} `{answer['move']['type']}`): illegal move "
        f"after {answer['moves']} accepted"
    )
    for violation in answer["violations"]:
        print(f"  {reason(violation['rule'], violation['cites'], violation['message'])}")
