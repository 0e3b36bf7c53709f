"""A process on a shared store follows what the others write even when it is not told: a move
of a process that does not announce it (an older referee, during a rolling upgrade) reaches this
process's watchers at its next check against the store (`CHECK_EVERY_S` of its clock)."""

from __future__ import annotations

import random
import time

from referee.clock import ManualClock
from referee.engine.game import Game
from referee.model import Move
from referee.service import RefereeService
from referee.service.following import CHECK_EVERY_S
from referee.service.watching import Subscription
from referee.store.postgres import PostgresStore
from tests.harden.ledger import draw_or_discard

QUIET_S = 0.5  # long enough for an announcement to have arrived, had there been one


def versions_seen(watch: Subscription, seen: list[int], until_s: float) -> list[int]:
    deadline = time.monotonic() + until_s
    while time.monotonic() < deadline:
        updates, _ = watch.drain()
        seen += [update.version for update in updates]
        if seen:
            return seen
        time.sleep(0.02)
    return seen


def test_a_move_nobody_announced_reaches_a_watcher_at_the_next_check(
    pg_url: str, games: dict[str, Game]
) -> None:
    clock = ManualClock()
    ours, theirs = PostgresStore(pg_url), PostgresStore(pg_url)
    theirs.instance = ours.instance  # what it announces, this process takes for its own: unheard
    watching = RefereeService(ours, games, allow_stacked=True, clock=clock)
    moving = RefereeService(theirs, games, allow_stacked=True)
    try:
        table = moving.create_table("pontinho", seats=3, seed=3)
        watch = watching.watch(table.table_id, None)
        seat = int(moving.view(table.table_id, None).view["to_act"])
        view = moving.view(table.table_id, table.tokens[seat]).view
        move = Move.from_data(draw_or_discard(view, random.Random(3)))
        assert moving.propose(table.table_id, table.tokens[seat], move).verdict.accepted
        seen: list[int] = []
        assert versions_seen(watch, seen, QUIET_S) == []  # not told, so not seen yet
        clock.advance(CHECK_EVERY_S)  # the check finds it in the store
        assert versions_seen(watch, seen, 10.0) == [1]
        watch.cancel()
    finally:
        watching.close()
        moving.close()
        ours.close()
        theirs.close()
