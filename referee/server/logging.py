"""Structured logs: structlog, configured once, one JSON object per line.

Every proposal produces exactly one `verdict` event with the table, seat, move type, move id,
outcome, rule ids and latency, so that a log query answers "what was refused, why, how fast".

Every other line the process writes is one too: the standard library's `logging` (grpc's Python
code, aiohttp, asyncio) goes through the same chain (`logger` names its source), `warnings` are
logged, an exception no thread caught is an `uncaught_exception` event, and what is written below
Python on stderr (grpc's C core) is read back and logged (`referee.server.native_stderr`). The
lines `serve` prints on stdout for its launcher (`listening`, `http_listening`) are JSON as well.
"""

from __future__ import annotations

import logging
import sys
import threading
import types
from typing import Any, TextIO

import structlog
import structlog.stdlib
import structlog.tracebacks

from referee import __version__
from referee.service import Ruling
from referee.store.base import Store
from referee.store.partitioned import PartitionedStore
from referee.store.postgres import PostgresStore, safe_url
from referee.store.sqlite import SqliteStore

log = structlog.get_logger("referee.server")

_configured = False


def configure_logging(level: str = "info", stream: TextIO | None = None) -> None:
    """JSON lines on `stream` (stderr: stdout carries the `listening` line). Once per process."""
    global _configured
    if _configured:
        return
    number = logging.getLevelName(level.upper())
    structlog.configure(
        processors=processors(),
        wrapper_class=structlog.make_filtering_bound_logger(number),
        logger_factory=structlog.PrintLoggerFactory(stream or sys.stderr),
        # not cached: a module's logger follows the configuration of the moment (a test that ran
        # `serve` in-process gives it back, `forget_configuration`), at a microsecond or so a line
        cache_logger_on_first_use=False,
    )
    route_stdlib_logging(number, stream or sys.stderr)
    _configured = True


def route_stdlib_logging(level: int, stream: TextIO) -> None:
    """The standard library's log records, warnings and uncaught exceptions as JSON lines on
    `stream`, through the chain of structlog's own events (no locals in a traceback)."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *processors()[:-1]],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.JSONRenderer(),
            ],
        )
    )
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)
    logging.captureWarnings(True)  # `py.warnings` records: a warning is one JSON line
    sys.excepthook = _log_uncaught
    threading.excepthook = _log_thread_uncaught


def _log_uncaught(
    kind: type[BaseException], error: BaseException, trace: types.TracebackType | None
) -> None:
    log.error("uncaught_exception", thread="main", exc_info=(kind, error, trace))


def _log_thread_uncaught(hook: threading.ExceptHookArgs) -> None:
    if hook.exc_type is SystemExit:  # as threading's own hook: a thread's quiet way out
        return
    error = hook.exc_value if hook.exc_value is not None else hook.exc_type()
    name = hook.thread.name if hook.thread is not None else None
    log.error(
        "uncaught_exception", thread=name, exc_info=(hook.exc_type, error, hook.exc_traceback)
    )


def is_configured() -> bool:
    return _configured


def forget_configuration() -> None:
    """The next `configure_logging` configures again (tests that run `serve` in-process)."""
    global _configured
    _configured = False


def processors() -> list[Any]:
    """The chain every log event goes through. Tracebacks are kept without the frames' local
    variables: those hold the callers' seat tokens and cards no log may show."""
    tracebacks = structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
    return [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.ExceptionRenderer(tracebacks),
        structlog.processors.JSONRenderer(),
    ]


def log_verdict(table_id: str, move_type: str, ruling: Ruling, latency_s: float) -> None:
    verdict = ruling.verdict
    log.info(
        "verdict",
        table=table_id,
        seat=ruling.seat,
        move_type=move_type,
        move_id=ruling.move_id,
        outcome=verdict.outcome.value,
        accepted=verdict.accepted,
        rule_ids=sorted(verdict.rule_ids()),
        version=verdict.version,
        replayed=ruling.replayed,
        latency_ms=round(latency_s * 1000, 3),
    )


def log_started(
    address: str, games: list[str], store: Store, metrics_port: int | None, signing_key_id: str
) -> None:
    """The start-up line: what runs, where, with which games, which store and which signing key
    (its id only: `referee.records.signing`)."""
    where = "memory"
    if isinstance(store, SqliteStore):
        where = f"sqlite:{store.path}"
    elif isinstance(store, PostgresStore):
        where = f"postgresql:{safe_url(store.url)}"
    elif isinstance(store, PartitionedStore):
        where = " | ".join(f"postgresql:{safe_url(db.url)}" for db in store.databases)
    log.info(
        "referee_started",
        version=__version__,
        address=address,
        games=games,
        store=where,
        metrics_port=metrics_port,
        signing_key=signing_key_id,
    )


def log_descriptor_limit(was: int, soft: int, hard: int) -> None:
    """The descriptors the process may hold (each connection holds one), and whether the start
    raised the limit (`serve --keep-fd-limit`: not)."""
    if soft > was:
        log.info("descriptor_limit_raised", soft=soft, was=was, hard=hard)
    else:
        log.info("descriptor_limit", soft=soft, hard=hard)


def announce(event: str, stream: TextIO | None = None, **fields: Any) -> None:
    """A line for the launcher on stdout (`listening`, with the address it waits for), JSON as
    the log's are: the two streams read together (a terminal, the journal) are all JSON."""
    out = structlog.wrap_logger(
        structlog.PrintLogger(stream or sys.stdout),
        processors=processors(),
        wrapper_class=structlog.BoundLogger,  # said whatever `--log-level`: a launcher waits for it
    )
    out.info(event, **fields)


def log_stopped(reason: str) -> None:
    log.info("referee_stopped", version=__version__, reason=reason)
