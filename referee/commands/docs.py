"""Write the rulebook generated from the specs: docs/rules/GAME.md per game and an index, and
docs/rules/mechanics.md, what each mechanic's moves and spec sections are, from its declarations.

Run it after changing a spec and commit the result: `tests/docs/test_rulebook.py` fails while the
committed rulebook differs from what the specs give.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.errors import RefereeError
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.plugins.installed import PLUGINS
from referee.plugins.mechanics_page import mechanics_page
from referee.rulebook import write

MECHANICS = "mechanics.md"

DEFAULT_OUT = Path("docs") / "rules"  # in the checkout; the links it writes assume docs/rules/
# the example specs the mechanics page points to and reads its contexts from, in the checkout
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "example-specs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=str(DEFAULT_OUT),
        help="the folder to write to (default: docs/rules, from the checkout's root)",
    )
    parser.add_argument(
        "--specs",
        metavar="DIR",
        default=str(DEFAULT_SPECS),
        help="the folder of specs (default: the shipped ones)",
    )
    parser.add_argument(
        "--examples",
        metavar="DIR",
        default=str(EXAMPLES),
        help="the folder of example specs (default: docs/example-specs of the checkout)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        games = load_games(args.specs)
        written = write(games, Path(args.out))
        page = Path(args.out) / MECHANICS
        examples = load_games(args.examples) if Path(args.examples).is_dir() else {}
        page.write_text(mechanics_page(PLUGINS, games, examples), encoding="utf-8")
        written.append(page)
    except RefereeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write `{args.out}`: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"{args.out}: {len(written)} files ({', '.join(p.name for p in written)})")
    return 0
