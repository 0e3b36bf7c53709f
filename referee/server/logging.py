"""Structured logs: structlog, configured once, one JSON object per line.

Every proposal produces exactly one `verdict` event with the table, seat, move type, move id,
outcome, rule ids and latency, so that a log query answers "what was refused, why, how fast".
"""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO

import structlog
import structlog.tracebacks

from referee import __version__
from referee.service import Ruling
from referee.store.base import Store
from referee.store.postgres import PostgresStore, safe_url
from referee.store.sqlite import SqliteStore

log = structlog.get_logger("referee.server")

_configured = False


def configure_logging(level: str = "info", stream: TextIO | None = None) -> None:
    """JSON lines on `stream` (stderr: stdout carries the `listening` line). Once per process."""
    global _configured
    if _configured:
        return
    structlog.configure(
        processors=processors(),
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(stream or sys.stderr),
        # not cached: a module's logger follows the configuration of the moment (a test that ran
        # `serve` in-process gives it back, `forget_configuration`), at a microsecond or so a line
        cache_logger_on_first_use=False,
    )
    _configured = True


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


def log_stopped(reason: str) -> None:
    log.info("referee_stopped", version=__version__, reason=reason)
