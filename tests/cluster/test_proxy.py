"""A real proxy in front (issue 30, point 2): HAProxy, run from the shipped deploy/haproxy.cfg,
in front of three referee processes on one PostgreSQL. Each table's calls, gRPC and HTTP alike,
land on one process while all are up, and calls without the table header go round robin; a
process killed with kill -9 has its tables served by the others with no acknowledged move lost
and its watchers resumed; restarted on its address, it gets its tables back.

The watchers are the Python client's own watch, which opens a broken stream again from the last
version it gave (docs/deploying.md, "Restarting processes one at a time")."""

from __future__ import annotations

import random
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from referee.api.v1 import referee_pb2 as pb
from referee.server.convert import data_to_struct
from referee.store.postgres import PostgresStore
from referee_client.client import TABLE_HEADER, TOKEN_HEADER, RefereeClient, TableHandle
from tests.cluster.cluster import Cluster, scaled
from tests.cluster.playing import play
from tests.cluster.proxy import HAPROXY, SHIPPED, Backend, Haproxy, configured
from tests.harden.ledger import Ledger, draw_or_discard
from tests.support.postgres_server import fresh_database
from tests.web.web_support import Http, bearer

# the module's tests share its processes: one worker runs them all
pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("cluster-proxy"),
    pytest.mark.skipif(not HAPROXY.exists(), reason="no /usr/sbin/haproxy: `make haproxy`"),
]

PROCESSES = 3
TABLES = 12  # on three processes by a hash: some on each, all but surely
MOVES = scaled(900)  # acknowledged over all tables, a third before the kill, during, after
RETRY_FOR_S = 30.0
WATCH_TIMEOUT_S = 20.0
T = TypeVar("T")


@dataclass(frozen=True)
class Proxied:
    cluster: Cluster
    proxy: Haproxy


