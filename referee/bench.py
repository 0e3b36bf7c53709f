"""`make bench`: how fast the referee judges, measured against baselines taken in the same run.

Machines here are noisy, so every figure comes with a ratio to a baseline measured alongside it:
- in-process: verdicts per second of the engine on a recorded bot game (accepted and rejected
  proposals), against the cost of merely parsing those moves;
- over gRPC, a referee in its own process with the SQLite store (WAL, synchronous FULL: every accepted move is fsync'd before
  its verdict): Propose throughput and p50/p99 latency at 1 and 16 concurrent clients, against
  the transport floor: the gRPC health check on the same server, same concurrency (Pontinho).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from contextlib import contextmanager
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.engine.moves import parse_move
from referee.engine.table import Table, TableSetup
from referee.cards import PackKind
from referee.commands.play import next_to_answer
from referee.model import ADJUDICATOR, Move, Outcome
from referee.server.logging import configure_logging
from referee.spec.registry import load_games
from referee_client import RefereeClient
from referee_client import pontoon_bot
from referee_client.rummy_bot import turn_candidates


def recorded_game(game: Any, seed: int) -> list[tuple[int, Move]]:
    """Every proposal (accepted or not) of a seeded bot match, to replay as a workload."""
    table = Table.create(game, TableSetup(game=game.name, seats=4, seed=seed))
    rng, log = random.Random(seed), []
    while not table.is_over:
        seat = next_to_answer(table.view(ADJUDICATOR))
        for data in turn_candidates(table.view(seat), rng):
            move = Move.from_data(data)
            log.append((seat, move))
            if table.propose(seat, move).outcome is not Outcome.REJECTED:
                break
    return log


def recorded_banking(game: Any, seed: int, hands: int = 20) -> list[tuple[int, Move]]:
    """Every proposal of a seeded Pontoon table of six bots over `hands` hands."""
    table = Table.create(game, banking_setup(game, seed))
    options = game.resolve_options({})
    limits = {"min_bet": options["min_bet"], "max_bet": options["max_bet"]}
    rng, log = random.Random(seed), []
    while table.view(ADJUDICATOR)["hand_number"] <= hands:
        seat = pontoon_bot.next_to_act(table.view(ADJUDICATOR))
        for data in pontoon_bot.turn_candidates(table.view(seat), rng, **limits):
            move = Move.from_data(data)
            log.append((seat, move))
            if table.propose(seat, move).accepted:
                break
    return log


def banking_setup(game: Any, seed: int) -> TableSetup:
    return TableSetup(game=game.name, seats=6, seed=seed, balances={s: 1000 for s in range(6)})


def in_process(game: Any, seconds: float) -> dict[str, float]:
    banking = game.spec.mechanics == "banking"
    log = recorded_banking(game, seed=3) if banking else recorded_game(game, seed=7)
    setup = banking_setup(game, 3) if banking else TableSetup(game=game.name, seats=4, seed=7)
    pack = PackKind(game.spec.pack_kind)

    def judge_all() -> None:
        table = Table.create(game, setup)
        for seat, move in log:
            table.propose(seat, move)

    def parse_all() -> None:
        for _, move in log:
            parse_move(game.spec.moves, move, pack)

    verdicts = _rate(judge_all, len(log), seconds)
    parses = _rate(parse_all, len(log), seconds)
    return {"proposals": len(log), "verdicts_per_s": verdicts, "parses_per_s": parses}


def _rate(work: Callable[[], None], count: int, seconds: float) -> float:
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        work()
        done += count
    return done / (time.perf_counter() - started)


def _drive(clients: int, seconds: float, one_call: Callable[[int], Callable[[], None]]) -> dict[str, float]:
    """Run `clients` threads for `seconds`, each repeating its call; latency per call."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    stop = time.perf_counter() + seconds
    def worker(index: int) -> None:
        call = one_call(index)
        while time.perf_counter() < stop:
            begin = time.perf_counter()
            call()
            latencies[index].append(time.perf_counter() - begin)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    every = sorted(x for per in latencies for x in per)
    return {"rps": len(every) / elapsed, "p50_ms": 1000 * every[len(every) // 2],
            "p99_ms": 1000 * every[min(len(every) - 1, int(len(every) * 0.99))]}


def _proposer(address: str) -> Callable[[int], Callable[[], None]]:
    """Each client plays draw/discard on its own table forever (the stock is rebuilt, PN-21):
    every Propose is accepted, so every one is committed to SQLite before its verdict."""
    def make(index: int) -> Callable[[], None]:
        client = RefereeClient(address)
        table = client.create_table("pontinho", seats=3, seed=index)
        state: dict[str, Any] = {"drawn": None, "seat": 1}  # dealer 0: seat 1 plays first
        def call() -> None:
            token = table.tokens[state["seat"]]
            if state["drawn"] is None:
                verdict = client.propose(table.id, token, {"type": "draw"})
                state["drawn"] = next(e["card"] for e in verdict["events"] if e["kind"] == "drew")
            else:
                client.propose(table.id, token, {"type": "discard", "card": state["drawn"]})
                state.update(drawn=None, seat=(state["seat"] + 1) % 3)
        return call
    return make


def _floor(address: str) -> Callable[[int], Callable[[], None]]:
    def make(index: int) -> Callable[[], None]:
        stub = health_pb2_grpc.HealthStub(grpc.insecure_channel(address))
        return lambda: stub.Check(health_pb2.HealthCheckRequest(service=""))
    return make


@contextmanager
def referee_process(folder: str) -> Iterator[str]:
    """A real referee in its own process (as in production: the clients do not share its GIL)."""
    command = [sys.executable, "-m", "referee", "serve", "--port", "0", "--db",
               str(Path(folder) / "bench.db"), "--log-level", "warning"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        if "listening on" not in line:
            raise RuntimeError(f"the referee did not start: {line!r}")
        yield line.rsplit(" ", 1)[-1].strip()
    finally:
        process.terminate()
        process.wait(timeout=30)


def over_grpc(seconds: float) -> dict[int, dict[str, dict[str, float]]]:
    results: dict[int, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder, referee_process(folder) as address:
        for clients in (1, 16):
            results[clients] = {"floor": _drive(clients, seconds, _floor(address)),
                                "propose": _drive(clients, seconds, _proposer(address))}
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="referee benchmarks (ratios against same-run baselines)")
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args(argv)
    configure_logging("warning")  # one log line per verdict would measure the terminal
    games = load_games()
    for name, what in (("pontinho", "a recorded match"), ("pontoon", "20 recorded hands of six bots")):
        local = in_process(games[name], args.seconds)
        print(f"{name} in-process: {local['verdicts_per_s']:,.0f} verdicts/s over {what} "
              f"({local['proposals']} proposals); parsing alone {local['parses_per_s']:,.0f}/s "
              f"(judging costs {local['parses_per_s'] / local['verdicts_per_s']:.1f}x parsing)")
    for clients, pair in over_grpc(args.seconds).items():
        floor, propose = pair["floor"], pair["propose"]
        print(f"pontinho gRPC, {clients:>2} client(s), SQLite: Propose {propose['rps']:,.0f}/s "
              f"p50 {propose['p50_ms']:.2f} ms p99 {propose['p99_ms']:.2f} ms | floor (health check) "
              f"{floor['rps']:,.0f}/s p50 {floor['p50_ms']:.2f} ms p99 {floor['p99_ms']:.2f} ms | "
              f"ratio {propose['rps'] / floor['rps']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

