"""Four bots play Piedicavallo Tarocchi against a referee over gRPC, printing the verdicts.

    make run                                   # in one terminal
    .venv/bin/python clients/python/examples/bots_play_tarocchi.py --target 127.0.0.1:50051
    .venv/bin/python clients/python/examples/bots_play_tarocchi.py --deals 4   # a game of 4 deals

Seats 0 and 2 play against 1 and 3. Each bot holds only its own seat's token and sees only its
own view (its own hand, not its partner's); it proposes candidate moves (the dealer's discard,
then a card to each trick) and keeps the first one the referee accepts.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from referee_bots.tricks_bot import next_to_act, turn_candidates
from referee_client import RefereeClient

GAME = "tarocchi_piedicavallo"


def play(client: RefereeClient, seed: int, show: bool = True, deals: int = 1) -> dict[str, Any]:
    """A whole game; the final public view (its `totals`, `winner`, `last_hand`)."""
    table = client.create_table(GAME, seats=4, seed=seed, options={"deals_per_game": deals})
    rng = random.Random(seed)
    say = print if show else (lambda *args: None)
    say(f"table {table.id}: commitment {table.commitment[:16]}…")
    while not (public := client.view(table.id))["match_over"]:
        seat = next_to_act(public)  # the dealer to discard, then the seat in turn: public
        token = table.tokens[seat]
        for move in turn_candidates(client.view(table.id, token), rng):
            verdict = client.propose(table.id, token, move)
            if verdict["accepted"]:
                say(f"seat {seat}: {move} -> accepted (version {verdict['version']})")
                for line in (line for event in verdict["events"] for line in describe(event)):
                    say(line)
                break
            first = verdict["violations"][0]
            say(f"seat {seat}: {move} -> rejected: {first['rule']}: {first['message']}")
    return public


def describe(event: dict[str, Any]) -> list[str]:
    """A line for the events worth telling: a trick won, a discard announced, a deal counted."""
    kind = event["kind"]
    if kind == "discarded":
        return [
            f"  the dealer lays {event['count']} cards face down: {event.get('trumps')} trump(s)"
        ]
    if kind == "trick_won":
        return [f"  trick {event['number']}: {' '.join(event['cards'])} -> seat {event['seat']}"]
    if kind == "deal_over":
        winner = "a tie" if event["winner"] is None else f"team {event['winner']} wins"
        return [
            f"deal {event['hand_number']} over: tricks {per_team(event['tricks'])}; points "
            f"{per_team(event['points'])}; {winner}; the discard was {' '.join(event['discard'])}"
        ]
    return []


def per_team(values: dict[str, int]) -> str:
    """`{"1": 8, "0": 7}` (a Struct keeps no key order) as `team 0 7, team 1 8`."""
    return ", ".join(f"team {team} {n}" for team, n in sorted(values.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--deals", type=int, default=1, help="deals per game (option deals_per_game)"
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)
    with RefereeClient(args.target) as client:
        final = play(client, args.seed, show=not args.quiet, deals=args.deals)
    winner = final["winner"]
    seats = " and ".join(str(s) for s in final["teams"][winner]) if winner is not None else ""
    result = "a tie" if winner is None else f"team {winner} (seats {seats}) wins"
    print(
        f"game over after {final['hand_number']} deal(s): totals {per_team(final['totals'])}; "
        f"{result}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
