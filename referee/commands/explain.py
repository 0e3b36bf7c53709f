"""Explain a step of a game record offline: every rule its move's judging judged, whether it held,
and the values it read (docs/explain.md).

The record is a scenario file of docs/scenarios.md or a record `referee export` wrote. Its moves are
replayed up to the step; without `--step`, the step explained is the record's first illegal move
(the last one when every move is legal). Nothing is cut: whoever holds a record holds its deal. The
exit status is 0 when the step's move is accepted, 1 when it is rejected, 2 when the record cannot
be read or has no such step.
"""

from __future__ import annotations

import argparse
import json

from referee.engine.table import Table
from referee.errors import InvalidArgument
from referee.i18n.verdicts import verdict_worded
from referee.model import Move, Outcome, Verdict
from referee.plugins.games import default_specs, load_specs
from referee.scenario.format import CloseWindowStep, MoveStep, load_file
from referee.scenario.target import InProcessTarget
from referee.service.explanation_lines import explanation_lines
from referee.spec.explaining import Judged


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a game record (docs/scenarios.md, docs/records.md)"
    )
    parser.add_argument(
        "--step",
        type=int,
        default=None,
        metavar="N",
        help="the step to explain, counted from 1 as `referee replay` counts (default: the first illegal move)",
    )
    parser.add_argument(
        "--language", default="en", help="the language of the text: en, pt, tl (default en)"
    )
    parser.add_argument(
        "--specs",
        metavar="DIR",
        default=None,
        help="the game specs (default: the specs shipped with the referee)",
    )
    parser.add_argument("--json", action="store_true", help="print the explanation as JSON")


def run(args: argparse.Namespace) -> int:
    scenario = load_file(args.file)  # a RefereeError (exit status 2) is told by referee.cli
    target = InProcessTarget(load_specs(args.specs or default_specs()))
    table: Table = target.create_table(scenario.setup)
    moves = [s for s in scenario.steps if isinstance(s, MoveStep)]
    if args.step is not None and not any(s.where.step == args.step for s in moves):
        numbers = ", ".join(str(s.where.step) for s in moves) or "none"
        raise InvalidArgument(
            f"{args.file}: step {args.step} is no move: the moves are steps {numbers}"
        )
    for step in scenario.steps:
        if isinstance(step, CloseWindowStep):
            table.expire()
        if not isinstance(step, MoveStep):
            continue
        last = step is moves[-1]
        if args.step is None or step.where.step == args.step:
            judgements = table.explain(step.seat, step.move)
            verdict = table.propose(step.seat, step.move)
            rejected = verdict.outcome is Outcome.REJECTED
            if args.step is not None or rejected or last:
                _print(args, table, step.seat, step.move, verdict, judgements, step.where.step)
                return 1 if rejected else 0
        else:
            table.propose(step.seat, step.move)
    raise InvalidArgument(f"{args.file}: the record has no move to explain")


def _print(
    args: argparse.Namespace,
    table: Table,
    seat: int,
    move: Move,
    verdict: Verdict,
    judgements: list[Judged],
    step: int,
) -> None:
    judged_at = verdict.version - (verdict.outcome is not Outcome.REJECTED)
    if args.json:
        answer = {
            "step": step,
            "seat": seat,
            "move": move.to_data(),
            "judged_at": judged_at,
            "verdict": verdict.to_data(),
            "judged": [j.to_data() for j in judgements],
        }
        print(json.dumps(answer, indent=2, sort_keys=True))
        return
    language = table.game.language([args.language])
    worded = verdict_worded(verdict, table.game.texts, language, table.game.spec.words)
    print(f"{args.file}: step {step}")
    game = table.game
    for line in explanation_lines(
        seat, move.type, judged_at, worded, judgements, language, game.texts, game.spec.pack_kind
    ):
        print(line)
