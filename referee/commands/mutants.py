"""Disable each rule of each spec in turn and run the scenarios: which rules do they pin?

A rule whose `require` is made `true` and whose game's scenarios (and its variants') all still
pass survives: it is untested, or dead (enforced elsewhere). Prints each survivor, then the
score; `--verbose` also prints the scenario that caught each other rule. The exit status is 1
when a rule survives.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.errors import InvalidArgument
from referee.mutation import mutants
from referee.plugins.games import DEFAULT_SPECS
from referee.spec.proofs_file import spec_files

DEFAULT_SCENARIOS = Path("tests") / "conformance"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        default=[str(DEFAULT_SCENARIOS)],
        help="scenario files or folders (default: tests/conformance)",
    )
    parser.add_argument(
        "--specs",
        metavar="DIR",
        type=Path,
        default=DEFAULT_SPECS,
        help="the specs to mutate (default: the shipped ones)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also print the scenario that caught each mutant",
    )


def run(args: argparse.Namespace) -> int:
    if not spec_files(Path(args.specs)):
        raise InvalidArgument(f"no specs (`*.yaml`) in `{args.specs}`")
    found = []
    for mutant in mutants(args.specs, args.paths):
        found.append(mutant)
        games = ", ".join(mutant.games)
        if mutant.survived:
            print(f"survived {mutant.spec} {mutant.rule}: no scenario of {games} fails without it")
        elif args.verbose:
            print(f"caught   {mutant.spec} {mutant.rule}: by {mutant.caught_by}")
    caught = sum(not m.survived for m in found)
    share = f" ({100 * caught / len(found):.1f}%)" if found else ""
    print(f"{caught} of {len(found)} rules pinned by the scenarios{share}")
    return 0 if caught == len(found) else 1
