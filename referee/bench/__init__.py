"""`make bench`: how fast the referee judges, measured against baselines taken in the same run.

Every workload is a recorded bot game of its mechanic (`Workload`: every proposal, accepted and
rejected, with its verdict), the same one in process and over gRPC, and each figure comes with a
ratio to a baseline measured alongside it (these machines are noisy):
- in-process: verdicts per second of the engine over the recording, against merely parsing its
  moves;
- where a Propose's time goes, stage by stage, in µs (`referee.bench.stages`: the servicer's
  path on SQLite under cProfile);
- over gRPC, a referee in its own process with the SQLite store (WAL, synchronous FULL: every
  accepted move, and every rejection sent with a move id, is fsync'd before its verdict):
  Propose throughput and p50/p99 latency at 1 and 16 concurrent clients, each replaying the
  recording on a table of its own, its Propose calls its only calls but one CreateTable a
  recording, against the transport floor: the gRPC health check on the same server, same
  concurrency; at 1 client, also against the lower of that floor and the flush floor
  (`referee.bench.flush`: the durable commits a second one writer makes through the store's own
  connection, on the referee's disk), since a durable Propose waits for a commit too.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import struct_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.api.v1 import referee_pb2 as pb
from referee.bench.flush import sqlite_floor
from referee.bench.stages import STAGES, stage_times
from referee.cards import PackKind
from referee.engine.moves import parse_move
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.errors import MoveFormatError
from referee.model import ADJUDICATOR, Move, Outcome
from referee.plugins import installed
from referee.plugins.games import load_games
from referee.server.logging import configure_logging
from referee_client import RefereeClient
from referee_client.client import CHANNEL_OPTIONS, RETRY_POLICY, TABLE_HEADER, TOKEN_HEADER


def recorded_game(
    game: Any, seed: int, most: int | None = None, *, setup: TableSetup | None = None
) -> tuple[TableSetup, list[tuple[int, Move]]]:
    """Every proposal (accepted or not) of a seeded bot game, to replay as a workload: on the
    table its mechanic's plugin sets for the bench (or on `setup`), to the end or for the hands
    it says (or for `most` proposals)."""
    plugin = installed.by_name()[game.spec.mechanics]
    if plugin.bench_setup is None or plugin.transcript is None:
        raise ValueError(f"`{game.name}`: its mechanics has no bench workload")
    bot, hands = plugin.transcript, plugin.bench_hands
    setup = setup if setup is not None else plugin.bench_setup(game, seed)
    table = Table.create(game, setup)
    candidates = bot.candidates(game.resolve_options(setup.options))
    rng = random.Random(seed)
    log: list[tuple[int, Move]] = []
    while not table.is_over and (hands is None or table.view(ADJUDICATOR)["hand_number"] <= hands):
        if most is not None and len(log) >= most:
            break
        seat = bot.next_seat(table.view(ADJUDICATOR))
        for data in candidates(table.view(seat, legal=bot.legal), rng):
            move = Move.from_data(data)
            log.append((seat, move))
            if table.propose(seat, move).outcome is not Outcome.REJECTED:
                break
    return setup, log


def in_process(
    game: Any, seconds: float, setup: TableSetup, log: Sequence[tuple[int, Move]]
) -> dict[str, float]:
    pack = PackKind(game.spec.pack_kind)

    def judge_all() -> None:
        table = Table.create(game, setup)
        for seat, move in log:
            table.propose(seat, move)

    def parse_all() -> None:
        for _, move in log:
            try:  # noqa: SIM105 (try is cheaper than suppress() in the measured loop)
                parse_move(game.spec.moves, move, pack)
            except MoveFormatError:  # an unreadable proposal (GEN-8) is parsed all the same
                pass

    verdicts = _rate(judge_all, len(log), seconds)
    parses = _rate(parse_all, len(log), seconds)
    return {"proposals": len(log), "verdicts_per_s": verdicts, "parses_per_s": parses}


def _rate(work: Callable[[], None], count: int, seconds: float) -> float:
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        work()
        done += count
    return done / (time.perf_counter() - started)


Call = Callable[[], Any]
# A client's session: it yields the next call to time and is sent that call's result; what it
# does between calls (setting up its table, reading a view) is not timed.
Session = Generator[Call, Any, None]


class BenchError(RuntimeError):
    """A bench client's move was not accepted: the figures would not be what they say."""


