"""Helpers for the tests of a served referee (tests/server, and harden, cluster, web, engine): the
server as a process, a real server in the test's process, a small game client over real gRPC,
Watch streams read in a thread, stacked deals, and view inspection."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import Server, ServerConfig, create_server
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move
from referee.server.convert import data_to_struct
from referee.service import RefereeService
from referee.store.base import Store
from referee_client import RefereeClient
from tests.support import served
from tests.support.named_fields import named_fields

MAX_MESSAGE_BYTES = 64 * 1024  # the test server's limit (the real default is 1 MiB)
ROOT = served.ROOT
START_TIMEOUT_S = 30

# Seat 1 (after the dealer, seat 0) acts first; every hand is distinct from the others and from
# the turned card, so a card code in a view tells whose card it is. Jokers: 9S, 9C (turned 9D).
DEAL: dict[str, Any] = {
    "hands": {
        1: ["5C", "6C", "7C", "8C", "KH", "KS", "2D", "3D", "JH"],
        2: ["4S", "4H", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
        0: ["2S", "3S", "5H", "6H", "JD", "JS", "KC", "AD", "7S"],
    },
    "turned": "9D",
    "stock": ["4C", "TH", "5S"],  # seat 1 draws 4C, seat 2 draws TH
}


class ServerProcess:
    """`python -m referee serve --port 0 --db FILE --allow-stacked` (or with `store`, the flags
    naming another store: `--store URL`), reached through its printed port."""

    def __init__(self, db: Path | None = None, *, store: Sequence[str] = ()) -> None:
        where = ["--db", str(db)] if db is not None else list(store)
        # read back when a stop goes wrong; closed by `stop`
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
        self.process = served.start(*where, "--allow-stacked", stderr=self.log)
        self.address = served.address(self.process)  # blocks until the port is bound
        self.channel = grpc.insecure_channel(self.address)
        grpc.channel_ready_future(self.channel).result(timeout=START_TIMEOUT_S)
        self.stub = RefereeStub(self.channel)

    def kill(self) -> None:
        self.stop(signal.SIGKILL)

    def stop(self, signum: signal.Signals = signal.SIGTERM) -> int:
        """Signal the process, then close the channel: calls in flight see the server go."""
        self.process.send_signal(signum)
        try:
            code = self.process.wait(timeout=START_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            code = None
        self.channel.close()
        assert self.process.stdout is not None
        self.process.stdout.close()
        self.log.seek(0)
        said = self.log.read()
        self.log.close()
        assert code is not None, f"the server did not stop; its last words:\n{said[-4000:]}"
        assert "Thread 0x" not in said, f"the server's stop stalled (faulthandler):\n{said[-4000:]}"
        return code


def seat_metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    return () if token is None else (("x-seat-token", token),)


@dataclass
class OpenTable:
    """A table created through the API, with every seat's token: the tests' game client."""

    stub: referee_pb2_grpc.RefereeStub
    table_id: str
    tokens: dict[int, str]
    commitment: str

    def propose(
        self,
        seat: int,
        move_type: str,
        *,
        move_id: str = "",
        expected_version: int | None = None,
        token: str | None = None,
        **fields: Any,
    ) -> pb.Verdict:
        request = pb.ProposeRequest(
            table_id=self.table_id,
            move_id=move_id,
            move=pb.Move(type=move_type, fields=data_to_struct(fields)),
            expected_version=expected_version,
        )
        response: pb.ProposeResponse = self.stub.Propose(
            request, metadata=seat_metadata(token or self.tokens[seat])
        )
        return response.verdict

    def view(self, seat: int | None) -> dict[str, Any]:
        token = None if seat is None else self.tokens[seat]
        response = self.stub.GetView(
            pb.GetViewRequest(table_id=self.table_id), metadata=seat_metadata(token)
        )
        return named_fields(response.view)

    def version(self) -> int:
        return int(self.stub.GetView(pb.GetViewRequest(table_id=self.table_id)).version)


def open_table(
    stub: referee_pb2_grpc.RefereeStub, deal: dict[str, Any] | None = None, **request: Any
) -> OpenTable:
    request.setdefault("game", "pontinho")
    request.setdefault("seats", 3)
    response = stub.CreateTable(pb.CreateTableRequest(deal=data_to_struct(deal or DEAL), **request))
    tokens = {t.seat: t.token for t in response.seats}
    return OpenTable(stub, response.table_id, tokens, response.commitment)


def full_view(store: Store, games: dict[str, Game], table_id: str) -> dict[str, Any]:
    """The adjudicator's view, rebuilt from the store (the API never shows it to anyone)."""
    record = store.load_table(table_id)
    setup = TableSetup.from_data(record.setup)
    moves = [(m.seat, Move.from_data(m.move)) for m in record.moves]
    return Table.replay(games[setup.game], setup, moves).view(ADJUDICATOR)


