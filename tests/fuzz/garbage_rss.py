"""The figures of docs/security.md on undeserializable requests, measured again.

    .venv/bin/python tests/fuzz/garbage_rss.py [--requests 20000] [--bare-sync]

Starts `referee serve --port 0 --memory` (or, with `--bare-sync`, a bare grpcio sync server whose
one method parses a Struct), sends 2,000 garbage requests to warm it up, reads its RSS, sends
`--requests` more (random bytes after a 0xff, which no message parses, through a raw channel),
and prints the RSS again with the statuses that came back.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import grpc

from referee.calls.wire import SERVICE

from fuzz_support import outcome, raw_call, rss_kb, serve

UNARY = [m.name for m in SERVICE.methods if not m.server_streaming]
BARE_SYNC = """
import grpc
from concurrent import futures
from google.protobuf import struct_pb2
handler = grpc.unary_unary_rpc_method_handler(lambda request, context: b"",
    request_deserializer=struct_pb2.Struct.FromString, response_serializer=lambda m: m)
server = grpc.server(futures.ThreadPoolExecutor(4))
server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
    "referee.v1.Referee", {name: handler for name in %r}),))
port = server.add_insecure_port("127.0.0.1:0")
server.start()
print(f"referee listening on 127.0.0.1:{port}", flush=True)
server.wait_for_termination()
""" % (UNARY,)  # noqa: UP031 (the template is Python full of braces: %r needs no escapes)


def send(channel: grpc.Channel, count: int, rng: random.Random, seen: Counter[str]) -> None:
    for number in range(count):
        data = b"\xff" + rng.randbytes(rng.randrange(1, 64))
        seen[outcome(raw_call(channel, UNARY[number % len(UNARY)], data, 5.0)).name] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--bare-sync", action="store_true", help="a bare grpcio sync server")
    args = parser.parse_args()
    log = Path(tempfile.mkdtemp()) / "server.log"
    if args.bare_sync:
        process = subprocess.Popen(
            [sys.executable, "-c", BARE_SYNC], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout is not None
        address, pid = process.stdout.readline().split()[-1], process.pid
        channel, stop = grpc.insecure_channel(address), process.terminate
    else:
        referee = serve(log)
        channel, pid, stop = referee.channel, referee.process.pid, referee.stop
    rng, seen = random.Random(1), Counter[str]()
    try:
        send(channel, 2_000, rng, Counter())
        time.sleep(0.5)
        before, started = rss_kb(pid), time.perf_counter()
        send(channel, args.requests, rng, seen)
        time.sleep(1)
        after = rss_kb(pid)
    finally:
        stop()
    print(
        f"{args.requests} garbage requests in {time.perf_counter() - started:.1f} s: "
        f"RSS {before} kB -> {after} kB ({after - before:+d} kB, "
        f"{(after - before) * 1024 / args.requests:.0f} bytes a request); {dict(seen)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