def drive(
    clients: int, seconds: float, session: Callable[[int], Session], server: int
) -> dict[str, float]:
    """Run `clients` threads for `seconds`, each timing the calls its session yields; with the
    CPU time the `server` process spent a call (µs, every thread of it)."""
    start, used = time.time(), process_seconds(server)
    latencies = timed_calls(range(clients), session, start, start + seconds)
    calls = sum(len(per) for per in latencies)
    return {**summary(latencies), "cpu_us": 1e6 * (process_seconds(server) - used) / calls}


TICKS = os.sysconf("SC_CLK_TCK")


def stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name (which may hold spaces); field N of
    proc(5) is at N - 3."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_seconds(pid: int) -> float:
    """The CPU seconds (user and system, every thread) `pid` has used; 0 once it is gone."""
    try:
        fields = stat_fields(pid)
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def timed_calls(
    clients: Sequence[int], session: Callable[[int], Session], start: float, stop: float
) -> list[list[float]]:
    """A thread per client index: each sets its session up (untimed), waits for `start`, then
    times the calls its session yields until `stop`; each client's latencies, in seconds.
    `start` and `stop` are wall-clock times (`time.time()`), the same in every process, so that
    clients in several processes measure the same window."""
    latencies: list[list[float]] = [[] for _ in clients]
    errors: list[Exception] = []

    def worker(slot: int, index: int) -> None:
        try:
            calls = session(index)
            call = next(calls)
            time.sleep(max(0.0, start - time.time()))
            while time.time() < stop:
                begin = time.perf_counter()
                result = call()
                latencies[slot].append(time.perf_counter() - begin)
                call = calls.send(result)
        except Exception as exc:  # noqa: BLE001 - unseen in its thread: raised once all are joined
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=slot) for slot in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return latencies


