"""The Python client's watch outlives its referee: the serving process is killed with kill -9
mid-watch and started again on its address and its SQLite file, and the watch goes on from the
last version it gave, every version once, in order. The control: the same watch with `resume=0`
raises the break. It gives up after `resume` breaks in a row, and a refusal is raised at once."""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from referee.app import ServerConfig
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_client import RefereeClient
from referee_client import client as client_module
from referee_client.client import RESUME_ATTEMPTS  # the default
from tests.harden.ledger import draw_or_discard
from tests.support.server import ServerProcess, serving

MOVES = 4  # before the kill, and as many after it
WAIT_S = 30.0


class Watching:
    """`client.watch(table_id, resume=resume)` read in a thread up to version `until`: the
    versions it gave, the breaks it resumed after, and the error that ended it, if one did."""

    def __init__(
        self, address: str, table_id: str, until: int, resume: int = RESUME_ATTEMPTS
    ) -> None:
        self.versions: list[int] = []
        self.resumed_after: list[grpc.StatusCode] = []
        self.error: grpc.RpcError | None = None
        self._client = RefereeClient(address)
        self._watch = self._client.watch(
            table_id, resume=resume, on_resume=lambda e: self.resumed_after.append(e.code())
        )
        self._until = until
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for update in self._watch:
                self.versions.append(update["version"])
                if update["version"] >= self._until:
                    return
        except grpc.RpcError as error:
            self.error = error

    def wait_for(self, version: int) -> None:
        give_up = time.monotonic() + WAIT_S
        while self.versions[-1:] < [version] and time.monotonic() < give_up:
            time.sleep(0.02)

    def done(self) -> Watching:
        self._thread.join(WAIT_S)
        assert not self._thread.is_alive(), self.versions
        self._client.close()
        return self


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "referee.db"


def play(client: RefereeClient, table_id: str, tokens: dict[int, str], moves: int) -> None:
    rng = random.Random(moves)
    for _ in range(moves):
        seat = int(client.view(table_id)["to_act"])
        verdict = client.propose(
            table_id, tokens[seat], draw_or_discard(client.view(table_id, tokens[seat]), rng)
        )
        assert verdict["accepted"], verdict


@pytest.mark.slow
def test_a_watch_resumes_across_its_referee_s_kill_and_restart(db: Path) -> None:
    """Two watchers of one table, one resuming (the default) and one not, are both at version
    4 when the referee is killed; it starts again on its port and file, and 4 more moves are made.
    The resuming watch gave versions 1 to 8, each once, having resumed after UNAVAILABLE; the
    other raised UNAVAILABLE after version 4."""
    first = ServerProcess(db)
    client = RefereeClient(first.address, channel=first.channel)
    table = client.create_table("pontinho", seats=3, seed=5)
    resuming = Watching(first.address, table.id, 2 * MOVES)
    not_resuming = Watching(first.address, table.id, 2 * MOVES, resume=0)
    play(client, table.id, table.tokens, MOVES)
    resuming.wait_for(MOVES)
    not_resuming.wait_for(MOVES)
    port = first.address.rsplit(":", 1)[1]
    first.kill()

    again = ServerProcess(store=["--db", str(db), "--port", port])  # the later --port wins
    try:
        client = RefereeClient(again.address, channel=again.channel)
        play(client, table.id, table.tokens, MOVES)
        assert resuming.done().versions == list(range(1, 2 * MOVES + 1))
        assert resuming.error is None
        assert resuming.resumed_after and set(resuming.resumed_after) == {
            grpc.StatusCode.UNAVAILABLE
        }
        assert not_resuming.done().versions == list(range(1, MOVES + 1))  # the control
        assert not_resuming.error is not None
        assert not_resuming.error.code() is grpc.StatusCode.UNAVAILABLE
    finally:
        assert again.stop() == 0


def test_a_watch_gives_up_after_its_resume_breaks_in_a_row() -> None:
    """Nobody listens at its address: the watch tries 3 times (the first, and 2 resumed), then
    raises the last UNAVAILABLE. A client closed meanwhile stops it at once."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{unused.getsockname()[1]}"
    breaks: list[grpc.StatusCode] = []
    with RefereeClient(address) as client:
        watch = client.watch("t-1", resume=2, on_resume=lambda e: breaks.append(e.code()))
        with pytest.raises(grpc.RpcError) as raised:
            next(watch)
    assert raised.value.code() is grpc.StatusCode.UNAVAILABLE
    assert breaks == [grpc.StatusCode.UNAVAILABLE] * 2

    closing = RefereeClient(address)  # closed while it waits to resume: it raises the break
    with pytest.raises(grpc.RpcError) as raised:
        next(closing.watch("t-1", on_resume=lambda _: closing.close()))
    assert raised.value.code() is grpc.StatusCode.UNAVAILABLE


def test_a_stream_that_lived_long_starts_the_count_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream open for `RESUME_LIVED_S` before it broke (a quiet table's, cut by a proxy's
    timeout) is not one more break in a row: with that time 0, `resume=2` bears a fifth break,
    and the watch goes on until its client closes."""
    monkeypatch.setattr(client_module, "RESUME_LIVED_S", 0.0)
    monkeypatch.setattr(client_module, "RESUME_WAIT_S", (0.01, 0.01))
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{unused.getsockname()[1]}"
    breaks: list[grpc.StatusCode] = []
    closing = RefereeClient(address)

    def broke(error: grpc.RpcError) -> None:
        breaks.append(error.code())
        if len(breaks) == 5:
            closing.close()

    with pytest.raises(grpc.RpcError):
        next(closing.watch("t-1", resume=2, on_resume=broke))
    assert breaks == [grpc.StatusCode.UNAVAILABLE] * 5


def test_a_refused_watch_is_raised_at_once(games: dict[str, Game]) -> None:
    """NOT_FOUND (no such table) and INVALID_ARGUMENT (a version below 0) are the caller's to
    mend: raised as they come, never resumed."""
    breaks: list[grpc.RpcError] = []
    service = RefereeService(MemoryStore(), games)
    with serving(service, ServerConfig()) as address, RefereeClient(address) as client:
        table = client.create_table("pontinho", seats=3)
        for table_id, from_version, code in (
            ("no-such-table", 0, grpc.StatusCode.NOT_FOUND),
            (table.id, -1, grpc.StatusCode.INVALID_ARGUMENT),
        ):
            with pytest.raises(grpc.RpcError) as raised:
                next(client.watch(table_id, from_version=from_version, on_resume=breaks.append))
            assert raised.value.code() is code
    assert breaks == []
