"""Secrets stay out of the logs (issue 10): a traceback is logged without the frames' local
variables, which hold seat tokens and hidden cards. The log chain `referee serve` configures is
run on an error raised where a token and a card are local variables."""

from __future__ import annotations

import functools
import io
import json

import structlog

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.server.logging import processors
from referee.service import RefereeService
from tests.support.server import open_table, status_of

TOKEN = "tok-5f3a9c0e1b2d4f6a8c7e9b0d1f2a3c4e"


def _fails(token: str) -> None:
    hidden_card = "QH"  # a local the traceback would show
    raise KeyError(f"boom after {len(token) + len(hidden_card)} characters")


def test_a_logged_traceback_holds_no_local_variables() -> None:
    out = io.StringIO()
    logger = structlog.wrap_logger(structlog.PrintLogger(out), processors=processors())
    try:
        _fails(TOKEN)
    except KeyError:
        logger.exception("internal_error", rpc="Propose")
    line = out.getvalue()
    entry = json.loads(line)
    assert entry["event"] == "internal_error" and "exception" in entry
    assert "_fails" in line  # the traceback is there
    assert TOKEN not in line and "QH" not in line and "locals" not in line


def test_the_control_a_chain_with_locals_would_leak() -> None:
    """The test has teeth: structlog's default traceback rendering shows the token."""
    out = io.StringIO()
    chain = [
        *processors()[:-2],
        structlog.processors.dict_tracebacks,
        structlog.processors.JSONRenderer(),
    ]
    logger = structlog.wrap_logger(structlog.PrintLogger(out), processors=chain)
    try:
        _fails(TOKEN)
    except KeyError:
        logger.exception("internal_error")
    assert TOKEN in out.getvalue()


def test_no_issued_token_reaches_the_log_of_a_busy_server(
    stub: RefereeStub, service: RefereeService
) -> None:
    """Tables created, moves proposed with right and forged tokens, views, watches and records
    asked: the server's log lines hold none of the tokens it issued, nor its signing key."""
    out = io.StringIO()
    structlog.configure(processors=processors(), logger_factory=structlog.PrintLoggerFactory(out))
    try:
        tokens: list[str] = []
        for _ in range(3):
            table = open_table(stub)
            tokens += table.tokens.values()
            table.propose(1, "draw", move_id="a")
            table.propose(1, "draw", move_id="a")
            table.propose(2, "draw")
            status_of(functools.partial(table.propose, 1, "draw", token=table.tokens[1] + "x"))
            table.view(0)
            stream = stub.Watch(
                pb.WatchRequest(table_id=table.table_id),
                metadata=(("x-seat-token", table.tokens[0]),),
            )
            stream.cancel()
            for token in (table.tokens[0], None):
                stub.GetRecord(
                    pb.GetRecordRequest(table_id=table.table_id),
                    metadata=(("x-seat-token", token),) if token else (),
                )
    finally:
        structlog.reset_defaults()
    logged = out.getvalue()
    assert logged.count("\n") > 10 and '"verdict"' in logged
    assert not [t for t in tokens if t in logged]
    assert service.signing_key.seed_hex not in logged
