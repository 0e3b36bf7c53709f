"""Where a Propose's time goes: the servicer's path of a recorded workload on the event loop, as
`serve` takes it (the request's bytes parsed, the seat's token, the judgement, the write made
ready, the wait for the store's writer to commit it, the verdict worded, encoded and logged), run
under cProfile on an SQLite store as `serve` uses it, and each stage's share of the time per
proposal, in µs. The writer's own work (its SQL, the sync) is on its thread, outside the
profile: the loop's `commit` is its wait for it, idle.

The gRPC transport is not in it (the floor of `make bench` is); cProfile adds a cost per Python
call, so stages made of many small calls (the judgement) read larger than they run: the figures
say where the time goes, the bench's throughput how much there is.
"""

from __future__ import annotations

import asyncio
import cProfile
import pstats
import tempfile
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from referee.api.v1 import referee_pb2 as pb
from referee.engine.setup import TableSetup
from referee.model import Move
from referee.server.convert import data_to_struct
from referee.server.servicer import RefereeServicer
from referee.service import RefereeService
from referee.store.sqlite import SqliteStore

# stage -> the functions whose time it is (a path's end and a name, or a built-in's name); where
# one nests in another (the commit in the record), the outer one's figure is its own part only
STAGES: dict[str, tuple[tuple[str, str], ...]] = {
    "decode": (("~", "FromString"), ("server/convert.py", "move_from_proto")),
    "auth": (("service/auth.py", "actor"),),
    "judge": (("engine/table.py", "propose"),),
    "write": (
        ("service/referee_service.py", "_to_write"),
        ("service/referee_service.py", "_written"),
    ),
    "commit": (("~", "poll"),),  # the loop idle, waiting for the writer's commit
    "word": (("service/answers.py", "worded"),),
    "encode": (("server/convert.py", "verdict_to_proto"), ("~", "SerializeToString")),
    "log": (("server/logging.py", "log_verdict"),),
}


def stage_times(
    games: dict[str, Any], game: str, setup: TableSetup, log: Sequence[tuple[int, Move]]
) -> dict[str, float]:
    """µs per proposal of each stage (and `other`, `total`) over `log`, proposed in order on a
    fresh table of `setup`, each with a move id as the clients send."""
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "stages.db")
        service = RefereeService(store, games, allow_stacked=True, sole_writer=True)  # as served
        try:
            table = service.create_table(game, **setup.asked())
            requests = [(table.tokens[seat], _request(table.table_id, move)) for seat, move in log]
            servicer = RefereeServicer(service, ThreadPoolExecutor(1))

            async def propose_all() -> None:
                for token, raw in requests:
                    request = pb.ProposeRequest.FromString(raw)
                    answer = await servicer._propose_on_loop(request, token, [])
                    if answer is None:
                        raise RuntimeError("a recorded proposal left the event loop")
                    answer.SerializeToString()

            profile = cProfile.Profile()
            started = time.perf_counter()
            profile.enable()
            asyncio.run(propose_all())
            profile.disable()
            total = time.perf_counter() - started
        finally:
            service.close()
            store.close()
    return _shares(pstats.Stats(profile), total, len(log))


def _request(table_id: str, move: Move) -> bytes:
    data = move.to_data()
    kind = str(data.pop("type"))
    request = pb.ProposeRequest(
        table_id=table_id,
        move_id=uuid.uuid4().hex,
        move=pb.Move(type=kind, fields=data_to_struct(data)),
    )
    return request.SerializeToString()


def _shares(stats: pstats.Stats, total: float, proposals: int) -> dict[str, float]:
    cumulative: dict[str, float] = {}
    for stage, functions in STAGES.items():
        cumulative[stage] = sum(
            entry[3]
            for (path, _, name), entry in stats.stats.items()  # type: ignore[attr-defined]
            for end, wanted in functions
            if (name == wanted or f"'{wanted}'" in name) and (path == end or path.endswith(end))
        )
    figures = {stage: 1e6 * seconds / proposals for stage, seconds in cumulative.items()}
    figures["total"] = 1e6 * total / proposals
    figures["other"] = figures["total"] - sum(figures[stage] for stage in STAGES)
    return figures
