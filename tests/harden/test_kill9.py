"""`kill -9` during play (issue 10, point 9): no acknowledged move is lost or doubled.

A real `referee serve --port 0 --db FILE` process referees several Pontinho tables, each played by
its own client thread with a `move_id` on every proposal. A killer sends SIGKILL at random moments
(after a random number of acknowledged moves, plus a random few milliseconds, so that some
proposals are in flight) and starts the server again on the same file. Half the kills come after
the server was frozen (SIGSTOP) for a few milliseconds: the proposals sent meanwhile are never
judged, so their retries are judged anew; the other retries mostly find their move committed by
the killed server (a kill lands after the commit's write more often than before it). A client whose call failed
retries the same move with the same `move_id` on the new process, until it is answered. At the end
every table's history in the store is exactly its acknowledged moves, in order, each once.

`HARDEN_SCALE` multiplies the moves (150 at 1; `make test` plays 90); `HARDEN_REPORT=1` prints
the figures.
"""

from __future__ import annotations

import functools
import random
import signal
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from referee.store.sqlite import SqliteStore
from referee_client.client import RefereeClient, TableHandle
from tests.harden.ledger import Ledger, draw_or_discard
from tests.harden.report import STRICT, report, scaled
from tests.support.server import START_TIMEOUT_S, ServerProcess

pytestmark = pytest.mark.slow  # every test here is a long run

SEED = 20261201
MOVES = scaled(150) if STRICT else 90  # acknowledged moves, over all tables (make harden: 1,050)
TABLES = 4  # each played by a client thread of its own
KILL_GAP = (10, 40)  # acknowledged moves between two kills
KILL_JITTER_S = 0.02  # and then up to this long, so that the kill lands mid-call
FREEZE_S = (0.005, 0.03)  # how long a frozen server takes proposals it will never read
T = TypeVar("T")


@dataclass
class Figures:
    kills: int = 0
    frozen: int = 0  # kills of a frozen server
    retries: int = 0  # proposals sent again after a failed call
    already_stored: int = 0  # ... whose move the killed server had committed without answering
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, name: str) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + 1)