@pytest.fixture(scope="module")
def proxied(pg_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    """Three processes, each with its HTTP port, behind HAProxy, every server up."""
    with fresh_database(pg_server) as url:
        cluster = Cluster(url, PROCESSES, http=True)
        try:
            proxy = Haproxy(tmp_path_factory.mktemp("haproxy"), backends(cluster))
            try:
                proxy.wait_until_up()
                yield Proxied(cluster, proxy)
            finally:
                proxy.stop()
        finally:
            cluster.stop()


def backends(cluster: Cluster) -> list[Backend]:
    return [
        Backend(process.address, f"127.0.0.1:{port}")
        for process, port in zip(cluster.processes, cluster.http_ports, strict=True)
    ]


def judged_by(cluster: Cluster, processes: Sequence[int]) -> dict[str, Counter[int]]:
    """For each table, how many of its proposals each of `processes` judged (its log's
    `verdict` lines)."""
    judged: dict[str, Counter[int]] = {}
    for index in processes:
        for line in cluster.events(index, "verdict"):
            judged.setdefault(line["table"], Counter())[index] += 1
    return judged


def next_move(client: RefereeClient, table: TableHandle, rng: random.Random) -> tuple[int, Any]:
    seat = int(client.view(table.id)["to_act"])
    return seat, draw_or_discard(client.view(table.id, table.tokens[seat]), rng)


def test_the_tests_run_the_shipped_configuration() -> None:
    """Given the shipped addresses, the tests' configuration is the shipped file byte for byte:
    they change addresses alone. HAProxy accepts it as it is."""
    shipped = SHIPPED.read_text()
    binds = {"grpc": "127.0.0.1:50051", "http": "127.0.0.1:8080"}
    servers = {
        "referee_grpc": [f"127.0.0.1:5006{n}" for n in (1, 2, 3)],
        "referee_http": [f"127.0.0.1:808{n}" for n in (1, 2, 3)],
    }
    assert configured(shipped, binds, servers) == shipped
    four = configured(shipped, binds, {name: [*a, "10.0.0.4:1"] for name, a in servers.items()})
    assert "server referee4 10.0.0.4:1 proto h2\n" in four
    assert "server referee4 10.0.0.4:1 track referee_grpc/referee4\n" in four
    checked = subprocess.run([HAPROXY, "-c", "-f", SHIPPED], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_health_check_tells_a_serving_process_from_a_stopping_one(tmp_path: Path) -> None:
    """The shipped check against two gRPC health services: SERVING is up, NOT_SERVING (what a
    referee answers from SIGTERM on) is down; each turned the other way, the servers follow."""
    servers = [grpc.server(futures.ThreadPoolExecutor(2)) for _ in range(2)]
    statuses = [health.HealthServicer() for _ in servers]
    addresses = []
    for server, status in zip(servers, statuses, strict=True):
        health_pb2_grpc.add_HealthServicer_to_server(status, server)
        addresses.append(f"127.0.0.1:{server.add_insecure_port('127.0.0.1:0')}")
        server.start()
    serving, not_serving = (
        health_pb2.HealthCheckResponse.SERVING,
        health_pb2.HealthCheckResponse.NOT_SERVING,
    )
    statuses[0].set("", serving)
    statuses[1].set("", not_serving)
    try:
        proxy = Haproxy(tmp_path, [Backend(a, a) for a in addresses])
        try:
            proxy.wait_for({"referee1": "UP", "referee2": "DOWN"})
            statuses[0].set("", not_serving)  # stopping: out
            statuses[1].set("", serving)  # back: in
            proxy.wait_for({"referee1": "DOWN", "referee2": "UP"})
        finally:
            proxy.stop()
    finally:
        for server in servers:
            server.stop(None)


def test_every_call_of_a_table_lands_on_one_process(proxied: Proxied) -> None:
    """Moves made through the proxy, one by gRPC and the next by HTTP, each naming its table:
    all of a table's are judged by one process, the tables spread over the three. Tables are
    created without the header (no table yet): round robin, each process some. The control:
    proposals of an older client, without the header, go round robin too."""
    cluster, proxy = proxied.cluster, proxied.proxy
    client = RefereeClient(proxy.grpc_address)
    http = Http(proxy.http_port)
    created = [len(cluster.events(i, "table_created")) for i in range(PROCESSES)]
    tables = [client.create_table("pontinho", seats=3, seed=n) for n in range(TABLES)]
    assert all(
        len(cluster.events(i, "table_created")) > created[i] for i in range(PROCESSES)
    )  # round robin
    rng = random.Random(1)
    for number in range(4):
        for table in tables:
            seat, move = next_move(client, table, rng)
            if number % 2:
                headers = {TABLE_HEADER: table.id, **bearer(table.tokens[seat])}
                path = f"/v1/tables/{table.id}/moves"
                body = {"move": {"type": move.pop("type"), "fields": move}}
                assert http.call("POST", path, body, headers=headers).status == 200
            else:
                assert client.propose(table.id, table.tokens[seat], move)["accepted"]
    judged = judged_by(cluster, range(PROCESSES))
    assert all(sum(judged[t.id].values()) == 4 for t in tables)
    assert all(len(judged[t.id]) == 1 for t in tables), judged  # one process a table
    assert len({process for t in tables for process in judged[t.id]}) > 1  # spread

    older = tables[0]  # the control
    for _ in range(2 * PROCESSES):
        seat, move = next_move(client, older, rng)
        fields = data_to_struct({k: v for k, v in move.items() if k != "type"})
        request = pb.ProposeRequest(
            table_id=older.id, move=pb.Move(type=move["type"], fields=fields)
        )
        client.stub.Propose(request, metadata=((TOKEN_HEADER, older.tokens[seat]),))
    assert len(judged_by(cluster, range(PROCESSES))[older.id]) == PROCESSES


class Retrying:
    """Calls through the proxy, each made again unchanged (a proposal keeps its move id) until
    it is answered: what a client does while a process goes away."""

    def __init__(self, client: RefereeClient) -> None:
        self.client = client
        self.failures: Counter[str] = Counter()  # status codes of the calls that failed
        self._lock = threading.Lock()

    def call(self, action: Callable[[RefereeClient], T]) -> T:
        given_up_at = time.monotonic() + RETRY_FOR_S
        while True:
            try:
                return action(self.client)
            except grpc.RpcError as error:
                with self._lock:
                    self.failures[error.code().name] += 1
                if time.monotonic() > given_up_at:
                    raise
                time.sleep(0.02)


def play_all(
    calls: Retrying,
    tables: Sequence[TableHandle],
    moves: int,
    ledger: Ledger,
    during: Callable[[], None] = lambda: None,
) -> None:
    """Every table on to version `moves`, a client thread each, `during()` beside them."""
    with ThreadPoolExecutor(len(tables) + 1) as pool:
        meanwhile = pool.submit(during)
        players = [
            pool.submit(play, calls, table, moves, ledger, number)
            for number, table in enumerate(tables)
        ]
        for player in players:
            player.result()
        meanwhile.result()


class Watching:
    """A table watched through the proxy by the client's watch, which resumes a broken stream
    from the last version it gave, read in a thread of its own up to version `until`: the
    versions it gave, the status codes of the breaks it resumed after, and the error that ended
    it, if one did."""

    def __init__(self, address: str, table_id: str, until: int) -> None:
        self.versions: list[int] = []
        self.breaks: Counter[str] = Counter()
        self.error: grpc.RpcError | None = None
        self._client = RefereeClient(address)
        self._thread = threading.Thread(target=self._watch, args=(table_id, until), daemon=True)
        self._thread.start()

    def _watch(self, table_id: str, until: int) -> None:
        def count(error: grpc.RpcError) -> None:
            self.breaks[error.code().name] += 1

        try:
            for update in self._client.watch(table_id, on_resume=count):
                self.versions.append(update["version"])
                if update["version"] >= until:
                    return
        except grpc.RpcError as error:  # it gave up, or the channel closed at the end
            self.error = error

    def seen(self) -> list[int]:
        """The versions seen, once it reached `until` (or its time is up); the watch closed."""
        self._thread.join(WATCH_TIMEOUT_S)
        self._client.close()  # ends a stream still open: its thread stops
        return self.versions


def test_a_killed_process_s_tables_move_to_the_others_and_come_back(proxied: Proxied) -> None:
    """Twelve tables played through the proxy and watched through it. The process holding the
    most of them is killed with kill -9 mid-play: its tables go on, judged by the others (a
    call in flight is made again by its client, a proposal with its move id), its watchers
    resume there. Restarted on its address, it judges its own tables again, and only those;
    the others' tables never moved. Every acknowledged move is in the store once, at its
    version, and every watcher saw every version once, in order."""
    cluster, proxy = proxied.cluster, proxied.proxy
    calls = Retrying(RefereeClient(proxy.grpc_address))
    tables = [calls.client.create_table("pontinho", seats=3) for _ in range(TABLES)]
    ledger = Ledger()
    for table in tables:
        ledger.open(table.id)
    phase = -(-MOVES // (3 * TABLES))  # moves a table in each third
    watchers = [Watching(proxy.grpc_address, table.id, 3 * phase) for table in tables]

    play_all(calls, tables, phase, ledger)
    owners = {t: next(iter(by)) for t, by in judged_by(cluster, range(PROCESSES)).items()}
    victim = Counter(owners[t.id] for t in tables).most_common(1)[0][0]
    its_tables = {t.id for t in tables if owners[t.id] == victim}
    others = [i for i in range(PROCESSES) if i != victim]

    def kill_mid_play() -> None:
        ledger.wait_for_total(TABLES * phase + TABLES * phase // 3, RETRY_FOR_S)
        cluster.kill(victim)

    play_all(calls, tables, 2 * phase, ledger, kill_mid_play)
    proxy.wait_for({proxy.names[victim]: "DOWN"})
    while_down = judged_by(cluster, others)
    assert all(while_down[t] for t in its_tables)  # its tables went on elsewhere
    cluster.restart(victim, same_address=True)
    proxy.wait_for({proxy.names[victim]: "UP"})
    before = judged_by(cluster, others)

    play_all(calls, tables, 3 * phase, ledger)
    assert set(judged_by(cluster, [victim])) == its_tables  # they came back, and only they
    after = judged_by(cluster, others)
    assert all(after[t] == before[t] for t in its_tables)
    for table in tables:
        if table.id not in its_tables:  # never moved: judged by their first process alone
            assert set(after[table.id]) == {owners[table.id]}

    seen = [watcher.seen() for watcher in watchers]
    assert all(versions == list(range(1, 3 * phase + 1)) for versions in seen), seen
    resumed = sum((watcher.breaks for watcher in watchers), Counter[str]())
    assert sum(resumed.values()) >= len(its_tables), resumed  # each of its watchers broke
    # a call in flight is refused (RST_STREAM, REFUSED_STREAM); a stream in flight ends with no
    # status (a DATA frame ends it, no trailers): its client makes it again or resumes
    assert set(calls.failures) <= {"UNAVAILABLE"}, calls.failures
    assert set(resumed) <= {"UNKNOWN", "UNAVAILABLE"}, resumed
    assert [watcher.error for watcher in watchers] == [None] * TABLES
    store = PostgresStore(cluster.url)
    try:
        audit = ledger.audit(store)
    finally:
        store.close()
    assert (audit.lost, audit.doubled, audit.unacknowledged) == (0, 0, 0)
    assert audit.acknowledged == 3 * phase * TABLES
    print(f"failed calls, made again: {dict(calls.failures)}; watch breaks: {dict(resumed)}")
