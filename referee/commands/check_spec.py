"""Check spec files: report every error with file, line, column and key path."""

from __future__ import annotations

import argparse
import sys

from referee.errors import SpecError, SpecErrors
from referee.spec.registry import load_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", help="spec files (YAML)")


def run(args: argparse.Namespace) -> int:
    failed = 0
    for path in args.files:
        try:
            game = load_game(path)
        except SpecErrors as exc:
            failed += 1
            for error in exc.errors:
                print(error, file=sys.stderr)
            print(f"{path}: {len(exc.errors)} error(s)", file=sys.stderr)
        except (SpecError, OSError) as exc:
            failed += 1
            print(exc, file=sys.stderr)
        else:
            print(f"{path}: ok: `{game.name}`, {len(game.spec.rules)} rules, "
                  f"{len(game.spec.moves)} moves, {len(game.spec.options)} options")
    return 1 if failed else 0
