"""Run conformance scenarios (SCENARIOS.md) in-process or against a running referee.

Each PATH is a scenario file or a folder (every `*.yaml` under it). Every step that did not get
the expected answer is printed with its file, line and step, and the verdict it got. The exit
status is 1 if any scenario failed, 2 if the specs or the target cannot be reached.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.errors import InvalidArgument
from referee.scenario.runner import Report, run_file, scenario_files
from referee.scenario.target import InProcessTarget, Target, default_specs, load_specs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    parser.add_argument("--target", metavar="HOST:PORT",
                        help="a running referee to test (default: the engine in this process)")
    parser.add_argument("--specs", metavar="DIR", default=None,
                        help="the game specs for the in-process engine (default: the specs shipped with the referee)")
    parser.add_argument("--tls-ca", metavar="PEM", type=Path,
                        help="the target speaks TLS: the CA its certificate chains to")
    parser.add_argument("--create-token-file", metavar="FILE", type=Path,
                        help="the target's create token (`serve --create-token`), in a file")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also list the scenarios that passed")


def make_target(args: argparse.Namespace) -> Target:
    if args.target:
        from referee.scenario.remote import GrpcTarget

        return GrpcTarget.connect(
            args.target, tls_ca=args.tls_ca.read_bytes() if args.tls_ca else None,
            create_token=(args.create_token_file.read_text(encoding="utf-8").strip()
                          if args.create_token_file else None))
    return InProcessTarget(load_specs(args.specs or default_specs()))


def run(args: argparse.Namespace) -> int:
    missing = [path for path in args.paths if not Path(path).exists()]
    if missing:
        raise InvalidArgument(f"no such file or folder: `{missing[0]}`")
    files = list(scenario_files(args.paths))
    if not files:
        raise InvalidArgument("no scenario files (`*.yaml`) in "
                              + ", ".join(f"`{p}`" for p in args.paths))
    target = make_target(args)  # a RefereeError (exit status 2) is told by referee.cli
    try:
        reports = [run_file(path, target) for path in files]
    finally:
        target.close()
    for report in reports:
        _print(report, args.verbose)
    failed = sum(not r.passed for r in reports)
    print(f"{len(reports) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _print(report: Report, verbose: bool) -> None:
    if report.passed:
        if verbose:
            print(f"ok   {report.source}")
        return
    print(f"FAIL {report.source}")
    for failure in report.failures:
        print(f"  {failure}")