def strings_in(data: Any) -> set[str]:
    """Every string anywhere in `data`, keys included."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return {s for k, v in data.items() for s in strings_in(k) | strings_in(v)}
    if isinstance(data, (list, tuple)):
        return {s for item in data for s in strings_in(item)}
    return set()


def status_of(call: Any) -> grpc.StatusCode:
    """The status code of a call expected to fail."""
    with pytest.raises(grpc.RpcError) as failure:
        call()
    return failure.value.code()


# Seat 1 can go out on its first turn: draw KD, lay three sequences, discard KD.
GOING_OUT_DEAL: dict[str, Any] = {
    "hands": {
        1: ["3H", "4H", "5H", "6S", "7S", "8S", "2C", "3C", "4C"],
        2: ["4S", "4D", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
        0: ["2S", "3S", "5D", "6H", "JD", "JS", "KC", "AD", "7D"],
    },
    "turned": "9D",
    "stock": ["KD", "TH", "5S"],
}
GOING_OUT_MELDS = [["3H", "4H", "5H"], ["6S", "7S", "8S"], ["2C", "3C", "4C"]]


@contextlib.contextmanager
def stub_of(service: RefereeService, config: ServerConfig) -> Iterator[RefereeStub]:
    """A stub of a real server for `service` with `config` (`serving`), on a channel of its own."""
    with serving(service, config) as address, grpc.insecure_channel(address) as channel:
        yield RefereeStub(channel)


@contextlib.contextmanager
def serving(service: RefereeService, config: ServerConfig) -> Iterator[str]:
    """A real server for `service` with `config`, on a free port: its address; then stopped."""
    server, port = create_server(service, config=config)
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        service.close()
        server.stop(None).wait()


JUST_BEFORE_S = 2**-10  # a moment (binary-exact, so a manual clock's sums are exact)
WAIT_S = 10.0  # give up waiting for an event after this


class Watcher:
    """One Watch stream read in a thread, as a live client would; each update timestamped."""

    def __init__(
        self, client: RefereeClient, table_id: str, from_version: int, token: str | None = None
    ) -> None:
        self.stream = client.watch(table_id, token, from_version=from_version)
        self.received: list[tuple[float, dict[str, Any]]] = []
        self.error: grpc.RpcError | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for update in self.stream:
                self.received.append((time.monotonic(), update))
        except grpc.RpcError as error:  # the channel closed under the stream at teardown
            self.error = error

    def wait_for(self, kind: str, timeout_s: float = WAIT_S) -> tuple[float, dict[str, Any]]:
        """The first update carrying an event of `kind`, with the time it arrived."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for when, update in list(self.received):
                if any(e["kind"] == kind for e in update["events"]):
                    return when, update
            time.sleep(0.005)
        seen = [[e["kind"] for e in u["events"]] for _, u in self.received]
        raise AssertionError(f"no `{kind}` event within {timeout_s} s; received {seen}")


def serve(service: RefereeService) -> tuple[Server, str]:
    server, port = create_server(service, "127.0.0.1", 0)
    server.start()
    return server, f"127.0.0.1:{port}"


class StubWatcher:
    """One Watch stream of an `OpenTable` read in a thread, as a live client would; its responses
    as they came (`Watcher`: the same through a `RefereeClient`)."""

    def __init__(self, table: OpenTable, seat: int | None, from_version: int = 0) -> None:
        token = None if seat is None else table.tokens[seat]
        request = pb.WatchRequest(table_id=table.table_id, from_version=from_version)
        self.call = table.stub.Watch(request, metadata=seat_metadata(token))
        self.received: list[pb.WatchResponse] = []
        self.error: grpc.RpcError | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for response in self.call:
                self.received.append(response)
        except grpc.RpcError as error:
            self.error = error

    def wait_for(self, count: int, timeout_s: float = 5.0) -> list[pb.WatchResponse]:
        deadline = time.monotonic() + timeout_s
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(self.received) >= count, f"got {len(self.received)} of {count} moves"
        return self.received

    def events(self) -> list[dict[str, Any]]:
        return [{"kind": e.kind, **named_fields(e.data)} for r in self.received for e in r.events]

    def close(self) -> None:
        self.call.cancel()
        self.thread.join(timeout=5)


# Taradinho, 4 seats, dealer 0 (the claim window's tests): seat 1 plays first; play order 1, 2,
# 3, 0. Seat 1 discards 5C: seat 3 can claim it with 3C 4C, seat 0 with 6C 7C, seat 2 (in turn
# after seat 1) with 5S 5H.
TARADINHO_DEAL: dict[str, Any] = {
    "hands": {
        "1": ["5C", "2H", "KH", "KD", "QH", "JD", "TD", "8S", "7S"],
        "2": ["5S", "5H", "2S", "3S", "JC", "QC", "AD", "8C", "6D"],
        "3": ["3C", "4C", "8H", "TH", "8D", "6S", "7D", "AS", "4H"],
        "0": ["6C", "7C", "JS", "QS", "KS", "2D", "3D", "4D", "5D"],
    },
    "turned": "9D",
    "stock": ["AH", "2C", "TC"],
}
SEAT_3_CLAIM = {"type": "take_discard", "meld": ["3C", "4C", "5C"]}
