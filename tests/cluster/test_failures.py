"""Processes and the database failing under a cluster (issue 13, point 3): `kill -9` of any
referee process during play, PostgreSQL itself restarted mid-load, and a claim window whose
opener is killed. Clients retry a failed call by its `move_id` on another process; at the end
every acknowledged move is in the store once, at the version its verdict gave."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.store.postgres import POOL_TIMEOUT_S, PostgresStore
from referee_client.client import RefereeClient, TableHandle
from tests.cluster.cluster import ONLY_IN_MAKE_CLUSTER, Cluster, scaled
from tests.cluster.playing import (
    RETRY_FOR_S,
    WINDOW_MS,
    Clients,
    creating,
    play,
    wait_for_version,
)
from tests.cluster.postgres_restart import RestartablePostgres
from tests.harden.ledger import Ledger
from tests.support.postgres_server import fresh_database
from tests.support.server import SEAT_3_CLAIM, TARADINHO_DEAL

# the module's tests share its processes: one worker runs them all
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cluster-failures"), ONLY_IN_MAKE_CLUSTER]

MOVES = scaled(1000)  # acknowledged, over all tables
TABLES = 4  # each played by a client thread of its own, through every process in turn


def play_everywhere(
    clients: Clients, during: Callable[[Ledger, threading.Event], None]
) -> tuple[Ledger, list[TableHandle]]:
    """`MOVES` moves over `TABLES` tables, `during(ledger, done)` running beside them."""
    ledger, done = Ledger(), threading.Event()
    tables = [clients.call(creating(number)) for number in range(TABLES)]
    for table in tables:
        ledger.open(table.id)
    with ThreadPoolExecutor(TABLES + 1) as pool:
        meanwhile = pool.submit(during, ledger, done)
        players = [
            pool.submit(play, clients, table, -(-MOVES // TABLES), ledger, number)
            for number, table in enumerate(tables)
        ]
        try:
            for player in players:
                player.result()
        finally:
            done.set()
        meanwhile.result()
    return ledger, tables


def audited(url: str, ledger: Ledger) -> tuple[int, int, int]:
    store = PostgresStore(url)
    try:
        audit = ledger.audit(store)
    finally:
        store.close()
    assert audit.acknowledged >= MOVES
    return audit.lost, audit.doubled, audit.unacknowledged


@pytest.fixture(scope="module")
def cluster(pg_server: str) -> Iterator[Cluster]:
    """One cluster for the module's tests; a process one of them kills, it starts again."""
    with fresh_database(pg_server) as url:
        running = Cluster(url, 3)
        try:
            yield running
        finally:
            running.stop()


@pytest.fixture
def own_postgres(tmp_path: Path) -> Iterator[RestartablePostgres]:
    """A PostgreSQL of this test's own: restarting it must not cut the other tests' off."""
    server = RestartablePostgres(tmp_path)
    try:
        yield server
    finally:
        server.cleanup()


