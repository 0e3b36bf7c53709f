"""How long `verdict_for` takes on the rejections of `make bench`'s recorded workloads: the cards
a seat may know read off its rendered view (before issue 28) against its mechanic's answer.

Run: `.venv/bin/python -m tests.redaction.time_verdict_for [rounds]`. Not a test: it prints
figures (µs a rejection, all of them and the first one of each state, which works the cards out;
the others in a row find them kept), best of `rounds` (default 7).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from referee import redaction
from referee.bench import recorded_game
from referee.engine.table import Table
from referee.model import Outcome
from referee.plugins.games import load_games
from tests.redaction.seen_in_views import seen_in_view

WORKLOADS = ("pontinho", "pontoon", "tarocchi_piedicavallo")  # `make bench`'s
Knowable = Callable[[Table, int | None], frozenset[str]]


def view_read(table: Table, seat: int | None) -> frozenset[str]:
    """The cut before issue 28: the seat's rendered view's cards, once a state."""
    return table.per_state(("cards_seen", seat), lambda: seen_in_view(table, seat))


def timed(name: str, knowable: Knowable) -> tuple[float, float, int, int]:
    """Seconds in `verdict_for` on the workload's rejections, all and the first of each state;
    how many rejections, and how many first ones."""
    game = load_games()[name]
    setup, log = recorded_game(game, 1)
    setattr(redaction, "knowable", knowable)  # noqa: B010 (the implementation measured)
    table = Table.create(game, setup)
    total = first = 0.0
    rejections = firsts = 0
    cut: set[tuple[int, int]] = set()  # (version, seat): a seat's cards worked out at a state
    for seat, move in log:
        verdict = table.propose(seat, move)
        if verdict.outcome is not Outcome.REJECTED:
            continue
        start = time.perf_counter()
        redaction.verdict_for(table, seat, move, verdict)
        spent = time.perf_counter() - start
        total, rejections = total + spent, rejections + 1
        if (table.version, seat) not in cut:
            cut.add((table.version, seat))
            first, firsts = first + spent, firsts + 1
    return total, first, rejections, firsts


def main(rounds: int) -> None:
    mechanic_answer = redaction.knowable
    print(f"verdict_for on rejections, µs, best of {rounds}: all (first of a state)")
    for name in WORKLOADS:
        line = [f"{name:24}"]
        for label, knowable in (("view-read", view_read), ("knowable", mechanic_answer)):
            runs = [timed(name, knowable) for _ in range(rounds)]
            total, first, count, firsts = min(runs)
            line.append(f"{label} {total / count * 1e6:7.1f} ({first / max(firsts, 1) * 1e6:7.1f})")
        line.append(f"rejections {count} ({firsts} first)")
        print("  ".join(line))
    setattr(redaction, "knowable", mechanic_answer)  # noqa: B010 (as it was)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
