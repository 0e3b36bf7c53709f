"""Playing a table through a cluster's processes, as the failure tests' clients do: each call on
the next process, a failed call made again (the same `move_id`) until one answers; the
Taradinho claim window's length, and waiting for a table's version."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import grpc

from referee_client.client import RefereeClient, TableHandle
from tests.cluster.cluster import Cluster
from tests.harden.ledger import Ledger, draw_or_discard

RETRY_FOR_S = 60.0  # a call is tried again, process after process, for this long
WINDOW_MS = 1500  # the claim window of the failure tests' Taradinho tables
T = TypeVar("T")


class Clients:
    """Calls spread over the cluster's processes, each call on the next process; a failed call
    is made again, unchanged (the same `move_id`), on the next, until one answers."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.failures: Counter[str] = Counter()  # status codes of the calls that failed
        self._turn = 0
        self._lock = threading.Lock()

    def call(self, action: Callable[[RefereeClient], T]) -> T:
        given_up_at = time.monotonic() + RETRY_FOR_S
        while True:
            with self._lock:
                self._turn += 1
                turn = self._turn
            try:
                return action(self.cluster.client(turn))
            except (grpc.RpcError, ValueError) as error:  # ValueError: a killed process's channel
                code = error.code().name if isinstance(error, grpc.RpcError) else "CLOSED"
                with self._lock:
                    self.failures[code] += 1
                if time.monotonic() > given_up_at:
                    raise
                time.sleep(0.01)


def viewing(table: TableHandle, seat: int | None = None) -> Callable[[RefereeClient], Any]:
    return lambda client: client.view(table.id, None if seat is None else table.tokens[seat])


def proposing(
    table: TableHandle, seat: int, move: dict[str, Any], move_id: str
) -> Callable[[RefereeClient], dict[str, Any]]:
    return lambda client: client.propose(table.id, table.tokens[seat], move, move_id=move_id)


def creating(seed: int) -> Callable[[RefereeClient], TableHandle]:
    return lambda client: client.create_table("pontinho", seats=3, seed=seed)


class Caller(Protocol):
    """What makes a call until it is answered (`Clients`, or a proxy test's own)."""

    def call(self, action: Callable[[RefereeClient], T]) -> T: ...


def play(clients: Caller, table: TableHandle, moves: int, ledger: Ledger, seed: int) -> None:
    """`table` on to version `moves`, each acknowledged move in the ledger."""
    rng = random.Random(seed)
    while ledger.version(table.id) < moves:
        seat = int(clients.call(viewing(table))["to_act"])
        move = draw_or_discard(clients.call(viewing(table, seat)), rng)
        move_id = uuid.uuid4().hex
        verdict = clients.call(proposing(table, seat, move, move_id))
        assert verdict["accepted"], verdict
        ledger.acknowledge(table.id, verdict["version"], move_id)


def wait_for_version(client: RefereeClient, table: TableHandle, version: int) -> dict[str, Any]:
    give_up = time.monotonic() + 10 * WINDOW_MS / 1000
    while (seen := client.view(table.id))["version"] < version:
        assert time.monotonic() < give_up, f"still at version {seen['version']}"
        time.sleep(0.02)
    return seen
