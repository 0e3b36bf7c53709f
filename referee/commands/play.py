"""Watch bots play a whole match in-process: every proposal and verdict, then the winner."""

from __future__ import annotations

import argparse
import random

from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move, Outcome
from referee.spec.registry import DEFAULT_SPECS, find_game, load_games
from referee_client.rummy_bot import turn_candidates

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game name")
    parser.add_argument("--bots", type=int, default=4, help="how many seats, each a bot")
    parser.add_argument("--seed", type=int, default=7, help="the table seed (the deal) and the bots' choices")
    parser.add_argument("--specs", default=str(DEFAULT_SPECS))
    parser.add_argument("--quiet", action="store_true", help="print only accepted moves")


def next_to_answer(full: dict) -> int:
    """Who must act now: a seat a claim window waits for, a seat deciding on re-entry, or the
    seat in turn."""
    window = full.get("claim_window")
    if window and window["waiting"]:
        return int(window["waiting"][0])
    return int(full["to_act"]) if full["to_act"] is not None else int(full["deciding"][0])


def run(args: argparse.Namespace) -> int:
    game = find_game(load_games(args.specs), args.game)
    table = Table.create(game, TableSetup(game=game.name, seats=args.bots, seed=args.seed))
    rng = random.Random(args.seed)
    print(f"{game.name}: {args.bots} bots, seed {args.seed}, commitment {table.commitment[:16]}…")
    proposals = 0
    while not table.is_over and proposals < MAX_PROPOSALS:
        seat = next_to_answer(table.view(ADJUDICATOR))
        for move in turn_candidates(table.view(seat), rng):
            proposals += 1
            verdict = table.propose(seat, Move.from_data(move))
            taken = verdict.outcome is not Outcome.REJECTED  # a pending claim counts as an answer
            if taken or not args.quiet:
                rules = ", ".join(sorted(verdict.rule_ids())) or "-"
                status = verdict.outcome.value if taken else f"rejected ({rules})"
                print(f"  seat {seat}: {move} -> {status}")
            if taken:
                break
    final = table.view(ADJUDICATOR)
    print(f"match over after {final['hand_number']} hands: winner seat {final['winner']}; "
          f"scores {final['scores']}; blown {final['blown']}; proposals {proposals}")
    return 0 if table.is_over else 1