class Referee:
    """The server process of the moment: killed and started again on the same file."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.server = ServerProcess(db)
        self.generation = 0
        self._changed = threading.Condition()

    def current(self) -> tuple[int, ServerProcess]:
        with self._changed:
            return self.generation, self.server

    def kill_and_restart(self, freeze_s: float) -> None:
        """SIGKILL, after a freeze (SIGSTOP) of `freeze_s` if not 0; then start again."""
        with self._changed:
            if freeze_s:
                self.server.process.send_signal(signal.SIGSTOP)
                time.sleep(freeze_s)
            self.server.kill()
            self.server = ServerProcess(self.db)
            self.generation += 1
            self._changed.notify_all()

    def wait_past(self, generation: int) -> None:
        """Wait until the server of `generation` was replaced: only a kill makes calls fail."""
        with self._changed:
            replaced = self._changed.wait_for(lambda: self.generation > generation, START_TIMEOUT_S)
        assert replaced, f"a call failed but server {generation} was never killed"


class Unanswered(Exception):
    """A call failed: its server was killed (and has been replaced since)."""


def attempt(referee: Referee, action: Callable[[RefereeClient], T]) -> T:
    """`action` on the current server; `Unanswered` once that server is replaced, if it fails."""
    generation, server = referee.current()
    try:
        return action(RefereeClient(server.address, channel=server.channel))
    except (grpc.RpcError, ValueError) as error:  # ValueError: a call on a killed server's channel
        referee.wait_past(generation)
        raise Unanswered from error


def call(referee: Referee, action: Callable[[RefereeClient], T]) -> T:
    """`action` on the current server, again on the next one until it is answered."""
    while True:
        try:
            return attempt(referee, action)
        except Unanswered:
            continue


def play(
    referee: Referee,
    table: TableHandle,
    moves: int,
    ledger: Ledger,
    rng: random.Random,
    figures: Figures,
) -> None:
    while ledger.version(table.id) < moves:
        version = ledger.version(table.id)
        chosen = call(referee, functools.partial(next_move, table=table, version=version, rng=rng))
        if chosen is None:
            return  # the table lost acknowledged moves: the audit counts them
        seat, move = chosen
        move_id = uuid.uuid4().hex
        propose = proposal(table, seat, move, move_id)
        try:
            verdict = attempt(referee, propose)
        except Unanswered:  # the same move, the same move id, on the next server
            figures.count("retries")
            if call(referee, lambda client: client.view(table.id))["version"] > version:
                figures.count("already_stored")
            verdict = call(referee, propose)
        assert verdict["accepted"], verdict
        ledger.acknowledge(table.id, verdict["version"], move_id)


def proposal(
    table: TableHandle, seat: int, move: dict[str, Any], move_id: str
) -> Callable[[RefereeClient], dict[str, Any]]:
    """The proposal of `move` by `seat`, to make on whichever server is current."""

    def propose(client: RefereeClient) -> dict[str, Any]:
        return client.propose(table.id, table.tokens[seat], move, move_id=move_id)

    return propose


def next_move(
    client: RefereeClient, table: TableHandle, version: int, rng: random.Random
) -> tuple[int, dict[str, Any]] | None:
    """The acting seat and its move; None if the table is not at the acknowledged `version`."""
    public = client.view(table.id)
    if public["version"] != version:
        return None
    seat = int(public["to_act"])
    return seat, draw_or_discard(client.view(table.id, table.tokens[seat]), rng)


def kill_repeatedly(
    referee: Referee, ledger: Ledger, rng: random.Random, figures: Figures, done: threading.Event
) -> None:
    target = rng.randint(*KILL_GAP)
    while not done.is_set() and target < MOVES:
        if ledger.wait_for_total(target, timeout_s=1.0):
            time.sleep(rng.uniform(0, KILL_JITTER_S))
            freeze = rng.random() < 0.5
            referee.kill_and_restart(rng.uniform(*FREEZE_S) if freeze else 0)
            figures.count("kills")
            if freeze:
                figures.count("frozen")
            target = ledger.total() + rng.randint(*KILL_GAP)


def test_kill9_loses_no_acknowledged_move(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    referee, ledger, figures, done = (
        Referee(tmp_path / "referee.db"),
        Ledger(),
        Figures(),
        threading.Event(),
    )
    with RefereeClient(referee.server.address) as client:
        tables = [
            client.create_table("pontinho", seats=3, seed=rng.randrange(2**32))
            for _ in range(TABLES)
        ]
    for table in tables:
        ledger.open(table.id)
    started = time.monotonic()
    with ThreadPoolExecutor(TABLES + 1) as pool:
        killer = pool.submit(kill_repeatedly, referee, ledger, rng, figures, done)
        players = [
            pool.submit(
                play,
                referee,
                table,
                -(-MOVES // TABLES),
                ledger,
                random.Random(rng.random()),
                figures,
            )
            for table in tables
        ]
        try:
            for player in players:
                player.result()
        finally:
            done.set()
        killer.result()
    assert referee.current()[1].stop() == 0
    store = SqliteStore(referee.db)
    audit = ledger.audit(store)
    store.close()
    report(
        "kill -9",
        {
            "moves acknowledged": audit.acknowledged,
            "kills": figures.kills,
            "of a frozen server": figures.frozen,
            "retries": figures.retries,
            "of moves already stored": figures.already_stored,
            "lost": audit.lost,
            "doubled": audit.doubled,
            "stored unacknowledged": audit.unacknowledged,
            "seconds": round(time.monotonic() - started, 1),
        },
    )
    assert (audit.lost, audit.doubled, audit.unacknowledged) == (0, 0, 0)
    assert audit.acknowledged >= MOVES and figures.kills >= MOVES // max(KILL_GAP)
