"""Prometheus metrics: what an operator watches, in one registry per service (none is global).

`RefereeService` makes its `Metrics` (or takes one) and binds it: the live-table gauge reads the
service, a `SqliteStore` reports each group commit's time. The service counts tables created,
verdicts (and from their events disputes and rulings) and deadlines passed; the servicer counts
Propose latency and open Watch streams; the calls' outermost interceptor
(`referee.calls.refusals`) counts refusals. `serve --metrics-port` exposes the registry over
HTTP (`serve_metrics`). docs/operating.md, "Metrics", says what to watch.

    referee_tables_created_total{game}          tables opened by CreateTable
    referee_verdicts_total{game, outcome}       every proposal answered, retried move ids included
    referee_rejections_total{game, rule}        each rule a rejected proposal broke (the spec id)
    referee_disputes_total{game}                disputes raised (a seat's accepted `dispute`)
    referee_rulings_total{game, decision}       the director's rulings made: uphold, rewind, adjust
    referee_timeouts_total{game, kind}          deadlines passed and played by the server's clock:
                                                `claim_window` closed, `play_clock` (a turn ran out)
    referee_refusals_total{rpc, status, reason} calls ended with an error status, gRPC and HTTP
                                                alike: the status (`PERMISSION_DENIED`) and why, the
                                                error's code (`not_found`, `malformed_move`) or the
                                                quota (`peer_rate`, `token_rate`, `create_rate`,
                                                `streams_per_peer`, `streams_per_table`), `internal`
    referee_propose_seconds                     Propose latency, call to answer (histogram)
    referee_store_commit_seconds                one group commit of the SQLite store (histogram)
    referee_table_loads_total{source}           tables read into memory: from a snapshot, or the log
    referee_live_tables                         tables held in memory (not all the tables in play:
                                                the least recently used wait in the store)
    referee_watch_streams                       Watch streams open now

Retried move ids are answered again, never counted again as a dispute or a ruling. Refusals that
gRPC decides before any handler of the referee runs (`--max-concurrent-rpcs`, an unknown
method), and the HTTP gateway's own before a call (a body too large or not JSON, a cross-site
POST), are not in `referee_refusals_total`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

from referee.model import Verdict
from referee.store.base import Store
from referee.store.sqlite import SqliteStore

DISPUTED = "disputed"  # the event of an accepted `dispute` (referee.engine.disputes)
# the event each ruling makes, and its decision (referee.engine.rulings.EVENTS)
DECISIONS = {"upheld": "uphold", "rewound": "rewind", "adjusted": "adjust"}
TIMED_OUT = "timed_out"  # a turn's clock ran out (referee.engine.play_clock); else a window closed

# a verdict takes about a millisecond; a group commit with FULL sync one disk flush
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The referee's metrics, registered in `registry` (a new one unless given)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        into = self.registry
        self.verdicts = Counter(
            "referee_verdicts",
            "proposals answered, by game and outcome",
            ["game", "outcome"],
            registry=into,
        )
        self.rejections = Counter(
            "referee_rejections",
            "rules broken by rejected proposals, by game and spec rule id",
            ["game", "rule"],
            registry=into,
        )
        self.tables_created = Counter(
            "referee_tables_created", "tables opened, by game", ["game"], registry=into
        )
        self.disputes = Counter(
            "referee_disputes", "disputes raised, by game", ["game"], registry=into
        )
        self.rulings = Counter(
            "referee_rulings",
            "the director's rulings, by game and decision (uphold, rewind, adjust)",
            ["game", "decision"],
            registry=into,
        )
        self.timeouts = Counter(
            "referee_timeouts",
            "deadlines passed, by game and kind (claim_window, play_clock)",
            ["game", "kind"],
            registry=into,
        )
        self.refusals = Counter(
            "referee_refusals",
            "calls ended with an error status, by RPC, status and reason",
            ["rpc", "status", "reason"],
            registry=into,
        )
        self.propose_seconds = Histogram(
            "referee_propose_seconds",
            "Propose latency, call to answer",
            buckets=LATENCY_BUCKETS,
            registry=into,
        )
        self.commit_seconds = Histogram(
            "referee_store_commit_seconds",
            "one group commit of the store",
            buckets=LATENCY_BUCKETS,
            registry=into,
        )
        self.table_loads = Counter(
            "referee_table_loads",
            "tables read into memory, by source: `snapshot` (and the moves after it) or `log`",
            ["source"],
            registry=into,
        )
        self.live_tables = Gauge("referee_live_tables", "tables held in memory", registry=into)
        self.watch_streams = Gauge("referee_watch_streams", "Watch streams open", registry=into)

    def bind(self, live_tables: Callable[[], int], store: Store) -> None:
        """Read the live-table count from `live_tables`; time the store's commits, if it has any."""
        self.live_tables.set_function(live_tables)
        if isinstance(store, SqliteStore):
            store.on_commit = self.commit_seconds.observe

    def count_verdict(self, game: str, verdict: Verdict, *, replayed: bool = False) -> None:
        """One answer to a proposal or a ruling; a retried move id's (`replayed`) is an answer,
        not a second dispute or ruling."""
        self.verdicts.labels(game=game, outcome=verdict.outcome.value).inc()
        for rule in sorted({v.rule for v in verdict.violations}):
            self.rejections.labels(game=game, rule=rule).inc()
        if replayed:
            return
        for event in verdict.events:
            if event.kind == DISPUTED:
                self.disputes.labels(game=game).inc()
            elif event.kind in DECISIONS:
                self.rulings.labels(game=game, decision=DECISIONS[event.kind]).inc()

    def count_timeout(self, game: str, verdict: Verdict) -> None:
        """A deadline passed and its verdict recorded: a turn's clock, or a claim window."""
        timed_out = any(event.kind == TIMED_OUT for event in verdict.events)
        self.timeouts.labels(game=game, kind="play_clock" if timed_out else "claim_window").inc()

    def count_refusal(self, rpc: str, status: str, reason: str) -> None:
        self.refusals.labels(rpc=rpc, status=status, reason=reason).inc()


@dataclass(frozen=True)
class MetricsServer:
    """The HTTP endpoint of a registry (`/metrics`, any path answers) and the port it bound."""

    http: WSGIServer
    thread: threading.Thread
    port: int

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()
        self.thread.join(timeout=5)


def serve_metrics(metrics: Metrics, host: str, port: int) -> MetricsServer:
    """Expose `metrics` on `host:port` (0: any free port), in a thread of its own."""
    http, thread = start_http_server(port, addr=host.strip("[]"), registry=metrics.registry)
    return MetricsServer(http, thread, http.server_address[1])
