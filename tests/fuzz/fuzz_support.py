"""A referee in a process of its own (`referee serve --port 0 --memory`), so that its memory can be
read from /proc, and the calls that tell a bug from a refusal."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from referee.calls.wire import SERVICE
from tests.support import served

FUZZ_SCALE = float(os.environ.get("FUZZ_SCALE", "1"))  # `make fuzz`: 20
OPERATOR = "fuzz-operator"  # the fuzzed referee's create token
AS_OPERATOR = (("x-create-token", OPERATOR),)
BUGS = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)  # any other answer is fine


def scaled(examples: int) -> int:
    return max(1, round(examples * FUZZ_SCALE))


def rss_kb(pid: int) -> int:
    """The resident set of process `pid`, in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class ServedReferee:
    process: subprocess.Popen[str]
    address: str
    log: Path
    http_port: int
    channel: grpc.Channel = field(init=False)

    def __post_init__(self) -> None:
        self.channel = grpc.insecure_channel(self.address)

    @property
    def rss_kb(self) -> int:
        return rss_kb(self.process.pid)

    def internal_errors(self) -> list[dict[str, Any]]:
        """The server's log events of a bug (INTERNAL), whatever the client saw."""
        events = []
        for line in self.log.read_text(errors="replace").splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("event") == "internal_error":
                events.append(event)
        return events

    def stop(self) -> None:
        self.channel.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def serve(log: Path) -> ServedReferee:
    """Start `referee serve --port 0 --http 0 --memory`, its log (JSON lines) in `log`. Stacked
    deals and seeds are allowed (so that they are parsed, not refused), rate quotas lifted (the
    fuzz is faster than any seat; quotas have their own tests)."""
    with log.open("w") as sink:
        process = served.start(
            "--http",
            "0",
            "--memory",
            "--log-level",
            "warning",
            "--allow-stacked",
            "--peer-rate",
            "0",
            "--token-rate",
            "0",
            "--create-rate",
            "0",
            "--create-token",  # the operator's: CreateTable, and the director's rulings
            OPERATOR,
            stderr=sink,
        )
    try:
        address, http_port = served.address(process), served.http_port(process)
    except AssertionError as failure:
        process.kill()
        raise RuntimeError(
            f"the referee did not start: {failure} {log.read_text()[-2000:]}"
        ) from failure
    return ServedReferee(process, address, log, http_port)


def outcome(call: Callable[[], Any]) -> grpc.StatusCode:
    """The status `call` ends with (OK for an answer; a stream is read to its end)."""
    try:
        call()
    except grpc.RpcError as error:
        return error.code()
    return grpc.StatusCode.OK


def raw_call(channel: grpc.Channel, method: str, data: bytes, timeout: float) -> Callable[[], Any]:
    """`data` sent as is, the answer's bytes not parsed, as the operator (who may call every
    method: a refused call would not read the bytes)."""
    path = f"/{SERVICE.full_name}/{method}"
    # no serializers: the bytes go out as they are, the answer's come back unparsed
    if SERVICE.methods_by_name[method].server_streaming:
        stream: grpc.UnaryStreamMultiCallable[bytes, bytes] = channel.unary_stream(path)
        return lambda: list(stream(data, timeout=timeout, metadata=AS_OPERATOR))
    unary: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(path)
    return lambda: unary(data, timeout=timeout, metadata=AS_OPERATOR)
