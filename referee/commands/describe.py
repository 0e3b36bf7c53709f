"""Describe a game's checkpoints: with --context, each name a rule there may read, its type and meaning."""

from __future__ import annotations

import argparse

from referee.commands.prove import game_named
from referee.plugins.games import DEFAULT_SPECS
from referee.spec.describe import checkpoints, describe, programs_of, table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help="a game name (a spec in --specs), or a spec file (`my_rules.yaml`)",
    )
    parser.add_argument("--specs", default=str(DEFAULT_SPECS), help="the specs folder")
    parser.add_argument(
        "--context",
        metavar="CHECKPOINT",
        help="a checkpoint (a move, or a step such as `trick_end`): list its names",
    )


def run(args: argparse.Namespace) -> int:
    game = game_named(args.game, args.specs)
    programs = programs_of(getattr(game.mechanic, "rules", None))
    if args.context is None:
        print(f"`{game.name}` checkpoints (list one's names with --context CHECKPOINT):")
        for checkpoint in checkpoints(programs):
            print(f"  {checkpoint}")
        return 0
    print(table(describe(game.spec, programs, args.context)))
    return 0
