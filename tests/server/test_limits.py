"""Each limit of `serve` refuses with RESOURCE_EXHAUSTED once reached, and only then (issue 10).
Every test has its control: the same calls on a server without that limit all succeed, so the
refusal comes from the limit, not from something else going wrong."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.app import ServerConfig
from referee.calls.limits import NO_LIMIT, Buckets, Limits, Rate
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_client import RefereeClient
from tests.support.server import OpenTable, open_table, status_of
from tests.support.server import serving as support_serving

NONE = NO_LIMIT
UNLIMITED = Limits(concurrent_rpcs=0, streams_per_peer=0).without_rates()
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


@contextlib.contextmanager
def serving(
    games: dict[str, Game], limits: Limits, streams_per_table: int = 64
) -> Iterator[referee_pb2_grpc.RefereeStub]:
    service = RefereeService(
        MemoryStore(), games, max_streams_per_table=streams_per_table, allow_stacked=True
    )
    with (
        support_serving(service, ServerConfig(limits=limits)) as address,
        grpc.insecure_channel(address) as channel,
    ):
        stub = referee_pb2_grpc.RefereeStub(channel)
        stub.channel = channel  # for the health stub (the generated stub is untyped: no check)
        stub.address = address  # for other clients
        yield stub


def views(table: OpenTable, seat: int, count: int) -> list[grpc.StatusCode]:
    """The status of each of `count` GetView calls with seat's token, in a row."""
    codes = []
    for _ in range(count):
        try:
            table.view(seat)
            codes.append(grpc.StatusCode.OK)
        except grpc.RpcError as error:
            codes.append(error.code())
    return codes


@pytest.mark.parametrize("limited", [True, False], ids=["limit", "control"])
def test_a_seat_token_gets_its_rate_and_no_more(games: dict[str, Game], limited: bool) -> None:
    limits = UNLIMITED
    if limited:
        limits = Limits(token_rate=Rate(0.001, 5), peer_rate=NONE, create_rate=NONE)
    with serving(games, limits) as stub:
        table = open_table(stub)
        codes = views(table, 1, 8)
        if not limited:
            assert set(codes) == {grpc.StatusCode.OK}
            return
        assert codes == [grpc.StatusCode.OK] * 5 + [EXHAUSTED] * 3
        assert views(table, 2, 5) == [grpc.StatusCode.OK] * 5  # another seat has its own
        with pytest.raises(grpc.RpcError) as refused:
            table.view(1)
        assert "seat token" in (refused.value.details() or "")
        pushback = {m.key: m.value for m in refused.value.trailing_metadata() or ()}
        assert int(pushback["grpc-retry-pushback-ms"]) > 0  # when to come back


@pytest.mark.parametrize("limited", [True, False], ids=["limit", "control"])
def test_an_address_gets_its_rate_whatever_the_tokens(
    games: dict[str, Game], limited: bool
) -> None:
    limits = Limits(peer_rate=Rate(0.001, 6), token_rate=NONE, create_rate=NONE)
    with serving(games, limits if limited else UNLIMITED) as stub:
        table = open_table(stub)  # one request of the address's six
        codes = views(table, 1, 3) + views(table, 2, 4)
    expected = [grpc.StatusCode.OK] * 5 + [EXHAUSTED] * 2 if limited else [grpc.StatusCode.OK] * 7
    assert codes == expected


@pytest.mark.parametrize("limited", [True, False], ids=["limit", "control"])
def test_an_address_creates_so_many_tables(games: dict[str, Game], limited: bool) -> None:
    limits = Limits(create_rate=Rate(0.001, 3), peer_rate=NONE, token_rate=NONE)
    with serving(games, limits if limited else UNLIMITED) as stub:
        for _ in range(3):
            open_table(stub)
        if limited:
            assert status_of(lambda: open_table(stub)) == EXHAUSTED
        else:
            open_table(stub)
        assert stub.ListGames(pb.ListGamesRequest()).games  # other calls still answer


@pytest.mark.parametrize("limited", [True, False], ids=["limit", "control"])
def test_a_table_has_so_many_watchers(games: dict[str, Game], limited: bool) -> None:
    with serving(games, UNLIMITED, streams_per_table=3 if limited else 64) as stub:
        table, other = open_table(stub), open_table(stub)
        table.propose(1, "draw")
        streams = [open_stream(stub, table) for _ in range(3)]
        try:
            fourth = stub.Watch(pb.WatchRequest(table_id=table.table_id), timeout=2)
            if limited:
                assert status_of(lambda: next(fourth)) == EXHAUSTED
                streams[0].cancel()  # a stream that ends frees its place
                streams[0] = open_stream(stub, table)
            else:
                assert next(fourth).version == 1
            other.propose(1, "draw")
            open_stream(stub, other).cancel()  # other tables are not affected
        finally:
            for stream in streams:
                stream.cancel()


