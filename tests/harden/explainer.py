"""Spectators looping on Explain, in a process of their own: THREADS threads, each without a
token, ask Explain of a random version among the table's last 100 up to LAST, one call after
another, for SECONDS; prints how many calls each made and the status codes, as JSON.

    python explainer.py ADDRESS TABLE_ID LAST THREADS SECONDS
"""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from collections import Counter

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub


def loop(address: str, table_id: str, last: int, seconds: float, codes: Counter[str]) -> None:
    rng = random.Random()
    with grpc.insecure_channel(address) as channel:
        stub = RefereeStub(channel)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            version = rng.randint(max(1, last - 100), last)
            try:
                stub.Explain(pb.ExplainRequest(table_id=table_id, version=version), timeout=30)
                codes["OK"] += 1
            except grpc.RpcError as error:
                codes[error.code().name] += 1


def main(address: str, table_id: str, last: int, threads: int, seconds: float) -> None:
    codes: list[Counter[str]] = [Counter() for _ in range(threads)]
    running = [
        threading.Thread(target=loop, args=(address, table_id, last, seconds, counted))
        for counted in codes
    ]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    print(json.dumps({"calls": [sum(c.values()) for c in codes], "codes": sum(codes, Counter())}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
