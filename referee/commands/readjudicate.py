"""Judge archived game records again under other specs (a corrected rule, a house rule): per
record, whether its outcome changes and the first move judged differently, with both verdicts.

`referee readjudicate RECORD... --specs DIR` compares DIR's specs with the shipped ones (or
`--against DIR`). The last line counts the records unchanged / changed / no longer legal. Exit
status: 0 when every record is unchanged, 1 when one is not, 2 when a record or a spec cannot be
read (the other records are still judged and reported).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.adjudication.readjudication import Change, Readjudication, readjudicate
from referee.engine.record import RESULT_FIELDS
from referee.errors import RefereeError
from referee.model import JSON
from referee.plugins.games import default_specs, load_specs
from referee.scenario.checks import show
from referee.scenario.format import load_file
from referee.scenario.runner import reason


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "records", metavar="RECORD", nargs="+", help="game records (docs/scenarios.md)"
    )
    parser.add_argument(
        "--specs", metavar="DIR", required=True, help="the specs to judge the records under"
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        default=None,
        help="the specs to compare with (default: the specs shipped with the referee)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per record")


def run(args: argparse.Namespace) -> int:
    before = load_specs(args.against or default_specs())  # a RefereeError: told by referee.cli
    after = load_specs(args.specs)
    counts: Counter[Change] = Counter()
    unreadable = 0
    for path in args.records:
        try:
            scenario = load_file(path)
            judged = readjudicate(before, after, scenario)
        except RefereeError as error:
            print(f"{path}: cannot be judged: {error.message}", file=sys.stderr)
            unreadable += 1
            continue
        counts[judged.change] += 1
        if args.json:
            print(json.dumps({"record": path, **judged.to_data()}, sort_keys=True))
        else:
            print(_told(path, judged, scenario.steps))
    if not args.json:
        print(
            f"{sum(counts.values())} records: {counts[Change.UNCHANGED]} unchanged, "
            f"{counts[Change.CHANGED]} changed, {counts[Change.NO_LONGER_LEGAL]} no longer legal"
            + (f"; {unreadable} could not be judged" if unreadable else "")
        )
    if unreadable:
        return 2
    return 0 if set(counts) <= {Change.UNCHANGED} else 1


def _told(path: str, judged: Readjudication, steps: Any) -> str:
    before, after = judged.before, judged.after
    if judged.change is Change.UNCHANGED:
        lines = [f"{path}: unchanged: {_outcome(before)}"]
    else:
        lines = [f"{path}: {judged.change.value}: {_outcome(before)} -> {_outcome(after)}"]
    if before.get("legal") and after.get("legal"):
        lines += _results_differ(before["result"], after["result"])
    difference = judged.difference
    if difference is not None:
        where = steps[difference.step].where
        lines.append(
            f"  first judged differently: {where} (seat {difference.seat} "
            f"`{difference.move['type']}`)"
        )
        lines.append(f"    before: {_verdict(difference.before)}")
        lines.append(f"    after:  {_verdict(difference.after)}")
    return "\n".join(lines)


def _outcome(answer: Mapping[str, JSON]) -> str:
    if "setup" in answer:
        return f"cannot be set up ({answer['setup']})"
    if not answer["legal"]:
        return f"illegal at step {int(answer['step']) + 1}"
    return f"legal, {answer['moves']} moves"


def _results_differ(before: Mapping[str, JSON], after: Mapping[str, JSON]) -> list[str]:
    """The summary fields of two final views that differ, each `before -> after`."""
    return [
        f"  {key}: {show(before.get(key))} -> {show(after.get(key))}"
        for key in RESULT_FIELDS
        if before.get(key) != after.get(key)
    ]


def _verdict(verdict: Mapping[str, JSON]) -> str:
    said = str(verdict["outcome"])
    broken = [reason(v["rule"], v["cites"], v["message"]) for v in verdict["violations"]]
    events = ", ".join(str(e["kind"]) for e in verdict["events"])
    return said + (f": {'; '.join(broken)}" if broken else "") + (f" ({events})" if events else "")
