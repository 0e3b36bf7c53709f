"""Referee processes on two PostgreSQL databases, the tables partitioned across them (issue 30,
point 4): each table lives in the database its id names, every call of it (Propose, GetView,
Watch through another process, GetRecord, Explain, a claim window's deadline) is served from
there; the lobby pages across both; a list in another order is refused at start. Under `make
cluster`: each database on a server of its own, one killed with kill -9 and started again
while the other's tables keep playing, and nothing acknowledged is lost."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml

from referee.cli import main
from referee.store.partitioned import number_of, open_databases
from referee_client.client import RefereeClient, TableHandle
from tests.cluster.cluster import ONLY_IN_MAKE_CLUSTER, Cluster, scaled
from tests.cluster.playing import WINDOW_MS, Clients, creating, play, wait_for_version
from tests.cluster.postgres_restart import RestartablePostgres
from tests.harden.ledger import Ledger
from tests.support.postgres_server import fresh_database
from tests.support.server import SEAT_3_CLAIM, TARADINHO_DEAL

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cluster-partitioned")]

OPERATOR = "partitioned-operator"  # the processes' create token: the lobby is the operator's
MOVES_EACH = scaled(150)  # acknowledged per table, kill -9 test
OUTAGE_S = 3.0  # how long the killed database stays down


class PartitionedCluster(Cluster):
    """`size` referee processes, each `serve --store URL --store URL ...` over `urls`."""

    def __init__(self, urls: list[str], size: int) -> None:
        self.urls = urls
        super().__init__(urls[0], size)

    def _flags(self) -> list[str]:
        stores = [flag for url in self.urls for flag in ("--store", url)]
        return [*stores, "--create-token", OPERATOR]

    def client(self, index: int) -> RefereeClient:
        process = self.processes[index % len(self.processes)]
        return RefereeClient(process.address, channel=process.channel, create_token=OPERATOR)


@pytest.fixture(scope="module")
def urls(pg_server: str) -> Iterator[list[str]]:
    with ExitStack() as stack:
        yield [stack.enter_context(fresh_database(pg_server)) for _ in range(2)]


@pytest.fixture(scope="module")
def cluster(urls: list[str]) -> Iterator[PartitionedCluster]:
    running = PartitionedCluster(urls, 2)
    try:
        yield running
    finally:
        assert all(code == 0 for code in running.stop())


def stored_in(url: str) -> set[str]:
    with psycopg.connect(url) as db:
        return {row[0] for row in db.execute("SELECT id FROM tables").fetchall()}


def created_in(number: int, create: Callable[[], TableHandle]) -> TableHandle:
    """A table `create` made in database `number` (placement is random: a few tries)."""
    for _ in range(40):
        table = create()
        if number_of(table.id) == number:
            return table
    raise AssertionError(f"40 tables, none in database {number}")


def test_tables_spread_over_both_each_in_the_database_its_id_names(
    cluster: PartitionedCluster, urls: list[str]
) -> None:
    order = [cluster.client(n).create_table("pontinho", seats=3, seed=n).id for n in range(20)]
    made, first, second = set(order), stored_in(urls[0]), stored_in(urls[1])
    assert made <= first | second and not first & second
    assert {t for t in made if number_of(t) == 1} == made & first != set()
    assert {t for t in made if number_of(t) == 2} == made & second != set()
    # the lobby pages across both, newest first, each table once
    listed = [t["table_id"] for t in cluster.client(1).all_tables(page_size=3)]
    assert len(listed) == len(set(listed))
    assert [t for t in listed if t in made] == order[::-1]


def test_every_call_of_a_second_database_table_is_served_from_it(
    cluster: PartitionedCluster, urls: list[str], tmp_path: Path
) -> None:
    maker, other = cluster.client(0), cluster.client(1)
    table = created_in(2, lambda: maker.create_table("pontinho", seats=3, seed=7))
    seen: list[dict[str, Any]] = []
    watching = threading.Thread(target=lambda: seen.extend(_first_update(other, table)))
    watching.start()  # through the other process: told of the move by its database's NOTIFY
    time.sleep(0.5)
    seat = int(maker.view(table.id)["to_act"])
    verdict = maker.propose(table.id, table.tokens[seat], {"type": "draw"}, move_id="m1")
    assert verdict["accepted"] and verdict["version"] == 1
    watching.join(timeout=10)
    assert [update["version"] for update in seen] == [1]
    assert other.view(table.id)["version"] == 1
    record = other.record(table.id)
    assert table.id in record and '"draw"' in record
    assert other.explain(table.id, version=1)["verdict"]["accepted"]
    # `referee export` reads it from the databases listed as serve lists them
    out = tmp_path / "record.yaml"
    stores = [flag for url in urls for flag in ("--store", url)]
    assert main(["export", table.id, *stores, "--out", str(out)]) == 0
    assert yaml.safe_load(out.read_text())["steps"][0]["move"] == {"type": "draw"}


def _first_update(client: RefereeClient, table: TableHandle) -> list[dict[str, Any]]:
    for update in client.watch(table.id):
        return [update]
    return []


def test_a_claim_window_of_a_second_database_table_closes_by_its_deadline(
    cluster: PartitionedCluster, urls: list[str]
) -> None:
    opener, other = cluster.client(0), cluster.client(1)
    table = created_in(
        2,
        lambda: opener.create_table(
            "taradinho",
            seats=4,
            dealer=0,
            deal=TARADINHO_DEAL,
            options={"claim_window_ms": WINDOW_MS},
        ),
    )
    assert opener.propose(table.id, table.tokens[1], {"type": "draw"})["accepted"]
    assert opener.propose(table.id, table.tokens[1], {"type": "discard", "card": "5C"})["accepted"]
    assert opener.propose(table.id, table.tokens[3], SEAT_3_CLAIM)["outcome"] == "pending"
    version = int(opener.view(table.id)["version"])
    after = wait_for_version(other, table, version + 1)
    assert after["melds"][0]["cards"] == ["3C", "4C", "5C"]
    time.sleep(WINDOW_MS / 1000)  # long enough for a second close, if a process made one
    with psycopg.connect(urls[1]) as db:
        closes = db.execute(
            "SELECT count(*) FROM proposals WHERE table_id = %s AND move LIKE %s",
            (table.id, '%"close_window"%'),
        ).fetchone()
    assert closes == (1,)


def test_databases_given_in_another_order_are_refused_at_start(
    cluster: PartitionedCluster, urls: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "serve", "--port", "0"]
        + ["--store", urls[1], "--store", urls[0]],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "is database 2 of its deployment, given as database 1" in done.stderr


@ONLY_IN_MAKE_CLUSTER
def test_kill_9_of_one_database_loses_nothing_while_the_other_s_tables_play(
    tmp_path: Path,
) -> None:
    servers = [RestartablePostgres(tmp_path), RestartablePostgres(tmp_path)]
    try:
        killed_and_back(servers)
    finally:
        for server in servers:
            server.cleanup()


def killed_and_back(servers: list[RestartablePostgres]) -> None:
    cluster = PartitionedCluster([server.url for server in servers], 2)
    clients = Clients(cluster)
    ledger = Ledger()
    tables = [created_in(n, lambda: clients.call(creating(0))) for n in (1, 1, 2, 2)]
    for table in tables:
        ledger.open(table.id)
    during_outage: dict[str, int] = {}

    def kill_once() -> None:
        if not ledger.wait_for_total(MOVES_EACH, timeout_s=60):
            return
        servers[1].kill()
        before = {t.id: ledger.version(t.id) for t in tables[:2]}
        time.sleep(OUTAGE_S)
        during_outage.update({t.id: ledger.version(t.id) - before[t.id] for t in tables[:2]})
        servers[1].start()

    players = [
        threading.Thread(target=play, args=(clients, table, MOVES_EACH, ledger, n))
        for n, table in enumerate(tables)
    ]
    killer = threading.Thread(target=kill_once)
    try:
        for thread in [*players, killer]:
            thread.start()
        for thread in [*players, killer]:
            thread.join()
    finally:
        codes = cluster.stop()
    assert during_outage and all(moves > 0 for moves in during_outage.values()), during_outage
    print(
        f"database 2 down {OUTAGE_S:.0f} s: database 1's tables made "
        f"{sorted(during_outage.values())} moves meanwhile; failures {dict(clients.failures)}"
    )
    store = open_databases([server.url for server in servers])
    try:
        audit = ledger.audit(store)
    finally:
        store.close()
    assert (audit.lost, audit.doubled) == (0, 0)
    assert audit.acknowledged == MOVES_EACH * len(tables)
    assert clients.failures["UNAVAILABLE"] > 0, clients.failures  # the second's tables saw it
    assert set(clients.failures) == {"UNAVAILABLE"}, clients.failures  # ...and nothing else
    assert codes == [0, 0]