@pytest.mark.parametrize("limited", [True, False], ids=["limit", "control"])
def test_an_address_has_so_many_streams(games: dict[str, Game], limited: bool) -> None:
    limits = Limits(streams_per_peer=2, peer_rate=NONE, token_rate=NONE, create_rate=NONE)
    with serving(games, limits if limited else UNLIMITED) as stub:
        tables = [open_table(stub) for _ in range(3)]
        streams = [stub.Watch(pb.WatchRequest(table_id=t.table_id), timeout=5) for t in tables]
        try:
            for table in tables:
                table.propose(1, "draw")
            assert next(streams[0]).version == next(streams[1]).version == 1
            if limited:
                assert status_of(lambda: next(streams[2])) == EXHAUSTED
            else:
                assert next(streams[2]).version == 1
        finally:
            for stream in streams:
                stream.cancel()


@pytest.mark.parametrize("limited", [True, False], ids=["limit", "control"])
def test_concurrent_calls_are_bounded(games: dict[str, Game], limited: bool) -> None:
    """grpc's maximum_concurrent_rpcs counts open streams too: with 4 allowed and 4 open, a
    fifth call is refused, and goes through once a stream ends."""
    limits = (
        UNLIMITED
        if not limited
        else Limits(
            concurrent_rpcs=4,
            streams_per_peer=100,
            peer_rate=NONE,
            token_rate=NONE,
            create_rate=NONE,
        )
    )
    with serving(games, limits) as stub:
        table = open_table(stub)
        table.propose(1, "draw")
        streams = [open_stream(stub, table) for _ in range(4)]
        try:
            call = functools.partial(table.view, 1)
            if limited:
                assert status_of(call) == EXHAUSTED
                streams[0].cancel()
                _wait_for(call)
            else:
                call()
        finally:
            for stream in streams:
                stream.cancel()


def open_stream(stub: referee_pb2_grpc.RefereeStub, table: OpenTable) -> Any:
    """A Watch stream known to be open on the server: it has sent the table's first move. (The
    slot of a call just answered is freed a moment after its answer: try again.)"""
    for _ in range(50):
        stream = stub.Watch(pb.WatchRequest(table_id=table.table_id))
        try:
            assert next(stream).version == 1
            return stream
        except grpc.RpcError as error:
            assert error.code() == EXHAUSTED
            time.sleep(0.05)
    raise AssertionError("no stream could be opened")


def _wait_for(call: Callable[[], object]) -> None:
    """`call` returns something true (or nothing) without an error within a few tries: a stream
    opened or cancelled takes its place or frees it a moment later."""
    for _ in range(50):
        try:
            if call() is not False:
                return
        except (grpc.RpcError, pytest.fail.Exception):
            pass
        time.sleep(0.05)
    raise AssertionError("the call never got through")


def test_health_checks_are_never_limited(games: dict[str, Game]) -> None:
    limits = Limits(peer_rate=Rate(0.001, 1), token_rate=NONE, create_rate=NONE)
    with serving(games, limits) as stub:
        stub.ListGames(pb.ListGamesRequest())  # the address's only request
        assert status_of(lambda: stub.ListGames(pb.ListGamesRequest())) == EXHAUSTED
        health = health_pb2_grpc.HealthStub(stub.channel)
        for _ in range(20):
            answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_a_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    buckets = Buckets(Rate(10, 2), clock=lambda: now[0])
    assert [buckets.wait_ms("a") for _ in range(3)] == [0, 0, 100]
    now[0] = 0.05
    assert buckets.wait_ms("a") == 50  # half a token back
    now[0] = 0.1
    assert buckets.wait_ms("a") == 0
    now[0] = 100.0
    assert [buckets.wait_ms("a") for _ in range(3)] == [0, 0, 100]  # never more than the burst
    assert buckets.wait_ms("b") == 0


def test_rates_read_from_flags() -> None:
    assert Rate.parse("50") == Rate(50, 100)
    assert Rate.parse("50/10") == Rate(50, 10)
    assert Rate.parse("0").unlimited
    for bad in ("-1", "nan", "inf", "x"):
        with pytest.raises(ValueError):
            Rate.parse(bad)


def test_the_python_client_waits_as_told_and_gets_through(games: dict[str, Game]) -> None:
    """Over its quota the client is told when to come back; its channel's retry policy does,
    so a burst of calls all succeed, only slower (the control: a raw stub is refused)."""
    limits = Limits(token_rate=Rate(20, 2), peer_rate=NONE, create_rate=NONE)
    with serving(games, limits) as stub:
        table = open_table(stub)
        assert EXHAUSTED in views(table, 1, 6)  # a plain channel: refused
        with RefereeClient(stub.address) as client:
            began = time.perf_counter()
            for _ in range(8):
                assert client.view(table.table_id, table.tokens[2])["seat"] == 2
            assert time.perf_counter() - began >= 6 / 20 * 0.8  # it waited for its tokens
