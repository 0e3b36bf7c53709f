"""The gRPC servicer: convert the request, call the service, convert the answer. Nothing else.

It runs on the server's event loop (grpc.aio). A proposal is judged on the loop itself, its
write committed by the store's writer meanwhile (`RefereeService.propose_on_loop`), unless it
needs the store first; the rest of the service is blocking (table locks, the store's reads), so
the other unary calls run on the bounded worker pool; a Watch stream waits on the event
loop for the next move, holding no thread: a thousand open streams cost a thousand small queues,
not a thousand threads. Errors become statuses in one place (`status.abort`).

Seats authenticate with the token CreateTable gave them, sent as request metadata `x-seat-token`.
A caller's `accept-language` chooses the language of verdicts and game descriptions.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.calls.metadata import CREATE_HEADER, LANGUAGE_HEADER, TOKEN_HEADER, metadata_value
from referee.calls.status import abort
from referee.errors import PermissionDenied
from referee.i18n import preferences
from referee.model import Move
from referee.records.signing import ALGORITHM
from referee.server import convert
from referee.server.access import OperatorToken
from referee.server.logging import log_verdict
from referee.service import RefereeService, Ruling, SeenMove, Subscription

Answer = TypeVar("Answer")
RULE_REFUSAL = (
    f"only the director rules on disputes: Rule needs the operator's token (`{CREATE_HEADER}`)"
)
LIST_REFUSAL = (
    f"the lobby is the operator's: ListTables needs the operator's token (`{CREATE_HEADER}`)"
)
REISSUE_REFUSAL = (
    f"only the operator gives a seat a new token: ReissueSeat needs the operator's token "
    f"(`{CREATE_HEADER}`)"
)


def seat_token(context: grpc.aio.ServicerContext[Any, Any]) -> str | None:
    return metadata_value(context.invocation_metadata(), TOKEN_HEADER)


def operator_token(context: grpc.aio.ServicerContext[Any, Any]) -> str | None:
    """The operator's token (`x-create-token`), which makes the caller the director."""
    return metadata_value(context.invocation_metadata(), CREATE_HEADER)


def languages(context: grpc.aio.ServicerContext[Any, Any]) -> list[str]:
    """The caller's languages (`accept-language`), most wanted first: none means English."""
    return preferences(metadata_value(context.invocation_metadata(), LANGUAGE_HEADER))


