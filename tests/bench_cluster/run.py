"""`make bench-cluster`: Propose throughput and p50/p99 of 1, 2 and 4 referee processes on one
PostgreSQL, beside one referee on SQLite, each against the health-check floor of the same
processes measured just before (machines here are noisy: ratios to a baseline of the same run,
as `make bench` does), at 1 client also against the lower of that floor and its store's flush
floor (`referee.bench.flush`: one writer's durable commits a second, measured first), and where
the cores went meanwhile.

The clients play the Propose workloads of `referee.bench` (every move accepted, so committed
before its verdict), each on tables of its own, in client processes of their own; each call goes
to the next referee process (gRPC's client-side round robin, no table affinity), or with
`--affinity` each client keeps to one. Then the deployment as shipped: 1, 2 and 4 processes
behind HAProxy (deploy/haproxy.cfg, `--proxied`), the clients calling it alone, each Propose
naming its table (`x-referee-table`), so each table's moves are judged by one process; HAProxy's
CPU is counted on its own, and the referees' CPU a Propose and Propose/s at 2 and 4 processes are
printed against one process's at the end. PostgreSQL is a throw-away one
(tests/support/postgres_server.py: pgserver, or the server of `REFEREE_TEST_PG`), a fresh database
for each number of processes.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from referee.bench import WORKLOADS, Servers, summary
from referee.bench.flush import postgres_floor, sqlite_floor
from tests.bench_cluster import cpu, reload, watch_delay
from tests.bench_cluster.cluster import Referee, referees
from tests.bench_cluster.load import FLOOR, GAMES, ClientProcesses
from tests.cluster.proxy import Backend, Haproxy
from tests.support.postgres_server import fresh_database, throwaway_server

Figures = dict[str, float]


@dataclass(frozen=True)
class Row:
    deployment: str
    clients: int
    propose: Figures
    floor: Figures
    flush: Figures  # the store's flush floor
    cores: Figures  # during the Propose measurement


def _sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))


def _measure(
    pool: ClientProcesses,
    workload: str,
    servers: Sequence[Servers],
    clients: int,
    seconds: float,
    counters: Mapping[str, cpu.Counter],
) -> tuple[Figures, Figures]:
    """One measurement: its throughput and latencies, and the cores used during it."""
    window = pool.begin(workload, servers, clients, seconds)
    _sleep_until(window.start)
    before = cpu.read(counters)
    _sleep_until(window.stop)
    after = cpu.read(counters)
    latencies = pool.collect()
    # `summary`'s rate is the closed loop's (calls over the time spent in them); the CPU a call
    # costs is the CPU of the window over the calls made in it
    made = {"made_per_s": sum(len(per) for per in latencies) / seconds}
    return summary(latencies) | made, cpu.cores_used(before, after)


def _rows(
    deployment: str,
    serving: list[Referee],
    pool: ClientProcesses,
    args: argparse.Namespace,
    background: Mapping[str, cpu.Counter],
    flush: Figures,
    proxy: Haproxy | None = None,
) -> Iterator[Row]:
    """At each number of clients: the floor, then Propose, on the processes `serving`, reached
    directly or through `proxy` (its CPU counted on its own)."""
    counters = {f"referee {i}": cpu.processes([r.pid]) for i, r in enumerate(serving, 1)}
    counters.update(background)
    addresses = tuple(r.address for r in serving)
    servers = [Servers((a,)) for a in addresses] if args.affinity else [Servers(addresses)]
    if proxy is not None:
        counters["haproxy"] = cpu.processes([proxy.process.pid])
        servers = [Servers((proxy.grpc_address,))]
    for clients in args.clients:
        floor, _ = _measure(pool, FLOOR, servers, clients, args.seconds, counters)
        propose, cores = _measure(pool, GAMES, servers, clients, args.seconds, counters)
        yield Row(deployment, clients, propose, floor, flush, cores)


HEADER = (
    f"{'':21} {'Propose':>26} | {'floor (health check)':>24} | {'Propose / floor':>18} | "
    f"{'/ lower':>7}\n"
    f"{'store':<14}{'clients':>7} {'/s':>10}{'p50 ms':>8}{'p99 ms':>8} | "
    f"{'/s':>8}{'p50 ms':>8}{'p99 ms':>8} | {'/s':>6}{'p50':>6}{'p99':>6} | {'floor':>7}"
)


def figures_line(row: Row) -> str:
    p, f = row.propose, row.floor
    return (
        f"{row.deployment:<14}{row.clients:>7} {p['rps']:>10,.0f}{p['p50_ms']:>8.2f}"
        f"{p['p99_ms']:>8.2f} | {f['rps']:>8,.0f}{f['p50_ms']:>8.2f}{f['p99_ms']:>8.2f} | "
        f"{p['rps'] / f['rps']:>6.2f}{p['p50_ms'] / f['p50_ms']:>6.1f}"
        f"{p['p99_ms'] / f['p99_ms']:>6.1f} | {lower_floor_ratio(row):>7}"
    )


def lower_floor_ratio(row: Row) -> str:
    """At 1 client, Propose/s against the lower of the health-check and flush floors."""
    if row.clients != 1:
        return "-"
    return f"{row.propose['rps'] / min(row.floor['rps'], row.flush['rps']):.2f}"


def flush_line(store: str, flush: Figures) -> str:
    return (
        f"flush floor of {store}, one writer, one small row a commit: {flush['rps']:,.0f} "
        f"commits/s p50 {flush['p50_ms']:.2f} ms p99 {flush['p99_ms']:.2f} ms"
    )


def cores_line(row: Row) -> str:
    c = row.cores
    each = [v for k, v in c.items() if k.startswith("referee ")]
    postgres, haproxy = c.get("postgres"), c.get("haproxy")
    per_propose = 1000 / row.propose["made_per_s"]  # ms of a core's time a Propose, a core busy
    return (
        f"{row.deployment:<14}{row.clients:>7}  referee {sum(each):.2f} "
        f"({' + '.join(f'{v:.2f}' for v in each)})  postgres "
        f"{'-' if postgres is None else f'{postgres:.2f}'}  "
        f"{'' if haproxy is None else f'haproxy {haproxy:.2f}  '}clients {c['clients']:.2f}  "
        f"harness {c['harness']:.2f}  other {c['other']:.2f}  iowait {c['iowait']:.2f}  "
        f"idle {c['idle']:.2f} | a Propose: referee {referee_ms(row):.1f} ms, "
        f"postgres {'-' if postgres is None else f'{postgres * per_propose:.1f} ms'}"
        f"{'' if haproxy is None else f', haproxy {haproxy * per_propose:.2f} ms'}"
    )


def referee_ms(row: Row) -> float:
    """The referee processes' CPU a Propose, ms (all of them, over the Proposes of the window)."""
    busy = sum(v for k, v in row.cores.items() if k.startswith("referee "))
    return busy * 1000 / row.propose["made_per_s"]


