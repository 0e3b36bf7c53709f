"""Prometheus metrics: what an operator watches, in one registry per service (none is global).

`RefereeService` makes its `Metrics` (or takes one) and binds it: the live-table gauge reads the
service, a `SqliteStore` reports each group commit's time. The servicer counts Propose latency
and open Watch streams; `serve --metrics-port` exposes the registry over HTTP (`serve_metrics`).

    referee_verdicts_total{game, outcome}       every proposal answered, retried move ids included
    referee_rejections_total{game, rule}        each rule a rejected proposal broke (the spec id)
    referee_propose_seconds                     Propose latency, call to answer (histogram)
    referee_store_commit_seconds                one group commit of the SQLite store (histogram)
    referee_table_loads_total{source}           tables read into memory: from a snapshot, or the log
    referee_live_tables                         tables held in memory
    referee_watch_streams                       Watch streams open now
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

    def count_verdict(self, game: str, verdict: Verdict) -> None:
        self.verdicts.labels(game=game, outcome=verdict.outcome.value).inc()
        for rule in sorted({v.rule for v in verdict.violations}):
            self.rejections.labels(game=game, rule=rule).inc()


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
