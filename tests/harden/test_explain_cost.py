"""Explain costs the same on a long table as on a short one (issue 25, F2): anyone, no token
needed, may ask Explain of a late version of a long table, which folded the table's log from its
first move (162 ms for the last version of a 2,189-move Pontoon table, 72 ms for the first, a
GetView 1 ms; four spectators looping on it took the health check's p99 from 3.5 ms to 284 ms).
Now the table then is restored from the snapshot at or before the version (the store keeps one
every `SNAPSHOT_EVERY` moves) and only the moves after it are read and judged again.

A long Pontoon table is played by its bots in process on an SQLite file, then served by a real
`referee serve`. `make test` runs it short and asserts what does not depend on the machine: the
moves Explain of the last version folds are fewer than `SNAPSHOT_EVERY`, where the control, the
fold of the whole log, folds them all; every explanation over gRPC is the whole log's fold's;
the spectators' calls are answered. `make harden` plays 2,100 moves and asserts the issue's aims:
each Explain under 20 times a GetView, the health check's p99 under 50 ms while four spectators
loop on Explain.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import Move
from referee.server.convert import explanation_to_proto
from referee.service import CreatedTable, RefereeService
from referee.service.explanations import explained
from referee.service.past_tables import PastTable, table_at
from referee.service.referee_service import SNAPSHOT_EVERY
from referee.store.sqlite import SqliteStore
from tests.harden.health import health_checks_for, p99
from tests.harden.long_tables import played
from tests.harden.report import SCALE, STRICT, report, scaled
from tests.harden.served import Served, referee
from tests.support.served import ROOT

pytestmark = pytest.mark.slow  # every test here is a long run (3 s or more)

MOVES = scaled(300)  # the table's accepted moves: 2,100 at `make harden` (HARDEN_SCALE=7)
SPECTATORS = 4
SECONDS = 0.5 * SCALE  # each health check run: alone, then beside the spectators
TIMED = 30  # calls of each kind timed (their median)
OPERATOR = "the-operator's-secret"
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class LongTable:
    path: Path
    table: CreatedTable
    last: int  # its version
    folded: int  # the moves Explain of the last version folds
    folded_whole: int  # the same, folded from the first move (the control)
    expected: dict[tuple[int, str], pb.ExplainResponse]  # by version and caller
    proposers: dict[int, int]  # the seat that made each version of `expected`


def full_fold(service: RefereeService, table: CreatedTable, version: int) -> Table:
    """The table at `version` as the fold of the first moves of its stored log gives it."""
    record = service._store.load_table(table.table_id)
    moves = [(p.seat, Move.from_data(p.move)) for p in record.moves[:version]]
    return Table.replay(service_game(service), TableSetup.from_data(record.setup), moves)


def service_game(service: RefereeService) -> Game:
    return service._games["pontoon"]


def explanations_expected(
    service: RefereeService, table: CreatedTable, versions: list[int]
) -> dict[tuple[int, str], pb.ExplainResponse]:
    """What Explain of each version tells the director, the proposer and a spectator, from the
    fold of the whole log."""
    expected = {}
    for version in versions:
        then = full_fold(service, table, version - 1)
        proposal = service._store.moves_between(table.table_id, version - 1, version)[0]
        past = PastTable(then, then.version, then.version)
        for caller, seat, operator in (
            ("director", None, True),
            ("proposer", proposal.seat, False),
            ("spectator", None, False),
        ):
            answer = explained(past, proposal, seat, operator, "en")
            expected[version, caller] = explanation_to_proto(answer)
    return expected


@pytest.fixture(scope="module")
def long_table(tmp_path_factory: pytest.TempPathFactory, games: dict[str, Game]) -> LongTable:
    """A Pontoon table of `MOVES` moves on an SQLite file (its writes not synced each: a test
    table), snapshot every `SNAPSHOT_EVERY` moves as `serve` does."""
    path = tmp_path_factory.mktemp("explain") / "long.db"
    store = SqliteStore(path, synchronous="NORMAL")
    service = RefereeService(store, games, allow_stacked=True)
    try:
        table = played(service, games["pontoon"], seed=3, accepted=MOVES).table
        last = store.version(table.table_id)
        setup = TableSetup.from_data(store.load_table(table.table_id).setup)
        whole = table_at(
            store, games["pontoon"], setup, table.table_id, last - 1, from_snapshot=False
        )
        versions = sorted({1, 2, SNAPSHOT_EVERY + 1, last // 2, last - 1, last})
        return LongTable(
            path,
            table,
            last,
            service.explain(table.table_id, None, version=last).folded,
            whole.folded,
            explanations_expected(service, table, versions),
            {v: store.moves_between(table.table_id, v - 1, v)[0].seat for v in versions},
        )
    finally:
        service.close()
        store.close()


@pytest.fixture(scope="module")
def served(long_table: LongTable) -> Iterator[Served]:
    """`referee serve` on the table's file, with no rate limit (the cost is what is measured)."""
    flags = ("--peer-rate", "0", "--token-rate", "0", "--create-token", OPERATOR)
    with referee("--db", str(long_table.path), *flags) as running:
        yield running


