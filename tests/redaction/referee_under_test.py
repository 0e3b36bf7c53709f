"""A real referee (gRPC, port 0, in-process) and a client that keeps every message each recipient
receives: Propose verdicts, GetView views, Watch streams, error statuses.

Every table has a shadow: the same setup on a local `Table`, fed the moves the server accepts.
The shadow gives the leak oracle the full state at every version (`visibility.Knowledge`) and
checks that the server judged each move as the engine does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.json_format import MessageToDict

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.app import ServerConfig, create_server
from referee.calls.limits import Limits
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import Move
from referee.server.convert import data_to_struct, move_to_proto
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from tests.redaction.visibility import CardFinder, Knowledge, Recipient, texts
from tests.support.named_fields import named_fields

TOKEN_HEADER = "x-seat-token"
WATCH_WAIT_S = 10.0


@contextmanager
def running_referee(games: dict[str, Game]) -> Iterator[referee_pb2_grpc.RefereeStub]:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)  # seeded, as the shadow
    # the test proposes far faster than any seat may: no quotas (tests/server/test_limits.py)
    config = ServerConfig(limits=Limits().without_rates())
    server, port = create_server(service, config=config)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield referee_pb2_grpc.RefereeStub(channel)
    finally:
        service.close()
        server.stop(None)


@dataclass(frozen=True)
class Received:
    """One message as its recipient got it, and the cards named by the request it answers."""

    who: Recipient
    rpc: str
    version: int  # the table's version the message speaks of
    data: Any  # the message as data (`MessageToDict`), or an error's status and details
    named: frozenset[str] = frozenset()
    message: Any = None  # the message itself (None: an error status)


@dataclass(frozen=True)
class Leak:
    received: Received
    cards: tuple[str, ...]

    def __str__(self) -> str:
        who = "the spectator" if self.received.who is None else f"seat {self.received.who}"
        return (
            f"{who} got {list(self.cards)} in {self.received.rpc} at version "
            f"{self.received.version}: {self.received.data}"
        )


class Watcher:
    """One recipient's Watch stream, read on a thread from version 0."""

    def __init__(
        self,
        stub: referee_pb2_grpc.RefereeStub,
        table_id: str,
        metadata: tuple[tuple[str, str], ...],
    ) -> None:
        self.call = stub.Watch(
            pb.WatchRequest(table_id=table_id, from_version=0), metadata=metadata
        )
        self.got: list[pb.WatchResponse] = []
        self.failure: grpc.RpcError | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for response in self.call:
                self.got.append(response)
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.CANCELLED:
                self.failure = error

    def stop(self, version: int) -> list[pb.WatchResponse]:
        """Every move up to `version`, once they have come (or the wait is over)."""
        deadline = time.monotonic() + WATCH_WAIT_S
        while (
            self.thread.is_alive()
            and time.monotonic() < deadline
            and (not self.got or self.got[-1].version < version)
        ):
            time.sleep(0.01)
        self.call.cancel()
        self.thread.join(WATCH_WAIT_S)
        assert self.failure is None, self.failure
        return list(self.got)