def aims_lines(rows: Sequence[Row]) -> list[str]:
    """Behind the proxy, against its one process: the referees' CPU a Propose (aim: within 15%),
    and Propose/s (aim: not falling as processes are added), at each number of clients."""
    lines = []
    proxied = [row for row in rows if row.deployment.startswith(PROXIED)]
    for clients in sorted({row.clients for row in proxied}):
        alike = [row for row in proxied if row.clients == clients]
        one = alike[0]
        lines += [
            f"{row.deployment:<14}{clients:>7}  referee CPU a Propose "
            f"{referee_ms(row):.2f} ms ({referee_ms(row) / referee_ms(one) - 1:+.0%} of "
            f"{one.deployment}'s), Propose/s {row.propose['rps']:,.0f} "
            f"({row.propose['rps'] / one.propose['rps'] - 1:+.0%})"
            for row in alike
        ]
    return lines


CORES_NOTE = (
    "(other: processes not of this run, other work on the machine; a referee's and PostgreSQL's "
    "CPU a Propose counts the untimed calls between them too: the Pontoon and Tarocchi "
    "clients' GetView, each client's CreateTable)"
)


def preamble(args: argparse.Namespace, client_processes: int) -> str:
    most = max(args.clients)
    games = ", ".join(WORKLOADS)
    routing = (
        "each client keeps to one referee process (table affinity)"
        if args.affinity
        else "each call to the next referee process (gRPC round robin, no table affinity)"
    )
    if args.proxied:
        routing += f"; behind {PROXIED}, each table's calls to one process (by its header)"
    return (
        f"bench-cluster: Propose over gRPC, every move accepted and committed before its "
        f"verdict; client i replays the accepted moves of a recorded bot game of the "
        f"(i mod {len(WORKLOADS)})th of {games}, on tables of its "
        f"own; {routing}; {most} clients in {client_processes} client processes "
        f"({-(-most // client_processes)} threads each at most); {args.seconds:g} s a "
        f"measurement; the floor "
        f"is the gRPC health check on the same processes and clients, just before; "
        f"{cpu.CORES} cores"
    )