def summary(latencies: list[list[float]]) -> dict[str, float]:
    """Throughput and p50/p99 (ms) of clients' latencies. Throughput is each client's calls over
    the time it spent in them, summed over the clients (a closed loop: clients / latency), so
    untimed work between calls does not count."""
    every = sorted(x for per in latencies for x in per)
    if not every:
        raise BenchError("no call completed in the measured time")
    return {
        "rps": sum(len(per) / sum(per) for per in latencies if per),
        "p50_ms": 1000 * every[len(every) // 2],
        "p99_ms": 1000 * every[min(len(every) - 1, int(len(every) * 0.99))],
    }


@dataclass(frozen=True)
class Servers:
    """Where the bench's clients call: one referee, or several behind gRPC's client-side round
    robin, each call to the next process (no table affinity: any process judges any table)."""

    addresses: tuple[str, ...]

    def channel(self) -> grpc.Channel:
        if len(self.addresses) == 1:
            return grpc.insecure_channel(self.addresses[0], CHANNEL_OPTIONS)
        config = {**RETRY_POLICY, "loadBalancingConfig": [{"round_robin": {}}]}
        options = [("grpc.enable_retries", 1), ("grpc.service_config", json.dumps(config))]
        return grpc.insecure_channel("ipv4:" + ",".join(self.addresses), options)

    def client(self) -> RefereeClient:
        return RefereeClient(",".join(self.addresses), self.channel())


def replay_session(
    servers: Servers, game: str, setup: TableSetup, recorded: Sequence[tuple[int, Move, bool]]
) -> Callable[[int], Session]:
    """Each client replays a recorded game's proposals (accepted and rejected) on a table of its
    own, dealt as the recording was, one Propose per proposal with a move id, as clients send
    them: the calls it times are its only calls but CreateTable, once a recording is played
    through. Each request is built before its call is timed, and only the reply's outcome is
    read, as the floor's health checks are: what a client does with a verdict is the client's
    time, not the referee's. A verdict other than the recorded one stops the bench."""

    def session(index: int) -> Session:
        client = servers.client()
        while True:
            table = client.create_table(game, **setup.asked())
            for number, (seat, move, accepted) in enumerate(recorded):
                request = propose_request(table.id, f"{table.id}-{number}", move)
                metadata = ((TABLE_HEADER, table.id), (TOKEN_HEADER, table.tokens[seat]))
                reply = yield partial(client.stub.Propose, request, metadata=metadata)
                if (reply.verdict.outcome == pb.OUTCOME_REJECTED) is accepted:
                    raise BenchError(f"`{game}`: {move.to_data()} was not judged as recorded")

    return session


def propose_request(table_id: str, move_id: str, move: Move) -> pb.ProposeRequest:
    fields = struct_pb2.Struct()
    fields.update(dict(move.fields))
    return pb.ProposeRequest(
        table_id=table_id, move_id=move_id, move=pb.Move(type=move.type, fields=fields)
    )


def health_floor(servers: Servers) -> Callable[[int], Session]:
    def session(index: int) -> Session:
        stub = health_pb2_grpc.HealthStub(servers.channel())
        request = health_pb2.HealthCheckRequest(service="")
        while True:
            yield partial(stub.Check, request)

    return session


def serve_command(store: Sequence[str]) -> list[str]:
    """`referee serve` on a free port with the bench's flags, its tables in `store` (`--db FILE`
    or `--store URL`)."""
    return [
        sys.executable,
        "-m",
        "referee",
        "serve",
        "--port",
        "0",
        *store,
        "--log-level",
        "warning",
        "--allow-stacked",
        # bench clients are bots on 127.0.0.1, far faster than a seat's quota allows
        "--peer-rate",
        "0",
        "--token-rate",
        "0",
    ]


def listening_address(process: subprocess.Popen[str]) -> str:
    """The address a referee of `serve_command` prints once its port is bound (its `listening`
    JSON line; a bench's own server may print `... listening on HOST:PORT`)."""
    line = process.stdout.readline() if process.stdout else ""
    if line.startswith("{"):
        said = json.loads(line)
        if said.get("event") == "listening":
            return str(said["address"])
    if "listening on" not in line:
        raise RuntimeError(f"the referee did not start: {line!r}")
    return line.rsplit(" ", 1)[-1].strip()


@contextmanager
def serving_process(command: Sequence[str]) -> Iterator[tuple[str, int]]:
    """A server started by `command` in its own process (as in production: the clients do not
    share its GIL), until the block ends: the address it prints, and its pid."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:  # closes stdout
        try:
            yield listening_address(process), process.pid
        finally:
            process.terminate()
            process.wait(timeout=30)


def referee_process(folder: str) -> contextlib.AbstractContextManager[tuple[str, int]]:
    """A real referee on an SQLite file in `folder`, in its own process."""
    return serving_process(serve_command(["--db", str(Path(folder) / "bench.db")]))


# game -> what its recorded workload is, and the seed of the bot game recorded
WORKLOADS = {
    "pontinho": ("a recorded match", 7),
    "pontoon": ("20 recorded hands of six bots", 3),
    "tarocchi_piedicavallo": ("a recorded game of four deals", 3),
    "pif_paf": ("a recorded hand of four bots", 3),
    "sueca": ("a recorded match to 4 game points", 1),
    "blackjack": ("20 recorded hands of six seats, the house's moves played by the table", 3),
}
WARM_UP_S = 1.0  # calls to a fresh referee before any is timed
PROFILED = 500  # proposals of each workload profiled stage by stage (cProfile is slow)


@dataclass(frozen=True)
class Workload:
    """A recorded bot game: its setup and every proposal, with whether it was accepted."""

    game: str
    setup: TableSetup
    recorded: tuple[tuple[int, Move, bool], ...]

    @classmethod
    def of(cls, game: Any, seed: int, most: int | None = None) -> Workload:
        setup, log = recorded_game(game, seed, most)
        table = Table.create(game, setup)
        judged = [(s, m, table.propose(s, m).outcome is not Outcome.REJECTED) for s, m in log]
        return cls(game.name, setup, tuple(judged))

    def accepted_only(self) -> Workload:
        """The recording's accepted moves alone: every Propose committed before its verdict."""
        return Workload(self.game, self.setup, tuple(r for r in self.recorded if r[2]))

    @property
    def log(self) -> list[tuple[int, Move]]:
        return [(seat, move) for seat, move, _ in self.recorded]

    @property
    def accepted(self) -> int:
        return sum(accepted for _, _, accepted in self.recorded)


def workloads(games: dict[str, Any], most: int | None = None) -> list[Workload]:
    """The bench's recorded workloads (each of at most `most` proposals)."""
    return [Workload.of(games[name], seed, most) for name, (_, seed) in WORKLOADS.items()]


def over_grpc(
    seconds: float, workloads: Sequence[Workload]
) -> dict[int, dict[str, dict[str, float]]]:
    """Per concurrency: the floor, then each recorded workload's Propose, on one referee; at 1
    client, first the flush floor of the referee's disk (`flush`)."""
    results: dict[int, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder, referee_process(folder) as (address, pid):
        servers = Servers((address,))
        drive(1, WARM_UP_S, health_floor(servers), pid)  # a fresh process's first calls
        for clients in (1, 16):
            results[clients] = {"floor": drive(clients, seconds, health_floor(servers), pid)}
            if clients == 1:
                results[clients]["flush"] = sqlite_floor(Path(folder), seconds)
            for w in workloads:
                session = replay_session(servers, w.game, w.setup, w.recorded)
                results[clients][w.game] = drive(clients, seconds, session, pid)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="referee benchmarks (ratios against same-run baselines)"
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args(argv)
    configure_logging("warning")  # one log line per verdict would measure the terminal
    games = load_games()
    recorded = workloads(games)
    for w in recorded:
        local = in_process(games[w.game], args.seconds, w.setup, w.log)
        print(
            f"{w.game} in-process: {local['verdicts_per_s']:,.0f} verdicts/s over "
            f"{WORKLOADS[w.game][0]} ({len(w.recorded)} proposals, {w.accepted} accepted); "
            f"parsing alone {local['parses_per_s']:,.0f}/s "
            f"(judging costs {local['parses_per_s'] / local['verdicts_per_s']:.1f}x parsing)"
        )
    for w in recorded:
        stages = stage_times(games, w.game, w.setup, w.log[:PROFILED])
        told = " ".join(f"{stage} {stages[stage]:,.0f}" for stage in (*STAGES, "other"))
        print(
            f"{w.game} where a Propose's time goes (µs, cProfile, the first {PROFILED} "
            f"proposals, SQLite FULL): {told} | total {stages['total']:,.0f}"
        )
    for line in grpc_report(over_grpc(args.seconds, recorded)):
        print(line)
    return 0


FLOORS = ("floor", "flush")  # the baselines among `over_grpc`'s figures, beside the workloads


def grpc_report(results: dict[int, dict[str, dict[str, float]]]) -> list[str]:
    """`over_grpc`'s figures in lines: the flush floor, then each workload's Propose."""
    lines = []
    for clients, figures in results.items():
        if "flush" in figures:
            lines.append(flush_line(figures["flush"]))
        games = [game for game in figures if game not in FLOORS]
        lines += [propose_line(game, clients, figures) for game in games]
    return lines


def flush_line(flush: dict[str, float]) -> str:
    return (
        f"flush floor, SQLite (WAL, synchronous FULL, the store's connection), one writer, one "
        f"small row a commit: {flush['rps']:,.0f} commits/s p50 {flush['p50_ms']:.2f} ms "
        f"p99 {flush['p99_ms']:.2f} ms"
    )


def propose_line(game: str, clients: int, figures: dict[str, dict[str, float]]) -> str:
    """A workload's Propose at `clients` beside the transport floor (the health check), and
    where the flush floor was measured (1 client), its ratio to the lower of the two floors."""
    propose, floor = figures[game], figures["floor"]
    line = (
        f"{game} gRPC, {clients:>2} client(s), SQLite: Propose {propose['rps']:,.0f}/s "
        f"p50 {propose['p50_ms']:.2f} ms p99 {propose['p99_ms']:.2f} ms, server CPU "
        f"{propose['cpu_us']:,.0f} µs a call | floor (health check) {floor['rps']:,.0f}/s "
        f"p50 {floor['p50_ms']:.2f} ms p99 {floor['p99_ms']:.2f} ms, "
        f"{floor['cpu_us']:,.0f} µs | ratio {propose['rps'] / floor['rps']:.2f}, "
        f"p99 {propose['p99_ms'] / floor['p99_ms']:.1f}x the floor's"
    )
    if "flush" not in figures:
        return line
    lower, name = min((floor["rps"], "health check"), (figures["flush"]["rps"], "flush"))
    return f"{line} | against the lower floor ({name}, {lower:,.0f}/s) {propose['rps'] / lower:.2f}"
