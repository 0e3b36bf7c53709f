"""`make bench`: how fast the referee judges, measured against baselines taken in the same run.

Machines here are noisy, so every figure comes with a ratio to a baseline measured alongside it:
- in-process: verdicts per second of the engine on a recorded bot game (accepted and rejected
  proposals), against the cost of merely parsing those moves;
- over gRPC, a referee in its own process with the SQLite store (WAL, synchronous FULL: every
  accepted move is fsync'd before its verdict): Propose throughput and p50/p99 latency at 1 and
  16 concurrent clients, each on a table of its own where every move is accepted (Pontinho:
  draw and discard; Pontoon: bet, twist or stick, the banker's stick, the next hand; Tarocchi:
  a card each seat may play, deal after deal), against
  the transport floor: the gRPC health check on the same server, same concurrency.
"""

from __future__ import annotations

import argparse
import json
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
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.cards import PackKind
from referee.engine.moves import parse_move
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.errors import MoveFormatError
from referee.model import ADJUDICATOR, Move, Outcome
from referee.plugins import installed
from referee.server.logging import configure_logging
from referee.spec.registry import load_games
from referee_bots import pontoon_bot, tricks_bot
from referee_client import RefereeClient
from referee_client.client import CHANNEL_OPTIONS, RETRY_POLICY


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
    setup = setup if setup is not None else plugin.bench_setup(game.name, seed)
    table = Table.create(game, setup)
    candidates = bot.candidates(game.resolve_options(setup.options))
    rng = random.Random(seed)
    log: list[tuple[int, Move]] = []
    while not table.is_over and (hands is None or table.view(ADJUDICATOR)["hand_number"] <= hands):
        if most is not None and len(log) >= most:
            break
        seat = bot.next_seat(table.view(ADJUDICATOR))
        for data in candidates(table.view(seat), rng):
            move = Move.from_data(data)
            log.append((seat, move))
            if table.propose(seat, move).outcome is not Outcome.REJECTED:
                break
    return setup, log


def in_process(game: Any, seconds: float, seed: int) -> dict[str, float]:
    setup, log = recorded_game(game, seed)
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


def _drive(clients: int, seconds: float, session: Callable[[int], Session]) -> dict[str, float]:
    """Run `clients` threads for `seconds`, each timing the calls its session yields."""
    start = time.time()
    return summary(timed_calls(range(clients), session, start, start + seconds))


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


