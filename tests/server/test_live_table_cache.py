"""The live-table cache is bounded (issue 10): tables beyond `max_live_tables` leave memory,
least recently used first, and are replayed from the store when asked for again; their watchers
and their claim windows' deadlines carry on."""

from __future__ import annotations

import itertools
import threading

from referee.clock import ManualClock
from referee.engine.game import Game
from referee.model import Move
from referee.service import RefereeService
from referee.store.memory import MemoryStore

DEAL = {
    "hands": {
        "1": ["5C", "2H", "KH", "KD", "QH", "JD", "TD", "8S", "7S"],
        "2": ["5S", "5H", "2S", "3S", "JC", "QC", "AD", "8C", "6D"],
        "0": ["6C", "7C", "JS", "QS", "KS", "2D", "3D", "4D", "5D"],
    },
    "turned": "9D",
    "stock": ["AH", "2C", "TC"],
}


def test_idle_tables_leave_memory_and_come_back_whole(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games, max_live_tables=3, allow_stacked=True)
    try:
        tables = [service.create_table("pontinho", seats=3, deal=DEAL) for _ in range(10)]
        assert service.live_tables == 3
        first = tables[0]
        assert service.propose(first.table_id, first.tokens[1], Move("draw")).verdict.accepted
        view = service.view(first.table_id, first.tokens[1])
        assert view.version == 1 and len(view.view["hand"]) == 10
        for table in tables:  # every table, reloaded in turn, as it was
            assert service.view(table.table_id, None).version == (1 if table is first else 0)
            assert service.live_tables <= 3
    finally:
        service.close()


def test_a_watched_table_evicted_still_reaches_its_watcher(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games, max_live_tables=2, allow_stacked=True)
    try:
        watched = service.create_table("pontinho", seats=3, deal=DEAL)
        subscription = service.watch(watched.table_id, watched.tokens[2])
        received: list[int] = []
        reader = threading.Thread(
            target=lambda: received.extend(m.version for m in itertools.islice(subscription, 2))
        )
        reader.start()
        for _ in range(5):  # the watched table is pushed out of memory
            service.create_table("pontinho", seats=3, deal=DEAL)
        service.propose(watched.table_id, watched.tokens[1], Move("draw"))
        service.propose(watched.table_id, watched.tokens[1], Move("discard", {"card": "AH"}))
        reader.join(timeout=5)
        assert received == [1, 2]
        subscription.cancel()
    finally:
        service.close()


def test_an_evicted_tables_claim_window_still_closes_at_its_deadline(
    games: dict[str, Game],
) -> None:
    store, clock = MemoryStore(), ManualClock()
    service = RefereeService(store, games, max_live_tables=1, allow_stacked=True, clock=clock)
    try:
        table = service.create_table(
            "taradinho", seats=3, deal=DEAL, options={"claim_window_ms": 200}
        )
        service.propose(table.table_id, table.tokens[1], Move("draw"))
        service.propose(table.table_id, table.tokens[1], Move("discard", {"card": "5C"}))
        service.create_table("pontinho", seats=3, deal=DEAL)  # evicts the Taradinho table
        assert service.live_tables == 1
        clock.advance(0.1)
        assert store.version(table.table_id) == 2
        clock.advance(0.1)  # nobody touches the table: the deadline alone closes it
        assert store.version(table.table_id) == 3
    finally:
        service.close()
