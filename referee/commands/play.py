"""Watch bots play a whole match in-process: every proposal and verdict, then the winner."""

from __future__ import annotations

import argparse
import random

from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move
from referee.spec.registry import DEFAULT_SPECS, find_game, load_games
from referee_client.rummy_bot import turn_candidates

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game name")
    parser.add_argument("--bots", type=int, default=4, help="how many seats, each a bot")
    parser.add_argument("--seed", type=int, default=7, help="the table seed (the deal) and the bots' choices")
    parser.add_argument("--specs", default=str(DEFAULT_SPECS))
    parser.add_argument("--quiet", action="store_true", help="print only accepted moves")


def run(args: argparse.Namespace) -> int:
    game = find_game(load_games(args.specs), args.game)
    table = Table.create(game, TableSetup(game=game.name, seats=args.bots, seed=args.seed))
    rng = random.Random(args.seed)
    print(f"{game.name}: {args.bots} bots, seed {args.seed}, commitment {table.commitment[:16]}…")
    proposals = 0
    while not table.is_over and proposals < MAX_PROPOSALS:
        full = table.view(ADJUDICATOR)
        seat = full["to_act"] if full["to_act"] is not None else full["deciding"][0]
        for move in turn_candidates(table.view(seat), rng):
            proposals += 1
            verdict = table.propose(seat, Move.from_data(move))
            if verdict.accepted or not args.quiet:
                rules = ", ".join(sorted(verdict.rule_ids())) or "-"
                status = "accepted" if verdict.accepted else f"rejected ({rules})"
                print(f"  seat {seat}: {move} -> {status}")
            if verdict.accepted:
                break
    final = table.view(ADJUDICATOR)
    print(f"match over after {final['hand_number']} hands: winner seat {final['winner']}; "
          f"scores {final['scores']}; blown {final['blown']}; proposals {proposals}")
    return 0 if table.is_over else 1
