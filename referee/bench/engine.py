"""`python -m referee.bench.engine`: the engine's verdicts per second in process, best of seven.

Each recorded workload of `make bench` (`referee.bench.WORKLOADS`: a table created, then every
proposal of a bot game, accepted or not, proposed in order) is judged again and again for a
while, seven times; the best of the seven is printed, as the least disturbed by the other work of
a shared machine. No server, no store, no log: the engine alone, to set one commit against
another (`--profile` says where its time goes).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections.abc import Sequence
from typing import Any

from referee.bench import WORKLOADS, in_process, recorded_game
from referee.engine.table import Table
from referee.model import Move
from referee.plugins.games import load_games

ROUNDS = 7


def best_of(
    game: Any, setup: Any, log: Sequence[tuple[int, Move]], rounds: int, seconds: float
) -> float:
    """The highest verdicts/s of `rounds` measurements of `seconds` each."""
    return max(in_process(game, seconds, setup, log)["verdicts_per_s"] for _ in range(rounds))


def profile(game: Any, setup: Any, log: Sequence[tuple[int, Move]], top: int) -> None:
    """Where judging the recording goes, by cumulative and own time (cProfile)."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(5):
        table = Table.create(game, setup)
        for seat, move in log:
            table.propose(seat, move)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="measurements, the best kept")
    parser.add_argument("--game", action="append", help="only these workloads (by game)")
    parser.add_argument("--profile", type=int, metavar="TOP", help="print cProfile's TOP lines")
    args = parser.parse_args(argv)
    games = load_games()
    for name, (what, seed) in WORKLOADS.items():
        if args.game and name not in args.game:
            continue
        game = games[name]
        setup, log = recorded_game(game, seed)
        if args.profile:
            profile(game, setup, log, args.profile)
            continue
        rate = best_of(game, setup, log, args.rounds, args.seconds)
        print(
            f"{name}: {rate:,.0f} verdicts/s, best of {args.rounds} ({what}, {len(log)} proposals)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
