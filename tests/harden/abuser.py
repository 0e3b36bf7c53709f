"""An abusive client, in a process of its own: Propose with one seat token at RATE calls a
second for SECONDS, however the referee answers; prints the status codes it got, as JSON.

    python abuser.py ADDRESS TABLE_ID TOKEN RATE SECONDS
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub


def main(address: str, table_id: str, token: str, rate: float, seconds: float) -> None:
    stub = RefereeStub(grpc.insecure_channel(address))
    request = pb.ProposeRequest(table_id=table_id, move=pb.Move(type="draw"))
    metadata = (("x-seat-token", token),)
    codes: Counter[str] = Counter()
    start = time.perf_counter()
    sent = 0
    while (now := time.perf_counter()) < start + seconds:
        due = start + sent / rate
        if now < due:
            time.sleep(due - now)
        try:
            stub.Propose(request, metadata=metadata, timeout=5)
            codes["OK"] += 1
        except grpc.RpcError as error:
            codes[error.code().name] += 1
        sent += 1
    print(json.dumps(codes), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
