"""What a call costs of its quotas (issue 25): a costly method its cost, a large request more; a
seat token holds a bucket only once it has authenticated, keyed by its digest, and a made-up
token costs its address's bucket. The calls go through the server's own handler chain, in
process (`referee.calls.chain`, as the HTTP gateway calls it), so a test can count buckets."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from google.protobuf import message

from referee.api.v1 import referee_pb2 as pb
from referee.calls.chain import HandlerChain
from referee.calls.limits import (
    BYTES_PER_TOKEN,
    COSTS,
    NO_LIMIT,
    SEATED,
    Buckets,
    Limits,
    LimitsInterceptor,
    Rate,
    cost,
)
from referee.engine.game import Game
from referee.server.servicer import RefereeServicer
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee.web.context import CallAborted, HttpCallContext

PEER = "ipv4:10.0.0.7:5000"
SLOW = 0.001  # a rate that gives nothing back within a test


class Chain:
    """The handler chain of a server with `limits`, called as a client at PEER would."""

    def __init__(self, games: dict[str, Game], limits: Limits) -> None:
        self.service = RefereeService(MemoryStore(), games, allow_stacked=True)
        self.workers = futures.ThreadPoolExecutor(max_workers=2)
        self.quotas = LimitsInterceptor(limits)
        servicer = RefereeServicer(self.service, self.workers)
        self.chain = HandlerChain(servicer, [self.quotas])
        self.loop = asyncio.new_event_loop()

    def call(self, rpc: str, request: message.Message, token: str | None = None) -> Any:
        """The answer, or the status code that ended the call."""
        metadata = (("x-seat-token", token),) if token is not None else ()
        return self.loop.run_until_complete(self._call(rpc, request, metadata))

    async def _call(
        self, rpc: str, request: message.Message, metadata: tuple[tuple[str, str], ...]
    ) -> Any:
        context = HttpCallContext(metadata, PEER)
        handler = await self.chain.handler(rpc, metadata)
        raw = request.SerializeToString()
        try:
            if handler.unary_stream is not None:
                async for answer in handler.unary_stream(raw, context):
                    return answer
            return await handler.unary_unary(raw, context)
        except CallAborted as aborted:
            return aborted.code

    def table(self) -> tuple[str, dict[int, str]]:
        created = self.call("CreateTable", pb.CreateTableRequest(game="pontinho", seats=3))
        return created.table_id, {seat.seat: seat.token for seat in created.seats}

    def close(self) -> None:
        self.service.close()
        self.workers.shutdown()
        self.loop.close()


@pytest.fixture
def chain_of(games: dict[str, Game]) -> Iterator[Any]:
    made: list[Chain] = []

    def make(limits: Limits) -> Chain:
        made.append(Chain(games, limits))
        return made[-1]

    yield make
    for chain in made:
        chain.close()


def test_a_bucket_charged_over_its_burst_goes_into_debt() -> None:
    now = [0.0]
    buckets = Buckets(Rate(10, 4), clock=lambda: now[0])
    assert buckets.wait_ms("a", 10) == 0  # a full bucket lets a large call through
    assert buckets.wait_ms("a") == 700  # ... and owes 6: 0.7 s until a token is back
    now[0] = 0.7
    assert buckets.wait_ms("a") == 0


def test_a_calls_cost_is_its_methods_and_its_size() -> None:
    assert cost("/referee.v1.Referee/GetView", 100) == 1
    assert cost("/referee.v1.Referee/Explain", 100) == COSTS["Explain"] > 1
    assert cost("/referee.v1.Referee/Adjudicate", 3 * BYTES_PER_TOKEN) == COSTS["Adjudicate"] + 3


@pytest.mark.parametrize("rpc", ["Explain", "GetRecord"])
def test_a_costly_call_takes_its_cost_of_the_bucket(chain_of: Any, rpc: str) -> None:
    limits = Limits(peer_rate=Rate(SLOW, 2 * COSTS[rpc]), token_rate=NO_LIMIT, create_rate=NO_LIMIT)
    chain = chain_of(limits)
    table_id, _ = chain.table()  # 1 of the bucket
    request = (
        pb.ExplainRequest(table_id=table_id, version=0)
        if rpc == "Explain"
        else pb.GetRecordRequest(table_id=table_id)
    )
    codes = [chain.call(rpc, request) for _ in range(2)]
    assert (
        not isinstance(codes[0], grpc.StatusCode) or codes[0] != grpc.StatusCode.RESOURCE_EXHAUSTED
    )
    assert codes[1] == grpc.StatusCode.RESOURCE_EXHAUSTED  # 1 + cost taken: no room for another
    # the control: as many views fit, each costing 1
    chain = chain_of(limits)
    table_id, _ = chain.table()
    views = [chain.call("GetView", pb.GetViewRequest(table_id=table_id)) for _ in range(COSTS[rpc])]
    assert grpc.StatusCode.RESOURCE_EXHAUSTED not in views


def test_only_a_token_that_authenticated_holds_a_bucket(chain_of: Any) -> None:
    chain = chain_of(Limits(peer_rate=NO_LIMIT, token_rate=Rate(SLOW, 100), create_rate=NO_LIMIT))
    table_id, tokens = chain.table()
    for index in range(200):
        made_up = f"{index:04d}" + "x" * 7000
        code = chain.call("GetView", pb.GetViewRequest(table_id=table_id), made_up)
        assert code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)
    assert chain.quotas.tracked_tokens() == 0
    chain.call("ListGames", pb.ListGamesRequest(), "made-up")  # a method that reads no token
    assert chain.quotas.tracked_tokens() == 0
    view = chain.call("GetView", pb.GetViewRequest(table_id=table_id), tokens[1])
    assert not isinstance(view, grpc.StatusCode)
    assert chain.quotas.tracked_tokens() == 1


def test_an_authenticated_token_keeps_its_own_quota(chain_of: Any) -> None:
    chain = chain_of(Limits(peer_rate=NO_LIMIT, token_rate=Rate(SLOW, 3), create_rate=NO_LIMIT))
    table_id, tokens = chain.table()
    views = [
        chain.call("GetView", pb.GetViewRequest(table_id=table_id), tokens[1]) for _ in range(5)
    ]
    codes = [v if isinstance(v, grpc.StatusCode) else grpc.StatusCode.OK for v in views]
    # the first call proves the token and opens its bucket, with that call's cost taken
    assert codes == [grpc.StatusCode.OK] * 3 + [grpc.StatusCode.RESOURCE_EXHAUSTED] * 2


@pytest.mark.parametrize("limited", [True, False], ids=["limit", "control"])
def test_a_made_up_token_costs_its_addresss_bucket(chain_of: Any, limited: bool) -> None:
    peer_rate = Rate(SLOW, 10) if limited else NO_LIMIT
    chain = chain_of(Limits(peer_rate=peer_rate, token_rate=Rate(SLOW, 1), create_rate=NO_LIMIT))
    table_id, _ = chain.table()  # 1 of the address's 10
    codes = [
        chain.call("GetView", pb.GetViewRequest(table_id=table_id), f"made-up-{index}")
        for index in range(12)
    ]
    refused = codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert refused == (3 if limited else 0)  # unique tokens do not escape the address's quota


@pytest.mark.parametrize("rpc", sorted(SEATED))
def test_a_seated_method_refuses_a_made_up_token(chain_of: Any, rpc: str) -> None:
    """So an OK answer of one proves its token: the reason a bucket opens after one."""
    chain = chain_of(Limits().without_rates())
    table_id, _ = chain.table()
    requests: dict[str, message.Message] = {
        "Propose": pb.ProposeRequest(table_id=table_id, move=pb.Move(type="draw"), move_id="m"),
        "GetView": pb.GetViewRequest(table_id=table_id),
        "GetRecord": pb.GetRecordRequest(table_id=table_id),
        "Explain": pb.ExplainRequest(table_id=table_id, version=0),
        "Watch": pb.WatchRequest(table_id=table_id),
    }
    code = chain.call(rpc, requests[rpc], "made-up")
    assert code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)
