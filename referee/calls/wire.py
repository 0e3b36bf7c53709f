"""The Referee service registered on handlers that take the request's bytes and parse them here.

With the generated registration grpcio parses each request itself, and a request whose bytes are
not the method's message ends as UNKNOWN (grpc.aio: "Unexpected DecodeError"; the sync server
answers INTERNAL and keeps about 20 KB per such request, docs/security.md). Here every
method's handler takes the raw bytes (`request_deserializer=None`) and parses them: bytes that are
not the message are INVALID_ARGUMENT "the request is not a valid `ProposeRequest`", logged as any
refused request. Method names, messages and streaming kinds are those of the proto: the public
API, reflection included, is the same byte for byte.

Parsed, a request is held to the table its call names in `x-referee-table`, if it names one
(`metadata.verify_table_header`): once here for every method, over gRPC and HTTP alike, before
the servicer does any work.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from google.protobuf import descriptor, message, message_factory

from referee.api.v1 import referee_pb2
from referee.calls.metadata import verify_table_header
from referee.calls.status import abort
from referee.errors import InvalidArgument

SERVICE = referee_pb2.DESCRIPTOR.services_by_name["Referee"]


async def parse(
    context: grpc.aio.ServicerContext[Any, Any], rpc: str, kind: type[message.Message], raw: bytes
) -> Any:
    """`raw` as a `kind` message; bytes that are not one, or a request about another table than
    the call's header names, end the call with INVALID_ARGUMENT."""
    try:
        request = kind.FromString(raw)
    except message.DecodeError:
        await abort(
            context, rpc, InvalidArgument(f"the request is not a valid `{kind.DESCRIPTOR.name}`")
        )
    try:
        verify_table_header(context.invocation_metadata(), request)
    except InvalidArgument as error:
        await abort(context, rpc, error)
    return request


def unary(rpc: str, kind: type[message.Message], behaviour: Callable[..., Any]) -> Any:
    async def handle(raw: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        return await behaviour(await parse(context, rpc, kind, raw), context)

    return handle


def streaming(rpc: str, kind: type[message.Message], behaviour: Callable[..., Any]) -> Any:
    async def handle(raw: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
        async for answer in behaviour(await parse(context, rpc, kind, raw), context):
            yield answer

    return handle


def method_handler(
    method: descriptor.MethodDescriptor, servicer: Any
) -> grpc.RpcMethodHandler[Any, Any]:
    """The handler of one method of the service: bytes in, the servicer's answer out."""
    assert not method.client_streaming, "the referee has no client-streaming method"
    request = message_factory.GetMessageClass(method.input_type)
    response = message_factory.GetMessageClass(method.output_type)
    behaviour = getattr(servicer, method.name)
    if method.server_streaming:
        return grpc.unary_stream_rpc_method_handler(
            streaming(method.name, request, behaviour),
            request_deserializer=None,
            response_serializer=response.SerializeToString,
        )
    return grpc.unary_unary_rpc_method_handler(
        unary(method.name, request, behaviour),
        request_deserializer=None,
        response_serializer=response.SerializeToString,
    )


def add_referee_servicer(servicer: Any, server: grpc.aio.Server) -> None:
    """Register `servicer` on `server` (as the generated `add_RefereeServicer_to_server` does)."""
    handlers = {method.name: method_handler(method, servicer) for method in SERVICE.methods}
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
    )
    server.add_registered_method_handlers(SERVICE.full_name, handlers)
