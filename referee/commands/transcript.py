"""Print the golden transcript of a seeded table played by the random bot (tests/mechanics/*/golden/).

Every accepted move with its verdict (the events the proposer sees), the first rejected proposal
of each turn with its rules, and the seats' views. A game that ends by itself (a Pontinho match)
is played to its end; a banking table (Pontoon) for `--hands` hands (default 5). `--out FILE`
writes it to a file instead (`tests/mechanics/<name>/golden/` holds the checked-in ones, which
each mechanic's `test_golden.py` compares).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.commands.arguments import non_negative, positive
from referee.commands.play import parse_options
from referee.engine.game import find_game
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.plugins.transcript import render


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game name")
    parser.add_argument("--seed", type=int, default=7, help="the table seed and the bot's choices")
    parser.add_argument("--seats", type=positive, default=4, help="how many seats, each a bot")
    parser.add_argument("--dealer", type=non_negative, default=0, help="the first dealer")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option (repeatable); VALUE is read as YAML: 25, true, paid",
    )
    parser.add_argument(
        "--hands",
        type=positive,
        default=None,
        help="stop once this many hands are over (default: a match is played to "
        "its end, a banking table for 5 hands)",
    )
    parser.add_argument(
        "--every-view",
        action="store_true",
        help="every seat's view after every move (default: the mover's view, "
        "and every seat's view at hand boundaries)",
    )
    parser.add_argument("--specs", default=str(DEFAULT_SPECS))
    parser.add_argument("--out", metavar="FILE", help="write the transcript to FILE")


def run(args: argparse.Namespace) -> int:
    game = find_game(load_games(args.specs), args.game)  # a RefereeError is told by referee.cli
    text = render(
        game,
        args.seed,
        args.seats,
        options=parse_options(args.option),
        dealer=args.dealer,
        every_view=args.every_view,
        hands=args.hands,
    )
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{args.out}: {len(text.splitlines())} lines, {len(text.encode('utf-8'))} bytes")
    else:
        sys.stdout.write(text)
    return 0