class WatchedTable:
    """A table on the referee, every seat's token, its shadow, and what each recipient got."""

    def __init__(self, stub: referee_pb2_grpc.RefereeStub, game: Game, setup: TableSetup) -> None:
        self.stub = stub
        created = stub.CreateTable(
            pb.CreateTableRequest(
                game=game.name,
                options=data_to_struct(setup.options),
                seats=setup.seats,
                dealer=setup.dealer,
                seed=setup.seed,
                balances=setup.balances or {},
                deal=None if setup.deal is None else data_to_struct(setup.deal),
            )
        )
        self.table_id = created.table_id
        self.tokens = {s.seat: s.token for s in created.seats}
        self.shadow = Table.create(game, setup)
        self.finder = CardFinder(game)
        self.recipients: list[Recipient] = [*range(setup.seats), None]
        self.knowledge = {who: Knowledge(who, self.finder) for who in self.recipients}
        for knowledge in self.knowledge.values():
            knowledge.advance(self.shadow.state)
        self.received: list[Received] = []
        self.watchers = {
            who: Watcher(stub, self.table_id, self.metadata(who)) for who in self.recipients
        }

    def metadata(self, who: Recipient, token: str | None = None) -> tuple[tuple[str, str], ...]:
        token = token or (None if who is None else self.tokens[who])
        return () if token is None else ((TOKEN_HEADER, token),)

    def propose(
        self,
        seat: int,
        move: Move,
        *,
        move_id: str = "",
        claimed: int | None = None,
        token: str | None = None,
        retry: bool = False,
    ) -> bool:
        """Propose as `seat` (with its token, or `token`); True when the table moved on.
        A rejection must be the shadow's too (but for a `retry` of a `move_id`: its first
        verdict comes back)."""
        request = pb.ProposeRequest(
            table_id=self.table_id, move=move_to_proto(move), move_id=move_id, seat=claimed
        )
        named = frozenset(self.finder.in_value(move.to_data()))
        try:
            verdict = self.stub.Propose(request, metadata=self.metadata(seat, token)).verdict
        except grpc.RpcError as error:
            self._error(seat, "Propose", error, named)
            return False
        self.received.append(
            Received(seat, "Propose", verdict.version, MessageToDict(verdict), named, verdict)
        )
        if move_id and token is None and claimed in (None, seat):
            self.explain(seat, pb.ExplainRequest(table_id=self.table_id, move_id=move_id), named)
        if verdict.version > self.shadow.version:
            self._follow(seat, move, verdict.version)
            why = pb.ExplainRequest(table_id=self.table_id, version=verdict.version)
            for who in self.recipients:  # an accepted move: anyone may ask why
                self.explain(who, why, named if who == seat else frozenset())
            return True
        if not retry:
            judged = self.shadow.propose(seat, move)
            assert judged.version == verdict.version, (seat, move, "the shadow accepts it")
        return False

    def _follow(self, seat: int, move: Move, version: int) -> None:
        """The server accepted `move`: the shadow must too, and every recipient learns."""
        before = self.shadow.state
        judged = self.shadow.propose(seat, move)
        assert judged.version == version, (move, judged)
        for knowledge in self.knowledge.values():
            knowledge.advance(self.shadow.state, before)

    def _error(
        self, who: Recipient, rpc: str, error: grpc.RpcError, named: frozenset[str] = frozenset()
    ) -> None:
        status = error.code()
        assert status not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN), error
        self.received.append(
            Received(
                who,
                rpc,
                self.shadow.version,
                {"status": status.name, "details": error.details()},
                named,
            )
        )

    def explain(self, who: Recipient, request: pb.ExplainRequest, named: frozenset[str]) -> None:
        """`who` asks why a proposal got its verdict (kept among what `who` got)."""
        try:
            response = self.stub.Explain(request, metadata=self.metadata(who))
        except grpc.RpcError as error:
            self._error(who, "Explain", error, named)
            return
        version = max(self.shadow.version, response.judged_at)
        self.received.append(
            Received(who, "Explain", version, MessageToDict(response), named, response)
        )

    def view(self, who: Recipient) -> dict[str, Any]:
        """`who`'s view, as the server sends it (kept among what `who` got)."""
        response = self.stub.GetView(
            pb.GetViewRequest(table_id=self.table_id), metadata=self.metadata(who)
        )
        self.received.append(
            Received(who, "GetView", response.version, MessageToDict(response), message=response)
        )
        return named_fields(response.view)

    def views(self) -> None:
        for who in self.recipients:
            self.view(who)

    def finish(self) -> None:
        """Collect every Watch stream (each must hold every accepted move, in order)."""
        for who, watcher in self.watchers.items():
            got = watcher.stop(self.shadow.version)
            assert [r.version for r in got] == list(range(1, self.shadow.version + 1)), who
            self.received += [
                Received(who, "Watch", r.version, MessageToDict(r), message=r) for r in got
            ]

    def leaks(self) -> list[Leak]:
        found = []
        for received in self.received:
            knowledge = self.knowledge[received.who]
            cards = knowledge.leaks(texts(received.data), received.version, set(received.named))
            if cards:
                found.append(Leak(received, tuple(sorted(cards))))
        return found
