"""Request bytes that are not the method's message: INVALID_ARGUMENT on every RPC, naming it.

The control is the generated registration (`add_RefereeServicer_to_server`, grpcio parsing the
request): the same bytes end as UNKNOWN "Unexpected DecodeError" on grpc.aio (and as INTERNAL on
the sync server, which also keeps about 20 KB of each: docs/security.md).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest

from referee.api.v1 import referee_pb2_grpc
from referee.app import Server
from referee.calls.wire import SERVICE
from referee.server.servicer import RefereeServicer
from referee.service import RefereeService

METHODS = [method.name for method in SERVICE.methods]
GARBAGE = {
    "truncated tag": b"\xff\xff\xff",
    "truncated length": b"\x0a\x64abc",
    "end of a group never opened": b"\x0c",
    "wire type 7": b"\x0f\x00",
    "groups nested past the parser's limit": b"\x7b" * 200 + b"\x7c" * 200,  # field 15
}


def raw_status(channel: grpc.Channel, method: str, data: bytes) -> tuple[grpc.StatusCode, str]:
    """The status of `data` sent as is to `method` (a stream is read to its end)."""
    path = f"/{SERVICE.full_name}/{method}"
    try:
        # no serializers: the bytes go out as they are, the answer's come back unparsed
        if SERVICE.methods_by_name[method].server_streaming:
            stream: grpc.UnaryStreamMultiCallable[bytes, bytes] = channel.unary_stream(path)
            for _ in stream(data, timeout=5):
                pass
        else:
            unary: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(path)
            unary(data, timeout=5)
    except grpc.RpcError as error:
        return error.code(), error.details() or ""
    return grpc.StatusCode.OK, ""


@pytest.mark.parametrize("garbage", GARBAGE.values(), ids=GARBAGE.keys())
@pytest.mark.parametrize("method", METHODS)
def test_garbage_bytes_are_invalid_argument(address: str, method: str, garbage: bytes) -> None:
    request = SERVICE.methods_by_name[method].input_type.name
    with grpc.insecure_channel(address) as channel:
        code, message = raw_status(channel, method, garbage)
    assert (code, message) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        f"the request is not a valid `{request}`",
    )


def test_a_valid_request_sent_as_bytes_is_answered(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        assert raw_status(channel, "ListGames", b"")[0] is grpc.StatusCode.OK
        assert raw_status(channel, "DescribeGame", b"\x0a\x08pontinho")[0] is grpc.StatusCode.OK


@pytest.fixture
def plain_address(service: RefereeService) -> Iterator[str]:
    """The referee registered as generated: grpcio parses the requests."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    workers = futures.ThreadPoolExecutor(max_workers=2)
    server = Server(loop, thread, workers)

    async def build() -> int:
        aio_server = grpc.aio.server()
        referee_pb2_grpc.add_RefereeServicer_to_server(
            RefereeServicer(service, workers), aio_server
        )
        server._server = aio_server
        return aio_server.add_insecure_port("127.0.0.1:0")

    port = server.run(build())
    aio_server = server._server
    assert aio_server is not None  # build() set it
    server.start()
    yield f"127.0.0.1:{port}"
    server.run(aio_server.stop(None))  # no health servicer here: stop it by hand
    server._close_loop()
    workers.shutdown()


@pytest.mark.parametrize("method", METHODS)
def test_control_the_generated_registration_answers_unknown(
    plain_address: str, method: str
) -> None:
    with grpc.insecure_channel(plain_address) as channel:
        code, message = raw_status(channel, method, GARBAGE["truncated tag"])
    assert code is grpc.StatusCode.UNKNOWN
    assert "DecodeError" in message
