"""Several referee processes, one PostgreSQL database, one truth (issue 13, point 3): clients
spread over the processes with no table affinity race, resend, freeze a process and watch through
another, and the table's log stays one contiguous history that every process serves alike."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import psycopg
import pytest

from referee_client.client import RefereeClient, TableHandle
from tests.cluster.cluster import ONLY_IN_MAKE_CLUSTER, Cluster, scaled
from tests.harden.ledger import draw_or_discard
from tests.support.postgres_server import fresh_database

# the module's tests share its processes: one worker runs them all
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cluster-one-truth")]

ROUNDS = scaled(200)
CLIENTS = 16
FREEZE_S = 5.0
WATCH_TIMEOUT_S = 10.0


@pytest.fixture(scope="module")
def cluster(pg_server: str) -> Iterator[Cluster]:
    """One cluster for the module (starting four processes takes seconds): each test plays
    tables of its own, and the frozen process is thawed before its test ends."""
    with fresh_database(pg_server) as url:
        running = Cluster(url, 4)
        try:
            yield running
        finally:
            assert all(code == 0 for code in running.stop())


def logged(url: str, table_id: str) -> list[tuple[int, str | None]]:
    """The table's accepted moves as the database holds them: (seq, move id), by seq."""
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT seq, move_id FROM proposals WHERE table_id = %s AND seq IS NOT NULL "
            "ORDER BY seq",
            (table_id,),
        ).fetchall()
    return [(int(seq), move_id) for seq, move_id in rows]


def next_move(client: RefereeClient, table: TableHandle, rng: random.Random) -> tuple[int, Any]:
    seat = int(client.view(table.id)["to_act"])
    return seat, draw_or_discard(client.view(table.id, table.tokens[seat]), rng)


def views(cluster: Cluster, table: TableHandle) -> list[list[dict[str, Any]]]:
    """Every seat's view and the public one, through each process."""
    seats = [*table.tokens.values(), None]
    return [[cluster.client(i).view(table.id, token) for token in seats] for i in range(4)]


def test_sixteen_clients_racing_on_four_processes_make_one_move_a_round(
    cluster: Cluster,
) -> None:
    """Each round all 16 propose the next move at the same `expected_version`, each through the
    process of its number: exactly one is accepted, the others are told the version moved."""
    table = cluster.client(0).create_table("pontinho", seats=3, seed=13)
    rng = random.Random(13)
    start = threading.Barrier(CLIENTS + 1)
    done = threading.Barrier(CLIENTS + 1)
    this_round: dict[str, Any] = {}
    outcomes: list[list[str]] = [[] for _ in range(ROUNDS)]
    lock = threading.Lock()

    def racer(number: int) -> None:
        client = cluster.client(number)
        for round_ in range(ROUNDS):
            start.wait()
            seat, move, version = this_round["seat"], this_round["move"], this_round["version"]
            try:
                verdict = client.propose(
                    table.id,
                    table.tokens[seat],
                    move,
                    move_id=f"{round_}-{number}",
                    expected_version=version,
                )
                said = "accepted" if verdict["accepted"] else f"rejected {verdict['violations']}"
            except grpc.RpcError as error:
                said = error.code().name
            with lock:
                outcomes[round_].append(said)
            done.wait()

    with ThreadPoolExecutor(CLIENTS) as pool:
        racers = [pool.submit(racer, number) for number in range(CLIENTS)]
        for round_ in range(ROUNDS):
            seat, move = next_move(cluster.client(round_), table, rng)
            this_round.update(seat=seat, move=move, version=round_)
            start.wait()
            done.wait()
        for finished in racers:
            finished.result()

    for round_, said in enumerate(outcomes):
        assert sorted(said) == ["ABORTED"] * (CLIENTS - 1) + ["accepted"], (round_, said)
    log = logged(cluster.url, table.id)
    assert [seq for seq, _ in log] == list(range(1, ROUNDS + 1))  # contiguous, each once
    assert len({move_id for _, move_id in log}) == ROUNDS
    first, *others = views(cluster, table)
    assert first[-1]["version"] == ROUNDS and all(seen == first for seen in others)


