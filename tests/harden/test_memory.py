"""Bounded memory (issue 10): a client creates tables as fast as the server lets it (the
create quota lifted), each with a claim window left open. Once the live-table cache is full, a
table more costs the referee only what its open window keeps (an entry in one scheduler's heap,
not a thread) and the store's pages: its threads stay few.

The figures: RSS when the cache has just filled and at the end, against a control run whose
cache holds every table; at full size (`make harden`) the bounded run must grow less than half
as fast."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_client import RefereeClient
from tests.harden.report import SCALE, STRICT, report
from tests.harden.served import referee

pytestmark = pytest.mark.slow  # every test here is a long run

LIVE_TABLES = 100 if STRICT else 50  # make harden: 1,400 tables, 100 of them live
TABLES = int(2 * LIVE_TABLES * max(1, SCALE))  # half fill the cache, the other half are evicted
WINDOW_MS = 600_000  # no window closes during the run


def open_a_window(client: RefereeClient) -> None:
    """A Taradinho table whose first discard is open to claims."""
    table = client.create_table("taradinho", seats=3, options={"claim_window_ms": WINDOW_MS})
    token = table.tokens[1]
    client.propose(table.id, token, {"type": "draw"})
    card = client.view(table.id, token)["hand"][-1]
    verdict = client.propose(table.id, token, {"type": "discard", "card": card})
    assert verdict["outcome"] == "pending" or verdict["accepted"], verdict


def growth(tmp_path: Path, live_tables: int) -> dict[str, float]:
    """Figures of one run: TABLES tables, each with an open window, `live_tables` in memory."""
    flags = (
        "--db",
        str(tmp_path / f"referee-{live_tables}.db"),
        "--max-live-tables",
        str(live_tables),
        "--create-rate",
        "0",
        "--peer-rate",
        "0",
    )
    with referee(*flags) as served, RefereeClient(served.address) as client:
        for _ in range(LIVE_TABLES):
            open_a_window(client)
        full_rss = served.rss_kb
        for _ in range(TABLES - LIVE_TABLES):
            open_a_window(client)
        end_rss, threads = served.rss_kb, served.threads
    return {
        "rss cache full kb": full_rss,
        "rss end kb": end_rss,
        "server threads": threads,
        "kb per table beyond": round((end_rss - full_rss) / (TABLES - LIVE_TABLES), 2),
    }


def test_tables_beyond_the_cache_cost_little_memory(tmp_path: Path) -> None:
    """The control: the same run with a cache that holds every table (no eviction)."""
    bounded, unbounded = growth(tmp_path, LIVE_TABLES), growth(tmp_path, TABLES)
    report(
        "memory",
        {
            "tables": TABLES,
            "open windows": TABLES,
            "live tables": LIVE_TABLES,
            "bounded": bounded,
            "control, every table live": unbounded,
        },
    )
    assert bounded["server threads"] < 50 and unbounded["server threads"] < 50
    if STRICT:  # what is left per table: its window's deadline in the heap, the store's pages
        assert bounded["kb per table beyond"] < unbounded["kb per table beyond"] / 2
