"""The one map from the referee's error codes to gRPC status codes, and the guard that applies it.

An illegal move never gets here: it is a rejected verdict. What does get here is a protocol
problem (a bad token, an unknown table, a malformed request), answered with its status and the
error's message; anything else is a bug, answered INTERNAL without details and logged with them.
"""

from __future__ import annotations

from typing import Any, NoReturn

import grpc
import structlog

from referee.calls.refusals import refused
from referee.errors import RefereeError, shortened

log = structlog.get_logger("referee.server")

STATUS_OF_CODE: dict[str, grpc.StatusCode] = {
    "not_found": grpc.StatusCode.NOT_FOUND,
    "permission_denied": grpc.StatusCode.PERMISSION_DENIED,
    "unauthenticated": grpc.StatusCode.UNAUTHENTICATED,
    "version_conflict": grpc.StatusCode.ABORTED,
    "invalid_argument": grpc.StatusCode.INVALID_ARGUMENT,
    "invalid_option": grpc.StatusCode.INVALID_ARGUMENT,
    "invalid_setup": grpc.StatusCode.INVALID_ARGUMENT,
    "malformed_move": grpc.StatusCode.INVALID_ARGUMENT,  # outside a proposal: a record, a deal
    "malformed_card": grpc.StatusCode.INVALID_ARGUMENT,
    "resource_exhausted": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "failed_precondition": grpc.StatusCode.FAILED_PRECONDITION,
    "unavailable": grpc.StatusCode.UNAVAILABLE,  # shutting down; the database unreachable
}

INTERNAL_MESSAGE = "internal error: the referee logged the details"
MAX_STATUS_CHARS = 1000  # a status message: its quotes of client input are shorter still


def status_of(error: BaseException) -> tuple[grpc.StatusCode, str]:
    """The status and message a client gets for `error`.

    An error whose own code is not in the map takes its nearest base class's status: a new kind
    of InvalidArgument (`invalid_scenario`, say) is still INVALID_ARGUMENT.
    """
    if isinstance(error, RefereeError):
        for kind in type(error).__mro__:
            status = STATUS_OF_CODE.get(getattr(kind, "code", ""))
            if status is not None:
                return status, shortened(error.message, MAX_STATUS_CHARS)
    return grpc.StatusCode.INTERNAL, INTERNAL_MESSAGE


def reason_of(error: BaseException) -> str:
    """Why a call was refused, in a word: the error's `reason` if it has one (which quota of
    the service), else its code (`not_found`, `malformed_move`)."""
    return str(getattr(error, "reason", "") or getattr(error, "code", "") or "internal")


async def abort(
    context: grpc.aio.ServicerContext[Any, Any], rpc: str, error: Exception
) -> NoReturn:
    """End the call with the status of `error`: a bug (INTERNAL) is logged with its traceback,
    a refused request with its status."""
    code, message = status_of(error)
    refused(code, reason_of(error) if code is not grpc.StatusCode.INTERNAL else "internal")
    if code is grpc.StatusCode.INTERNAL:
        log.error("internal_error", rpc=rpc, exc_info=error)
    else:
        log.info(
            "request_refused",
            rpc=rpc,
            status=code.name,
            error_code=getattr(error, "code", ""),
            message=message,
        )
    await context.abort(code, message)
    raise AssertionError("context.abort returned")  # it raises: the call is over