def test_explain_of_the_last_version_folds_fewer_moves_than_the_snapshot_interval(
    long_table: LongTable,
) -> None:
    assert long_table.last == MOVES
    assert long_table.folded == (MOVES - 1) % SNAPSHOT_EVERY < SNAPSHOT_EVERY
    assert long_table.folded_whole == MOVES - 1 > SNAPSHOT_EVERY  # the control: the whole log


def explain(
    stub: RefereeStub, long_table: LongTable, version: int, caller: str = "spectator"
) -> pb.ExplainResponse:
    """Explain of `version` to the director, its proposer or a spectator."""
    metadata = []
    if caller == "director":
        metadata.append(("x-create-token", OPERATOR))
    if caller == "proposer":
        seat = long_table.proposers[version]
        metadata.append(("x-seat-token", long_table.table.tokens[seat]))
    request = pb.ExplainRequest(table_id=long_table.table.table_id, version=version)
    response: pb.ExplainResponse = stub.Explain(request, metadata=metadata)
    return response


def median_ms(call: Callable[[], object]) -> float:
    times = []
    for _ in range(TIMED):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return round(1000 * statistics.median(times), 2)


def test_explain_over_grpc_is_the_whole_log_s_and_costs_as_much_late_as_early(
    served: Served, long_table: LongTable
) -> None:
    last = long_table.last
    with grpc.insecure_channel(served.address) as channel:
        stub = RefereeStub(channel)
        for (version, caller), want in long_table.expected.items():
            assert explain(stub, long_table, version, caller) == want, (version, caller)
        view = pb.GetViewRequest(table_id=long_table.table.table_id)
        figures = {
            "moves": long_table.last,
            "folded by the last": long_table.folded,
            "folded from move 0": long_table.folded_whole,
            "GetView ms": median_ms(lambda: stub.GetView(view)),
            "Explain first ms": median_ms(lambda: explain(stub, long_table, 1)),
            "Explain last ms": median_ms(lambda: explain(stub, long_table, last)),
        }
    figures["last / GetView"] = round(figures["Explain last ms"] / figures["GetView ms"], 1)
    report("explain cost", figures)
    if STRICT:
        assert figures["last / GetView"] < 20
        assert figures["Explain first ms"] / figures["GetView ms"] < 20


def test_spectators_looping_on_explain_leave_the_health_check_alone(
    served: Served, long_table: LongTable
) -> None:
    alone, _ = health_checks_for(served.address, SECONDS)
    spectators = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "explainer.py"),
            served.address,
            long_table.table.table_id,
            str(long_table.last),
            str(SPECTATORS),
            str(SECONDS + 1),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(0.5)  # the spectators are looping
        beside, statuses = health_checks_for(served.address, SECONDS)
    finally:
        told = json.loads(spectators.communicate(timeout=120)[0])
    figures = {
        "spectators": SPECTATORS,
        "explains": sum(told["calls"]),
        "explains a second": round(sum(told["calls"]) / (SECONDS + 1), 1),
        "health p99 alone ms": round(p99(alone), 2),
        "health p99 beside ms": round(p99(beside), 2),
        "health checks": len(beside),
    }
    report("explain loops", figures)
    assert statuses == {health_pb2.HealthCheckResponse.SERVING}
    assert set(told["codes"]) == {"OK"} and min(told["calls"]) > 0
    if STRICT:
        assert figures["health p99 beside ms"] < 50
