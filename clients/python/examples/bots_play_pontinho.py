"""Four bots play a whole match of Pontinho against a referee over gRPC, printing the verdicts.

    make run                                   # in one terminal
    .venv/bin/python clients/python/examples/bots_play_pontinho.py --target 127.0.0.1:50051

Each bot holds only its own seat's token and sees only its own view; it proposes candidate moves
and keeps the first one the referee accepts.
"""

from __future__ import annotations

import argparse
import random
import sys

from referee_bots.rummy_bot import turn_candidates
from referee_client import RefereeClient


def next_to_answer(public: dict) -> int:
    """A seat a claim window waits for (TD-4), a blown seat deciding on re-entry (PN-29), or
    the seat in turn: everything needed is in the public view."""
    window = public.get("claim_window")
    if window and window["waiting"]:
        return int(window["waiting"][0])
    return int(public["to_act"]) if public["to_act"] is not None else int(public["deciding"][0])


def play(
    client: RefereeClient,
    seats: int,
    seed: int,
    show: bool = True,
    game: str = "pontinho",
    start_at: int = 0,
) -> dict:
    """The match played to its end, its final public view. `start_at`: every seat's starting
    score (near the blowing score, a match of a few hands)."""
    scores = {seat: start_at for seat in range(seats)} if start_at else None
    table = client.create_table(game, seats=seats, seed=seed, scores=scores)
    rng = random.Random(seed)
    print(f"table {table.id}: commitment {table.commitment[:16]}…") if show else None
    while True:
        public = client.view(table.id)
        if public["match_over"]:
            return public
        seat = next_to_answer(public)
        token = table.tokens[seat]
        for move in turn_candidates(client.view(table.id, token), rng):
            verdict = client.propose(table.id, token, move)
            if verdict["outcome"] != "rejected":  # accepted, or a claim pending (TD-4)
                if show:
                    print(
                        f"seat {seat}: {move} -> {verdict['outcome']} (version {verdict['version']})"
                    )
                break
            if show and verdict["violations"]:
                first = verdict["violations"][0]
                print(f"seat {seat}: {move} -> rejected: {first['rule']}: {first['message']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--game", default="pontinho", help="pontinho or taradinho")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument("--start-at", type=int, default=0, help="every seat's starting score")
    args = parser.parse_args(argv)
    with RefereeClient(args.target) as client:
        final = play(
            client,
            args.seats,
            args.seed,
            show=not args.quiet,
            game=args.game,
            start_at=args.start_at,
        )
    print(
        f"match over after {final['hand_number']} hands: seat {final['winner']} wins; "
        f"scores {final['scores']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