SQLITE = "SQLite (WAL, synchronous FULL)"
POSTGRES = "PostgreSQL (its synchronous_commit, on)"
PROXIED = "HAProxy"  # its deployments: `HAProxy ×2`, two referees on PostgreSQL behind it


def flush_floors(postgres_url: str, folder: Path, seconds: float) -> dict[str, Figures]:
    """Each store's flush floor, printed: SQLite in `folder` (the referee's disk), PostgreSQL on
    a fresh database of the server at `postgres_url`."""
    with fresh_database(postgres_url) as url:
        floors = {SQLITE: sqlite_floor(folder, seconds), POSTGRES: postgres_floor(url, seconds)}
    for store, figures in floors.items():
        print(flush_line(store, figures), flush=True)
    return floors


def _numbers(text: str) -> list[int]:
    return [int(n) for n in text.split(",") if n]


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.bench_cluster", description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="per measurement")
    parser.add_argument("--clients", type=_numbers, default=[1, 16], help="e.g. 1,16")
    parser.add_argument("--processes", type=_numbers, default=[1, 2, 4], help="on PostgreSQL")
    parser.add_argument(
        "--proxied", type=_numbers, default=[1, 2, 4], help="behind HAProxy ('': none)"
    )
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--affinity", action="store_true", help="each client keeps to a process")
    parser.add_argument(
        "--reload-moves", type=int, default=5000, help="the long table reloaded (0: none)"
    )
    parser.add_argument(
        "--watch-moves", type=int, default=200, help="moves watched across processes (0: none)"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> list[Row]:
    args = parse(argv)
    pool = ClientProcesses(min(args.client_processes, max(args.clients)))
    rows: list[Row] = []
    print(preamble(args, len(pool.pids)), flush=True)
    try:
        with throwaway_server() as postgres, tempfile.TemporaryDirectory() as folder:
            flush = flush_floors(postgres.url, Path(folder), args.seconds)
            print(HEADER, flush=True)
            background = {
                "clients": cpu.processes(pool.pids),
                "harness": cpu.processes([os.getpid()]),
            }
            if postgres.pid is not None:  # not REFEREE_TEST_PG's: its processes are not ours
                background["postgres"] = cpu.tree(postgres.pid)
            with referees(["--db", str(Path(folder) / "bench.db")], 1) as serving:
                for row in _rows("SQLite ×1", serving, pool, args, background, flush[SQLITE]):
                    rows.append(row)
                    print(figures_line(row), flush=True)
            for count in args.processes:
                with fresh_database(postgres.url) as url, referees(["--store", url], count) as on:
                    deployment = f"PostgreSQL ×{count}"
                    for row in _rows(deployment, on, pool, args, background, flush[POSTGRES]):
                        rows.append(row)
                        print(figures_line(row), flush=True)
            for count in args.proxied:
                with (
                    fresh_database(postgres.url) as url,
                    referees(["--store", url], count) as on,
                    proxied(Path(folder) / f"haproxy-{count}", on) as proxy,
                ):
                    deployment = f"{PROXIED} ×{count}"
                    for row in _rows(
                        deployment, on, pool, args, background, flush[POSTGRES], proxy
                    ):
                        rows.append(row)
                        print(figures_line(row), flush=True)
            if args.watch_moves:
                print("\na watcher's delay, verdict to the watcher, moves made through process 0:")
                with fresh_database(postgres.url) as url, referees(["--store", url], 2) as on:
                    watch_delay.measure(on, args.watch_moves)
            if args.reload_moves:
                print(
                    "\nreloading a long table (median of several loads, each into an empty cache):"
                )
                with fresh_database(postgres.url) as url:
                    reload.measure(Path(folder), url, args.reload_moves)
    finally:
        pool.close()
    print(f"\ncores busy during each Propose measurement, of {cpu.CORES}:")
    for row in rows:
        print(cores_line(row))
    print(CORES_NOTE)
    if args.proxied:
        print(
            f"\nbehind {PROXIED}, against one process (aims: CPU within 15%, Propose/s not down):"
        )
        for line in aims_lines(rows):
            print(line)
    return rows


@contextlib.contextmanager
def proxied(folder: Path, serving: Sequence[Referee]) -> Iterator[Haproxy]:
    """HAProxy of the shipped configuration in front of `serving` (the bench calls gRPC alone:
    its HTTP backend is pointed at the same ports, and never called)."""
    folder.mkdir()
    proxy = Haproxy(folder, [Backend(r.address, r.address) for r in serving])
    try:
        proxy.wait_until_up()
        yield proxy
    finally:
        proxy.stop()