class RefereeServicer(referee_pb2_grpc.RefereeServicer):
    def __init__(
        self, service: RefereeService, workers: Executor, operator_token: str | None = None
    ) -> None:
        """`operator_token`: the operator's (`serve --create-token`), which GetRecord shows
        the full record of a table in play to; None: no caller is the operator."""
        self._service = service
        self._workers = workers
        self._operator = OperatorToken(operator_token)

    async def _run(
        self,
        context: grpc.aio.ServicerContext[Any, Any],
        rpc: str,
        call: Callable[..., Answer],
        *args: Any,
    ) -> Answer:
        """`call(*args)` on the worker pool; an error ends the call with its status."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._workers, functools.partial(call, *args))
        except Exception as error:  # noqa: BLE001 - the boundary: every error gets a status
            await abort(context, rpc, error)

    async def ListGames(
        self, request: pb.ListGamesRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.ListGamesResponse:
        return await self._run(context, "ListGames", self._list_games, languages(context))

    async def DescribeGame(
        self, request: pb.DescribeGameRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.DescribeGameResponse:
        return await self._run(
            context, "DescribeGame", self._describe_game, request, languages(context)
        )

    async def CreateTable(
        self, request: pb.CreateTableRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.CreateTableResponse:
        return await self._run(context, "CreateTable", self._create_table, request)

    async def Propose(
        self, request: pb.ProposeRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.ProposeResponse:
        started = time.perf_counter()
        token, wanted = seat_token(context), languages(context)
        try:
            try:
                answer = await self._propose_on_loop(request, token, wanted)
            except Exception as error:  # noqa: BLE001 - the boundary: every error gets a status
                await abort(context, "Propose", error)
            if answer is None:  # it needs what the loop must not wait for: a worker does it
                answer = await self._run(context, "Propose", self._propose, request, token, wanted)
            return answer
        finally:  # the wait for a worker included, and refused calls too
            self._service.metrics.propose_seconds.observe(time.perf_counter() - started)

    async def _propose_on_loop(
        self, request: pb.ProposeRequest, token: str | None, wanted: list[str]
    ) -> pb.ProposeResponse | None:
        """The proposal judged on the event loop (`RefereeService.propose_on_loop`); None when
        it must go to a worker."""
        started = time.perf_counter()
        move = convert.move_from_proto(request.move)
        ruling = await _asked(self._service.propose_on_loop, request, token, move, wanted)
        if ruling is None:
            return None
        return _answered(request, move, ruling, started)

    async def GetView(
        self, request: pb.GetViewRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.GetViewResponse:
        await self._service.committed(request.table_id)
        return await self._run(
            context,
            "GetView",
            self._view,
            request,
            seat_token(context),
            operator_token(context),
        )

    async def Rule(
        self, request: pb.RuleRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.RuleResponse:
        return await self._run(
            context, "Rule", self._rule, request, operator_token(context), languages(context)
        )

    async def ListTables(
        self, request: pb.ListTablesRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.ListTablesResponse:
        return await self._run(
            context, "ListTables", self._list_tables, request, operator_token(context)
        )

    async def ReissueSeat(
        self, request: pb.ReissueSeatRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.ReissueSeatResponse:
        return await self._run(
            context, "ReissueSeat", self._reissue_seat, request, operator_token(context)
        )

    async def Adjudicate(
        self, request: pb.AdjudicateRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.AdjudicateResponse:
        return await self._run(context, "Adjudicate", self._adjudicate, request, languages(context))

    async def GetRecord(
        self, request: pb.GetRecordRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.GetRecordResponse:
        return await self._run(
            context,
            "GetRecord",
            self._record,
            request,
            seat_token(context),
            operator_token(context),
        )

    async def Explain(
        self, request: pb.ExplainRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.ExplainResponse:
        return await self._run(
            context,
            "Explain",
            self._explain,
            request,
            seat_token(context),
            operator_token(context),
            languages(context),
        )

    async def GetSigningKey(
        self, request: pb.GetSigningKeyRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.GetSigningKeyResponse:
        key = self._service.signing_key
        return pb.GetSigningKeyResponse(
            algorithm=ALGORITHM, public_key=key.public_hex, key_id=key.key_id
        )

    async def Watch(
        self, request: pb.WatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[pb.WatchResponse]:
        subscription = await self._run(
            context,
            "Watch",
            self._watch,
            request,
            seat_token(context),
            operator_token(context),
            languages(context),
        )
        open_streams = self._service.metrics.watch_streams
        open_streams.inc()
        try:
            # the headers go out now: the caller knows the watch is open before the first move
            # (the HTTP gateway answers 200 then, a refusal before it with its own status)
            await context.send_initial_metadata(())
            async for seen in moves(subscription):
                yield convert.seen_move_to_proto(seen)
        except Exception as error:  # noqa: BLE001 - too slow, the referee stopping, or a bug
            await abort(context, "Watch", error)
        finally:  # the client went away, or the stream ended: stop queueing for it
            open_streams.dec()
            subscription.cancel()

    # --- the blocking parts, run on the worker pool ---
    def _list_games(self, wanted: list[str]) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(
            games=[convert.game_summary(d) for d in self._service.list_games(wanted)]
        )

    def _describe_game(
        self, request: pb.DescribeGameRequest, wanted: list[str]
    ) -> pb.DescribeGameResponse:
        description = self._service.describe_game(request.game, wanted)
        return pb.DescribeGameResponse(
            name=description["name"], description=convert.data_to_struct(description)
        )

    def _create_table(self, request: pb.CreateTableRequest) -> pb.CreateTableResponse:
        created = self._service.create_table(request.game, **convert.create_table_args(request))
        return pb.CreateTableResponse(
            table_id=created.table_id,
            commitment=created.commitment,
            version=created.version,
            deal_commitment=created.deal_commitment,
            seats=[pb.SeatToken(seat=s, token=t) for s, t in sorted(created.tokens.items())],
        )

    def _propose(
        self, request: pb.ProposeRequest, token: str | None, wanted: list[str]
    ) -> pb.ProposeResponse:
        started = time.perf_counter()
        move = convert.move_from_proto(request.move)
        ruling = _asked(self._service.propose, request, token, move, wanted)
        return _answered(request, move, ruling, started)

    def _view(
        self, request: pb.GetViewRequest, token: str | None, operator_token: str | None
    ) -> pb.GetViewResponse:
        view = self._service.view(
            request.table_id,
            token,
            seat=convert.optional(request, "seat"),
            director=self._operator.given(operator_token),
        )
        return convert.view_to_proto(view)

    def _watch(
        self,
        request: pb.WatchRequest,
        token: str | None,
        operator_token: str | None,
        wanted: list[str],
    ) -> Subscription:
        return self._service.watch(
            request.table_id,
            token,
            from_version=request.from_version,
            languages=wanted,
            director=self._operator.given(operator_token),
        )

    def _rule(
        self, request: pb.RuleRequest, operator_token: str | None, wanted: list[str]
    ) -> pb.RuleResponse:
        if not self._operator.given(operator_token):
            raise PermissionDenied(RULE_REFUSAL)
        started = time.perf_counter()
        move = convert.ruling_from_proto(request)
        ruling = self._service.rule(
            request.table_id,
            move,
            ruling_id=request.ruling_id,
            expected_version=convert.optional(request, "expected_version"),
            languages=wanted,
        )
        log_verdict(request.table_id, move.type, ruling, time.perf_counter() - started)
        return pb.RuleResponse(verdict=convert.verdict_to_proto(ruling))

    def _list_tables(
        self, request: pb.ListTablesRequest, operator_token: str | None
    ) -> pb.ListTablesResponse:
        if not self._operator.given(operator_token):
            raise PermissionDenied(LIST_REFUSAL)
        page = self._service.list_tables(
            convert.table_filter(request),
            page_size=request.page_size,
            page_token=request.page_token,
        )
        return convert.lobby_to_proto(page)

    def _reissue_seat(
        self, request: pb.ReissueSeatRequest, operator_token: str | None
    ) -> pb.ReissueSeatResponse:
        if not self._operator.given(operator_token):
            raise PermissionDenied(REISSUE_REFUSAL)
        token = self._service.reissue_seat(request.table_id, request.seat)
        return pb.ReissueSeatResponse(seat=pb.SeatToken(seat=request.seat, token=token))

    def _record(
        self, request: pb.GetRecordRequest, token: str | None, operator_token: str | None
    ) -> pb.GetRecordResponse:
        operator = self._operator.given(operator_token)
        given = self._service.record(request.table_id, token, operator=operator)
        return pb.GetRecordResponse(record=given.text, full=given.full)

    def _explain(
        self,
        request: pb.ExplainRequest,
        token: str | None,
        operator_token: str | None,
        asked: list[str],
    ) -> pb.ExplainResponse:
        which = request.WhichOneof("proposal")
        explained = self._service.explain(
            request.table_id,
            token,
            version=request.version if which == "version" else None,
            move_id=request.move_id if which == "move_id" else "",
            operator=self._operator.given(operator_token),
            languages=asked,
        )
        return convert.explanation_to_proto(explained)

    def _adjudicate(self, request: pb.AdjudicateRequest, asked: list[str]) -> pb.AdjudicateResponse:
        if request.WhichOneof("record") == "record_yaml":
            report = self._service.adjudicate_yaml(request.record_yaml, asked)
        else:
            data = convert.struct_to_data(request.record_data)
            report = self._service.adjudicate(data, asked)
        return convert.adjudication_to_proto(report)


def _asked(
    propose: Callable[..., Answer],
    request: pb.ProposeRequest,
    token: str | None,
    move: Move,
    wanted: list[str],
) -> Answer:
    """`propose` (the service's, or its loop's) called with what the request asks."""
    return propose(
        request.table_id,
        token,
        move,
        move_id=request.move_id,
        expected_version=convert.optional(request, "expected_version"),
        seat=convert.optional(request, "seat"),
        languages=wanted,
    )


def _answered(
    request: pb.ProposeRequest, move: Move, ruling: Ruling, started: float
) -> pb.ProposeResponse:
    """The ruling logged and answered."""
    log_verdict(request.table_id, move.type, ruling, time.perf_counter() - started)
    return pb.ProposeResponse(verdict=convert.verdict_to_proto(ruling))


async def moves(subscription: Subscription) -> AsyncIterator[SeenMove]:
    """A subscription's moves as they come, waiting on the event loop (no thread blocks)."""
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()

    def wake() -> None:  # called by the thread that queued a move
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
            loop.call_soon_threadsafe(ready.set)

    subscription.on_ready(wake)
    while True:
        ready.clear()
        seen, ended = subscription.drain()
        for item in seen:
            yield item
        if ended:
            return
        if not seen:
            await ready.wait()
