"""Check spec files: report every error with file, line, column and key path."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.errors import InvalidArgument, SpecError, SpecErrors
from referee.plugins.games import load_game
from referee.proofs.typecheck import checked_properties
from referee.spec.proofs_file import is_proofs_file, spec_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        help="spec files (YAML); a proofs file (`GAME.proofs.yaml`) checks its spec",
    )


def run(args: argparse.Namespace) -> int:
    """0: every spec is valid; 1: some spec has errors (every one listed); 2: a file is missing."""
    missing = [path for path in args.files if not Path(path).is_file()]
    if missing:
        raise InvalidArgument(f"no such spec file: `{missing[0]}`")
    failed = 0
    for path in args.files:
        try:
            # the spec and its properties (`GAME.proofs.yaml`), typed as `referee prove` types them
            game = load_game(spec_of(Path(path)) if is_proofs_file(Path(path)) else path)
            properties = checked_properties(game)
        except SpecErrors as exc:
            failed += 1
            for error in exc.errors:
                print(error, file=sys.stderr)
            print(f"{path}: {len(exc.errors)} error(s)", file=sys.stderr)
        except SpecError as exc:
            failed += 1
            print(exc, file=sys.stderr)
        else:
            print(
                f"{path}: ok: `{game.name}`, {len(game.spec.rules)} rules, "
                f"{len(game.spec.moves)} moves, {len(game.spec.options)} options, "
                f"{len(properties)} properties"
            )
    return 1 if failed else 0
