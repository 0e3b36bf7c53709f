"""Watch bots play in-process: every proposal and verdict, then the result.

A rummy table (Pontinho, Taradinho) is played as a whole match, to its winner. A banking table
(Pontoon) never ends by itself: the bots play `--hands` hands, the banker dealing each next one
(`next_hand`, PO-8), and the chips are counted at the end (GEN-6).
"""

from __future__ import annotations

import argparse
import random
from typing import Any, Callable, Iterator

from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move, Outcome
from referee.spec.registry import DEFAULT_SPECS, Game, find_game, load_games
from referee_client import pontoon_bot
from referee_client.rummy_bot import turn_candidates

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before
Candidates = Callable[[dict[str, Any], random.Random], Iterator[dict[str, Any]]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game name")
    parser.add_argument("--bots", type=int, default=4, help="how many seats, each a bot")
    parser.add_argument("--seed", type=int, default=7, help="the table seed (the deal) and the bots' choices")
    parser.add_argument("--specs", default=str(DEFAULT_SPECS))
    parser.add_argument("--quiet", action="store_true", help="print only accepted moves")
    parser.add_argument("--hands", type=int, default=5,
                        help="banking games (Pontoon): how many hands to play (default 5)")
    parser.add_argument("--chips", type=int, default=1000,
                        help="banking games (Pontoon): each seat's chips at the start "
                             "(default 1000)")


def next_to_answer(full: dict) -> int:
    """Who must act now: a seat a claim window waits for, a seat deciding on re-entry, or the
    seat in turn."""
    window = full.get("claim_window")
    if window and window["waiting"]:
        return int(window["waiting"][0])
    return int(full["to_act"]) if full["to_act"] is not None else int(full["deciding"][0])


def run(args: argparse.Namespace) -> int:
    game = find_game(load_games(args.specs), args.game)
    if game.spec.mechanics == "banking":
        return run_banking(game, args)
    return run_rummy(game, args)


def play_turn(table: Table, seat: int, candidates: Iterator[dict[str, Any]], quiet: bool) -> int:
    """Propose `seat`'s candidates until one is taken; the number of proposals made (at least
    one: a turn in which nothing was taken is tried again, with new random choices)."""
    proposals = 0
    for move in candidates:
        proposals += 1
        verdict = table.propose(seat, Move.from_data(move))
        taken = verdict.outcome is not Outcome.REJECTED  # a pending claim counts as an answer
        if taken or not quiet:
            rules = ", ".join(sorted(verdict.rule_ids())) or "-"
            status = verdict.outcome.value if taken else f"rejected ({rules})"
            print(f"  seat {seat}: {move} -> {status}")
        if taken:
            break
    return max(proposals, 1)


def run_rummy(game: Game, args: argparse.Namespace) -> int:
    table = Table.create(game, TableSetup(game=game.name, seats=args.bots, seed=args.seed))
    rng = random.Random(args.seed)
    print(f"{game.name}: {args.bots} bots, seed {args.seed}, commitment {table.commitment[:16]}…")
    proposals = 0
    while not table.is_over and proposals < MAX_PROPOSALS:
        seat = next_to_answer(table.view(ADJUDICATOR))
        proposals += play_turn(table, seat, turn_candidates(table.view(seat), rng), args.quiet)
    final = table.view(ADJUDICATOR)
    print(f"match over after {final['hand_number']} hands: winner seat {final['winner']}; "
          f"scores {final['scores']}; blown {final['blown']}; proposals {proposals}")
    return 0 if table.is_over else 1


def run_banking(game: Game, args: argparse.Namespace) -> int:
    """`args.hands` hands of a banking game; the banker deals each next hand."""
    balances = {seat: args.chips for seat in range(args.bots)}
    table = Table.create(game, TableSetup(game=game.name, seats=args.bots, seed=args.seed,
                                          balances=balances))
    options = game.resolve_options({})
    limits = {"min_bet": options["min_bet"], "max_bet": options["max_bet"]}
    rng = random.Random(args.seed)
    chips = _chips(table.view(ADJUDICATOR))
    print(f"{game.name}: {args.bots} bots, seed {args.seed}, {args.hands} hands, "
          f"commitment {table.commitment[:16]}…")
    proposals, finished, started = 0, set[int](), 0
    while proposals < MAX_PROPOSALS:
        full = table.view(ADJUDICATOR)
        number = int(full["hand_number"])
        if full["hand_over"] and number not in finished:
            finished.add(number)
            _hand_summary(full)
            if len(finished) >= args.hands:
                break
        if not full["hand_over"] and number != started:
            started = number
            print(f"hand {number}: banker seat {full['banker']}")
        seat = pontoon_bot.next_to_act(full)
        candidates = pontoon_bot.turn_candidates(table.view(seat), rng, **limits)
        proposals += play_turn(table, seat, candidates, args.quiet)
    played = len(finished)
    final = table.view(ADJUDICATOR)
    conserved = _chips(final) == chips
    print(f"after {played} hands: balances {final['balances']}; on the table {final['on_table']}; "
          f"chips {'conserved' if conserved else 'NOT conserved'} ({_chips(final)} of {chips}); "
          f"proposals {proposals}")
    return 0 if conserved and played >= args.hands else 1


def _chips(view: dict[str, Any]) -> int:
    """GEN-6: balances plus everything on the table (stakes, and a kitty where there is one)."""
    return sum(view["balances"].values()) + int(view["on_table"]) + int(view.get("kitty") or 0)


def _hand_summary(view: dict[str, Any]) -> None:
    last = view["last_hand"]
    hands = "; ".join(f"{seat}: " + " | ".join(" ".join(h) for h in seat_hands)
                      for seat, seat_hands in last["hands"].items())
    following = last.get("next_banker")
    bank = f"; the bank passes to seat {following}" if following is not None else ""
    print(f"hand {last['hand_number']} over (banker seat {view['banker']}): {hands}; "
          f"balances {view['balances']}{bank}")
