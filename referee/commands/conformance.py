"""Run conformance scenarios (docs/scenarios.md) in-process or against a running referee.

Each PATH is a scenario file or a folder (every `*.yaml` under it). Every step that did not get
the expected answer is printed with its file, line and step, and the verdict it got. A scenario
naming a rule id its game does not have (checked against the specs of `--specs`, also with
`--target`) is an error in the scenario; one the target cannot run (a claim window's deadline,
against a server) is skipped, with the reason. `--junit FILE` also writes JUnit XML, `--json`
prints a JSON report instead of the text one; on a terminal a progress line shows on stderr.
The exit status is 1 if any scenario failed or has an error, 2 if the specs or the target cannot
be reached.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from referee.errors import InvalidArgument
from referee.plugins.games import default_specs, load_specs
from referee.scenario.remote import GrpcTarget
from referee.scenario.reports import counts, to_json, write_junit
from referee.scenario.rule_ids import RuleIndex
from referee.scenario.runner import Report, RuleIds, run_file, scenario_files
from referee.scenario.target import InProcessTarget, Target


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    parser.add_argument(
        "--target",
        metavar="HOST:PORT",
        help="a running referee to test (default: the engine in this process)",
    )
    parser.add_argument(
        "--specs",
        metavar="DIR",
        default=None,
        help="the game specs for the in-process engine (default: the specs shipped with the referee)",
    )
    parser.add_argument(
        "--tls-ca",
        metavar="PEM",
        type=Path,
        help="the target speaks TLS: the CA its certificate chains to",
    )
    parser.add_argument(
        "--create-token-file",
        metavar="FILE",
        type=Path,
        help="the target's create token (`serve --create-token`), in a file",
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also list the scenarios that passed"
    )
    parser.add_argument(
        "--junit",
        metavar="FILE",
        type=Path,
        help="also write a JUnit XML report (one testcase per scenario)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON report on stdout instead of the text one"
    )


def make_target(args: argparse.Namespace, games: Mapping[str, Any]) -> Target:
    if args.target:
        return GrpcTarget.connect(
            args.target,
            tls_ca=args.tls_ca.read_bytes() if args.tls_ca else None,
            create_token=(
                args.create_token_file.read_text(encoding="utf-8").strip()
                if args.create_token_file
                else None
            ),
        )
    return InProcessTarget(games)


def run(args: argparse.Namespace) -> int:
    missing = [path for path in args.paths if not Path(path).exists()]
    if missing:
        raise InvalidArgument(f"no such file or folder: `{missing[0]}`")
    files = list(scenario_files(args.paths))
    if not files:
        raise InvalidArgument(
            "no scenario files (`*.yaml`) in " + ", ".join(f"`{p}`" for p in args.paths)
        )
    games = load_specs(args.specs or default_specs())
    target = make_target(args, games)  # a RefereeError (exit status 2) is told by referee.cli
    try:
        reports, seconds = run_all(files, target, RuleIndex(games), Progress(sys.stderr))
    finally:
        target.close()
    where = args.target or "in-process"
    if args.junit is not None:
        write_junit(args.junit, reports, seconds, where)
    if args.json:
        print(to_json(reports, seconds, where))
    else:
        _print_text(reports, args.verbose)
    return 0 if all(r.status in ("passed", "skipped") for r in reports) else 1


def run_all(
    files: list[Path], target: Target, rule_ids: RuleIds, progress: Progress
) -> tuple[list[Report], list[float]]:
    """Each file's report and the seconds it took, in order."""
    reports, seconds = [], []
    for number, path in enumerate(files, 1):
        progress.show(number, len(files), path)
        started = time.perf_counter()
        reports.append(run_file(path, target, rule_ids))
        seconds.append(time.perf_counter() - started)
    progress.done()
    return reports, seconds


class Progress:
    """`[12/45] tests/conformance/pontinho/pn12-trio.yaml`, rewritten in place on a terminal;
    nothing when the stream is not one (a CI log, a pipe)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._on = stream.isatty()
        self._width = 0

    def show(self, number: int, total: int, path: Path) -> None:
        if self._on:
            line = f"[{number}/{total}] {path}"
            self._stream.write("\r" + line.ljust(self._width))
            self._stream.flush()
            self._width = len(line)

    def done(self) -> None:
        if self._on and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()


def _print_text(reports: list[Report], verbose: bool) -> None:
    for report in reports:
        _print(report, verbose)
    tally = counts(reports)
    extra = "".join(
        f", {tally[k]} {word}"
        for k, word in (("error", "errors"), ("skipped", "skipped"))
        if tally[k]
    )
    print(f"{tally['passed']} passed, {tally['failed']} failed{extra}")


def _print(report: Report, verbose: bool) -> None:
    status = report.status
    if status == "passed":
        if verbose:
            print(f"ok   {report.source}")
        return
    if status == "skipped":
        print(f"skip {report.source}: {report.skipped}")
        return
    print(f"{'ERROR' if status == 'error' else 'FAIL'} {report.source}")
    for failure in report.failures:
        print(f"  {failure}")