def _accepted(verdict: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of an accepted verdict; a rejection stops the bench."""
    if not verdict["accepted"]:
        raise BenchError(f"a bench move was rejected: {verdict['violations']}")
    events: list[dict[str, Any]] = verdict["events"]
    return events


def _pontinho_session(servers: Servers) -> Callable[[int], Session]:
    """Each client plays draw/discard on its own table forever (the stock is rebuilt, PN-21):
    every Propose is accepted, so every one is committed to SQLite before its verdict."""

    def session(index: int) -> Session:
        client = servers.client()
        table = client.create_table("pontinho", seats=3, seed=index)
        seat = 1  # dealer 0: seat 1 plays first
        while True:
            propose = partial(client.propose, table.id, table.tokens[seat])
            drew = _accepted((yield partial(propose, {"type": "draw"})))
            card = next(e["card"] for e in drew if e["kind"] == "drew")
            _accepted((yield partial(propose, {"type": "discard", "card": card})))
            seat = (seat + 1) % 3

    return session


def _pontoon_session(servers: Servers) -> Callable[[int], Session]:
    """Each client banks and plays a two-seat Pontoon table of its own, hand after hand: the
    player bets 1, twists below 15 and then sticks (PO-5), the banker sticks (PO-6) and deals the
    next hand (PO-8). Every Propose is accepted, so every one is committed to SQLite. The
    player's first card is dealt face down in no event: it reads it from its view, once a hand,
    between the timed calls."""

    def session(index: int) -> Session:
        client = servers.client()
        table = client.create_table("pontoon", seats=2, seed=index, balances={0: 1000, 1: 1000})

        def move(seat: int, kind: str, **fields: Any) -> Call:
            return partial(client.propose, table.id, table.tokens[seat], {"type": kind, **fields})

        banker = 0
        while True:
            player = 1 - banker
            cards = list(client.view(table.id, table.tokens[player])["hand"][0]["cards"])
            kinds: set[str] = set()
            call = move(player, "bet", amount=1)
            while "banker_shows" not in kinds:  # shown once the player is done (PO-6)
                events = _accepted((yield call))
                kinds |= {e["kind"] for e in events}
                cards += [
                    e["card"]
                    for e in events
                    if e["kind"] == "card" and "card" in e and e["seat"] == player
                ]
                call = move(player, "stick" if pontoon_bot.best_total(cards) >= 15 else "twist")
            if "hand_over" not in kinds:  # not settled at once (a bust, the banker's pontoon)
                _accepted((yield move(banker, "stick")))
            dealt = _accepted((yield move(banker, "next_hand")))
            banker = next((e["to"] for e in dealt if e["kind"] == "bank_passes"), banker)

    return session


def _tarocchi_session(servers: Servers) -> Callable[[int], Session]:
    """Each client plays a Tarocchi game of its own, seat after seat, deal after deal: the dealer
    discards (untimed: it tries the bot's pairs until one is accepted), then each seat plays a
    card it may play (TA-7, TA-8), read from its own view between the timed calls."""

    def session(index: int) -> Session:
        client = servers.client()
        rng = random.Random(index)
        while True:
            table = client.create_table(
                "tarocchi_piedicavallo", seats=4, seed=index, options={"deals_per_game": 12}
            )
            view = client.view(table.id, table.tokens[0])
            while view["phase"] != "over":
                seat = int(view["to_act"])
                token = table.tokens[seat]
                view = client.view(table.id, token)
                if view["phase"] == "discard":
                    for move in tricks_bot.turn_candidates(view, rng):
                        if client.propose(table.id, token, move)["accepted"]:
                            break
                else:
                    card = _playable(view["hand"], [p["card"] for p in view["trick"]])
                    _accepted(
                        (
                            yield partial(
                                client.propose, table.id, token, {"type": "play", "card": card}
                            )
                        )
                    )
                view = client.view(table.id, token)

    return session


def _playable(hand: list[str], trick: list[str]) -> str:
    """A card TA-7 allows: of the suit led, else a trump, else any (the Matto only last)."""
    suit = tricks_bot.suit
    led = next((suit(c) for c in trick if c != "MT"), None)
    for wanted in (led, "T"):
        choice = [c for c in hand if c != "MT" and suit(c) == wanted]
        if choice:
            return choice[0]
    return hand[0]


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
    """The address a referee of `serve_command` prints once its port is bound."""
    line = process.stdout.readline() if process.stdout else ""
    if "listening on" not in line:
        raise RuntimeError(f"the referee did not start: {line!r}")
    return line.rsplit(" ", 1)[-1].strip()


@contextmanager
def referee_process(folder: str) -> Iterator[str]:
    """A real referee in its own process (as in production: the clients do not share its GIL)."""
    command = serve_command(["--db", str(Path(folder) / "bench.db")])
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        yield listening_address(process)
    finally:
        process.terminate()
        process.wait(timeout=30)


# game -> its Propose workload over gRPC (each is measured against the same run's floor)
SESSIONS = {
    "pontinho": _pontinho_session,
    "pontoon": _pontoon_session,
    "tarocchi_piedicavallo": _tarocchi_session,
}


def over_grpc(seconds: float) -> dict[int, dict[str, dict[str, float]]]:
    """Per concurrency: the floor, then each game's Propose workload, on one referee."""
    results: dict[int, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder, referee_process(folder) as address:
        servers = Servers((address,))
        for clients in (1, 16):
            results[clients] = {"floor": _drive(clients, seconds, health_floor(servers))}
            for game, workload in SESSIONS.items():
                results[clients][game] = _drive(clients, seconds, workload(servers))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="referee benchmarks (ratios against same-run baselines)"
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args(argv)
    configure_logging("warning")  # one log line per verdict would measure the terminal
    games = load_games()
    for name, what, seed in (
        ("pontinho", "a recorded match", 7),
        ("pontoon", "20 recorded hands of six bots", 3),
        ("tarocchi_piedicavallo", "a recorded game of four deals", 3),
    ):
        local = in_process(games[name], args.seconds, seed)
        print(
            f"{name} in-process: {local['verdicts_per_s']:,.0f} verdicts/s over {what} "
            f"({local['proposals']} proposals); parsing alone {local['parses_per_s']:,.0f}/s "
            f"(judging costs {local['parses_per_s'] / local['verdicts_per_s']:.1f}x parsing)"
        )
    for clients, figures in over_grpc(args.seconds).items():
        floor = figures["floor"]
        for game in SESSIONS:
            propose = figures[game]
            print(
                f"{game} gRPC, {clients:>2} client(s), SQLite: Propose {propose['rps']:,.0f}/s "
                f"p50 {propose['p50_ms']:.2f} ms p99 {propose['p99_ms']:.2f} ms | floor (health "
                f"check) {floor['rps']:,.0f}/s p50 {floor['p50_ms']:.2f} ms p99 "
                f"{floor['p99_ms']:.2f} ms | ratio {propose['rps'] / floor['rps']:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