def test_postgresql_restarted_mid_load_is_unavailable_then_loses_nothing(
    own_postgres: RestartablePostgres,
) -> None:
    cluster = Cluster(own_postgres.url, 2)
    clients = Clients(cluster)

    def restart_once(ledger: Ledger, done: threading.Event) -> None:
        if ledger.wait_for_total(MOVES // 3, timeout_s=RETRY_FOR_S):
            own_postgres.restart(down_for_s=2 * POOL_TIMEOUT_S)  # long enough to be seen

    try:
        ledger, _ = play_everywhere(clients, restart_once)
    finally:
        codes = cluster.stop()
    assert audited(own_postgres.url, ledger) == (0, 0, 0)
    assert clients.failures["UNAVAILABLE"] > 0, clients.failures  # the clients saw it down...
    assert set(clients.failures) == {"UNAVAILABLE"}, clients.failures  # ...and nothing else
    assert codes == [0, 0]


def open_window(client: RefereeClient) -> tuple[TableHandle, int]:
    """A Taradinho table whose seat 1 has discarded 5C, with seat 3's claim pending: the
    window's close will give seat 3 the meld. The table's version then."""
    table = client.create_table(
        "taradinho", seats=4, dealer=0, deal=TARADINHO_DEAL, options={"claim_window_ms": WINDOW_MS}
    )
    assert client.propose(table.id, table.tokens[1], {"type": "draw"})["accepted"]
    assert client.propose(table.id, table.tokens[1], {"type": "discard", "card": "5C"})["accepted"]
    assert client.propose(table.id, table.tokens[3], SEAT_3_CLAIM)["outcome"] == "pending"
    return table, int(client.view(table.id)["version"])


def closes(cluster: Cluster, url: str, table: TableHandle) -> int:
    store = PostgresStore(url)
    try:
        return sum(m.move["type"] == "close_window" for m in store.load_table(table.id).moves)
    finally:
        store.close()


def test_a_claim_window_closes_once_when_its_opener_is_killed(cluster: Cluster) -> None:
    """Process 0 opens the window and is killed at once; another process, told of the deadline
    by the store, closes it: once, by the server's clock, with seat 3's claim applied."""
    table, version = open_window(cluster.client(0))
    opened = time.monotonic()
    cluster.kill(0)
    try:
        after = wait_for_version(cluster.client(1), table, version + 1)
    finally:
        cluster.restart(0)
    assert time.monotonic() - opened >= WINDOW_MS / 1000 * 0.9  # not before its deadline
    assert after["to_act"] == 0 and after["melds"][0]["cards"] == ["3C", "4C", "5C"]
    time.sleep(WINDOW_MS / 1000)  # long enough for a second close, if any process made one
    assert cluster.client(2).view(table.id)["version"] == version + 1
    assert closes(cluster, cluster.url, table) == 1


def test_a_claim_window_closes_once_with_every_process_alive(cluster: Cluster) -> None:
    table, version = open_window(cluster.client(1))
    wait_for_version(cluster.client(2), table, version + 1)
    time.sleep(WINDOW_MS / 1000)
    assert cluster.client(0).view(table.id)["version"] == version + 1
    assert closes(cluster, cluster.url, table) == 1


def test_a_turn_runs_out_though_its_table_s_creator_is_killed(cluster: Cluster) -> None:
    """The play clock: process 0 creates a table whose every seat sleeps (one timeout puts a
    seat out of the match) and is killed at once, before any move. The first turn's deadline
    was stored with the table: the others arm it and play the timeouts, each once, until the
    match is over, the first not before its time."""
    client = cluster.client(0)
    table = client.create_table(
        "pontinho", seats=3, seed=1, options={"turn_seconds": 1, "max_timeouts": 1}
    )
    created = time.monotonic()
    cluster.kill(0)
    try:
        over = wait_for_version(cluster.client(1), table, 2)
    finally:
        cluster.restart(0)
    assert time.monotonic() - created >= 0.9  # not before its deadline
    assert over["match_over"] and over["version"] == 2
    store = PostgresStore(cluster.url)
    try:
        moves = store.load_table(table.id).moves
    finally:
        store.close()
    assert [m.move["type"] for m in moves] == ["close_window", "close_window"]


def test_kill_9_of_any_process_loses_or_doubles_no_move(cluster: Cluster) -> None:
    clients, rng, kills = Clients(cluster), random.Random(9), []

    def kill_each_once(ledger: Ledger, done: threading.Event) -> None:
        """Each process in turn, at a random moment of its quarter of the moves, started again
        in the background (the clients use the others meanwhile)."""
        with ThreadPoolExecutor(len(cluster)) as restarting:
            started = []
            for victim in range(len(cluster)):
                target = MOVES * (victim + 1) // (len(cluster) + 1) + rng.randint(0, MOVES // 8)
                if not ledger.wait_for_total(target, timeout_s=RETRY_FOR_S) or done.is_set():
                    break
                time.sleep(rng.uniform(0, 0.02))  # lands mid-call
                cluster.kill(victim)
                kills.append(victim)
                started.append(restarting.submit(cluster.restart, victim))
            for restarted in started:
                restarted.result()  # each process serves again

    ledger, _ = play_everywhere(clients, kill_each_once)
    assert audited(cluster.url, ledger) == (0, 0, 0)
    assert kills == [0, 1, 2] and sum(clients.failures.values()) > 0
    assert set(clients.failures) <= {"UNAVAILABLE", "CLOSED", "CANCELLED"}, clients.failures