@ONLY_IN_MAKE_CLUSTER  # a process frozen for seconds: make cluster's
def test_a_frozen_process_judges_on_fresh_state_when_it_wakes(cluster: Cluster) -> None:
    """Process 1 caches the table, is frozen (SIGSTOP) while process 0 moves it on, and gets a
    move that was legal at its stale version: thawed, it catches up and rejects it; a move
    legal now is accepted as the next version; the log never forks."""
    rng = random.Random(7)
    table = cluster.client(0).create_table("pontinho", seats=3, seed=7)
    stale_seat, stale_move = next_move(cluster.client(1), table, rng)  # cached by process 1
    cluster.freeze(1)
    try:
        for _ in range(4):  # two turns: stale_seat's draw is out of turn
            seat, move = next_move(cluster.client(0), table, rng)
            assert cluster.client(0).propose(table.id, table.tokens[seat], move)["accepted"]
        with ThreadPoolExecutor(1) as pool:
            late = pool.submit(
                cluster.client(1).propose, table.id, table.tokens[stale_seat], stale_move
            )
            time.sleep(FREEZE_S)  # the call waits in process 1's socket, unread
            cluster.thaw(1)
            verdict = late.result(timeout=WATCH_TIMEOUT_S)
    finally:
        cluster.thaw(1)
    assert not verdict["accepted"] and verdict["version"] == 4
    assert [v["rule"] for v in verdict["violations"]] == ["GEN-7"]  # not its turn, as it is now
    seat, move = next_move(cluster.client(0), table, rng)
    assert cluster.client(1).propose(table.id, table.tokens[seat], move)["version"] == 5
    assert [seq for seq, _ in logged(cluster.url, table.id)] == list(range(1, 6))
    first, *others = views(cluster, table)
    assert all(seen == first for seen in others)


def test_a_move_id_resent_to_another_process_gets_its_first_verdict(cluster: Cluster) -> None:
    rng = random.Random(3)
    table = cluster.client(0).create_table("pontinho", seats=3, seed=3)
    seat, move = next_move(cluster.client(0), table, rng)
    first = cluster.client(0).propose(table.id, table.tokens[seat], move, move_id="m-1")
    out_of_turn = (seat + 1) % 3
    refused = cluster.client(1).propose(table.id, table.tokens[out_of_turn], move, move_id="m-2")
    assert first["accepted"] and not refused["accepted"]
    for process in (1, 2, 3):
        client = cluster.client(process)
        assert client.propose(table.id, table.tokens[seat], move, move_id="m-1") == first
        assert client.propose(table.id, table.tokens[out_of_turn], move, move_id="m-2") == refused
    assert logged(cluster.url, table.id) == [(1, "m-1")]  # nothing twice


def test_a_watcher_on_one_process_sees_the_moves_made_through_the_others(
    cluster: Cluster,
) -> None:
    """Watching through process 3, the public and seat 1 see every move made through processes
    0-2, in order, none missing or twice, each exactly as the same watcher sees it through
    process 0, which made a third of the moves (what a watcher may see is the one-process
    tests' concern: tests/redaction). The delay from a verdict to its arrival on another
    process is printed; `make bench-cluster` measures it."""
    rng = random.Random(5)
    table = cluster.client(0).create_table("pontinho", seats=3, seed=5)
    moves = 30
    watchers = [(process, token) for process in (3, 0) for token in (None, table.tokens[1])]
    arrivals: dict[tuple[int, str | None], list[tuple[float, dict[str, Any]]]] = {
        watcher: [] for watcher in watchers
    }

    def watch(process: int, token: str | None) -> None:
        for update in cluster.client(process).watch(table.id, token):
            arrivals[process, token].append((time.monotonic(), update))
            if update["version"] == moves:
                return

    with ThreadPoolExecutor(len(watchers)) as pool:
        streams = [pool.submit(watch, *watcher) for watcher in watchers]
        time.sleep(0.5)  # every stream open before the first move
        answered: list[float] = []
        for number in range(moves):
            client = cluster.client(number % 3)
            seat, move = next_move(client, table, rng)
            assert client.propose(table.id, table.tokens[seat], move)["accepted"]
            answered.append(time.monotonic())
        for stream in streams:
            stream.result(timeout=WATCH_TIMEOUT_S)

    seen = {watcher: [update for _, update in arrived] for watcher, arrived in arrivals.items()}
    for process, token in watchers:
        assert [update["version"] for update in seen[process, token]] == list(range(1, moves + 1))
        assert seen[process, token] == seen[0, token]
    assert seen[3, None] != seen[3, table.tokens[1]]  # seat 1 sees the cards it draws
    delays = [
        arrived - sent for (arrived, _), sent in zip(arrivals[3, None], answered, strict=True)
    ]
    print(f"watch delay across processes: max {max(delays) * 1000:.1f} ms")


def test_the_processes_deal_fair_and_alike(cluster: Cluster) -> None:
    """Tables made through different processes are dealt by their own fresh seeds, and each is
    served alike by all four."""
    tables = [cluster.client(i).create_table("pontinho", seats=3) for i in range(4)]
    assert len({t.commitment for t in tables}) == 4
    for table in tables:
        first, *others = views(cluster, table)
        assert all(seen == first for seen in others)


def test_moves_through_alternating_processes_make_one_game(cluster: Cluster) -> None:
    """A whole hand, each move through the next process: each process judges on the state the
    one before left, as one process would."""
    rng = random.Random(11)
    table = cluster.client(0).create_table("pontinho", seats=3, seed=11)
    for number in range(60):
        client = cluster.client(number)
        seat, move = next_move(client, table, rng)
        assert (
            client.propose(table.id, table.tokens[seat], move, move_id=uuid.uuid4().hex)["version"]
            == number + 1
        )
    assert [seq for seq, _ in logged(cluster.url, table.id)] == list(range(1, 61))
