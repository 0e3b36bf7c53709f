"""A server-streaming method over HTTP: Server-Sent Events (`text/event-stream`).

Each answer is one event, its JSON as `data`, and its `version` as the event's `id`; a client
that reconnects with `Last-Event-ID` (EventSource does by itself) resumes after it
(`from_version`). The stream's end is one last event `end`, `{"code": "OK"}` when the table is
over, else the status that ended it (`UNAVAILABLE`: the referee is stopping, watch again). A
refusal before the stream opens (an unknown table, a bad token, a quota) is a plain HTTP error:
the stream opens, 200, once the servicer has subscribed (`send_initial_metadata`). A comment line
every `HEARTBEAT_S` keeps proxies from closing a quiet stream.

The answers pass through a queue of one, so a slow reader slows the stream's reading of its
subscription, whose own bound (1024 moves behind) then ends it: the same protection as gRPC.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator
from typing import Any

import grpc
from aiohttp import web
from google.protobuf import message

from referee.calls.chain import HandlerChain
from referee.web.bodies import Bodies
from referee.web.context import CallAborted, HttpCallContext, metadata, peer
from referee.web.messages import answer_data, request_message
from referee.web.routes import Route
from referee.web.statuses import error_body

HEARTBEAT_S = 15.0
ID_FIELD = "version"  # an answer's field that is the event's id
RESUME_FIELD = "from_version"  # the request's field that Last-Event-ID sets
END = object()  # the stream ended with OK
STREAM_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",  # nginx: pass each event on at once
}


async def serve_stream(
    chain: HandlerChain, route: Route, request: web.Request, bodies: Bodies
) -> web.StreamResponse:
    peername = request.transport.get_extra_info("peername") if request.transport else None
    context = HttpCallContext(metadata(request.headers), peer(peername))
    variables, query = dict(request.match_info), list(request.query.items())
    last_id = request.headers.get("Last-Event-ID")

    def parse(body: bytes) -> bytes:
        message_in = request_message(route, variables, query, body)
        _resume(message_in, last_id)
        return message_in.SerializeToString()

    raw = await bodies.request(chain, route, request, context.peer(), parse)
    handler = await chain.handler(route.rpc, context.invocation_metadata())
    answers: AsyncGenerator[Any, None] = handler.unary_stream(raw, context)
    queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=1)
    pump = asyncio.create_task(_pump(answers, queue, context))
    try:
        await _opened(pump, context)
        response = web.StreamResponse(headers=STREAM_HEADERS)
        response.content_type = "text/event-stream"
        await response.prepare(request)
        await _relay(queue, response)
        return response
    finally:
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, CallAborted):
            await pump
        await answers.aclose()


def _resume(request: message.Message, last_id: str | None) -> None:
    if last_id is None or RESUME_FIELD not in request.DESCRIPTOR.fields_by_name:
        return
    if not last_id.isdigit() or len(last_id) > 15:  # within 2^53, as every number of the API
        raise CallAborted(grpc.StatusCode.INVALID_ARGUMENT, "`Last-Event-ID` is not a version")
    setattr(request, RESUME_FIELD, int(last_id))


async def _pump(
    answers: AsyncGenerator[Any, None], queue: asyncio.Queue[Any], context: HttpCallContext
) -> None:
    """The stream's answers into `queue`, then END or the status that ended it; a refusal before
    the stream opened is raised, for a plain HTTP error."""
    try:
        async for answer in answers:
            await queue.put(answer)
    except CallAborted as aborted:
        if not context.opened.is_set():
            raise
        await queue.put(aborted)
        return
    await queue.put(END)


async def _opened(pump: asyncio.Task[None], context: HttpCallContext) -> None:
    """Wait until the stream opens; a refusal before that is raised."""
    opened = asyncio.ensure_future(context.opened.wait())
    try:
        await asyncio.wait({pump, opened}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        opened.cancel()
    if not context.opened.is_set():
        pump.result()  # raises the refusal
        raise CallAborted(grpc.StatusCode.INTERNAL, "the stream ended before it opened")


async def _relay(queue: asyncio.Queue[Any], response: web.StreamResponse) -> None:
    while True:
        try:
            item = await asyncio.wait_for(queue.get(), HEARTBEAT_S)
        except TimeoutError:
            await response.write(b": keep-alive\n\n")
            continue
        if item is END or isinstance(item, CallAborted):
            ended = (
                error_body(item.code, item.message)
                if isinstance(item, CallAborted)
                else error_body(grpc.StatusCode.OK, "")
            )
            await response.write(_event(ended, name="end"))
            return
        data = answer_data(item)
        await response.write(_event(data, ident=data.get(ID_FIELD)))


def _event(data: dict[str, Any], *, name: str | None = None, ident: object = None) -> bytes:
    lines = [f"event: {name}"] if name else []
    if ident is not None:
        lines.append(f"id: {ident}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return ("\n".join(lines) + "\n\n").encode("utf-8")
