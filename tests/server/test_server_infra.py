"""What makes the server usable by any gRPC tool and operable: health, reflection, size limits,
status codes, and one structured log event per verdict."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from structlog.testing import capture_logs

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.calls.status import INTERNAL_MESSAGE
from referee.calls.status import status_of as status_for
from referee.errors import (
    InvalidArgument,
    NotFound,
    OptionError,
    PermissionDenied,
    RefereeError,
    SetupError,
    SpecError,
    Unauthenticated,
    VersionConflict,
)
from referee.scenario.format import ScenarioError
from referee.server.convert import data_to_struct
from referee.store.base import Store, StoreConflict
from tests.support.server import MAX_MESSAGE_BYTES, OpenTable, status_of


def test_health_reports_serving(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "referee.v1.Referee"):
            answer = health.Check(health_pb2.HealthCheckRequest(service=service))
            assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_referee_and_describes_it(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        assert {"referee.v1.Referee", "grpc.health.v1.Health"} <= set(database.get_services())
        described = database.FindFileContainingSymbol("referee.v1.Referee")
        assert described.name == "referee/v1/referee.proto"


def test_an_oversized_request_is_refused_and_changes_nothing(
    stub: RefereeStub, store: Store
) -> None:
    huge = {"padding": "x" * (MAX_MESSAGE_BYTES + 1)}
    request = pb.CreateTableRequest(game="pontinho", seats=3, options=data_to_struct(huge))
    assert status_of(lambda: stub.CreateTable(request)) is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert store.table_ids() == []


def test_an_oversized_move_is_refused_and_changes_nothing(table: OpenTable) -> None:
    propose = lambda: table.propose(1, "discard", card="x" * MAX_MESSAGE_BYTES)  # noqa: E731
    assert status_of(propose) is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert table.version() == 0


def test_each_verdict_is_one_structured_log_event(table: OpenTable) -> None:
    with capture_logs() as logs:
        table.propose(1, "draw", move_id="m-1")
        table.propose(2, "draw")
    verdicts = [entry for entry in logs if entry["event"] == "verdict"]
    assert len(verdicts) == 2
    accepted, rejected = verdicts
    assert accepted["table"] == table.table_id
    assert (accepted["seat"], accepted["move_type"], accepted["move_id"]) == (1, "draw", "m-1")
    assert (accepted["accepted"], accepted["outcome"], accepted["rule_ids"]) == (
        True,
        "accepted",
        [],
    )
    assert (rejected["seat"], rejected["accepted"]) == (2, False)
    assert "GEN-7" in rejected["rule_ids"]
    assert all(v["latency_ms"] >= 0 for v in verdicts)


def test_a_refused_request_is_logged_with_its_status(table: OpenTable) -> None:
    with capture_logs() as logs:
        status_of(lambda: table.propose(1, "draw", token="forged"))
    refused = [entry for entry in logs if entry["event"] == "request_refused"]
    assert [(r["rpc"], r["status"]) for r in refused] == [("Propose", "UNAUTHENTICATED")]


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (NotFound("x"), grpc.StatusCode.NOT_FOUND),
        (PermissionDenied("x"), grpc.StatusCode.PERMISSION_DENIED),
        (Unauthenticated("x"), grpc.StatusCode.UNAUTHENTICATED),
        (VersionConflict("x"), grpc.StatusCode.ABORTED),
        (StoreConflict("x"), grpc.StatusCode.ABORTED),
        (InvalidArgument("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (OptionError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (SetupError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (ScenarioError("x"), grpc.StatusCode.INVALID_ARGUMENT),  # by its base class
        (SpecError("x"), grpc.StatusCode.INTERNAL),  # a broken spec is the server's fault
        (RefereeError("x"), grpc.StatusCode.INTERNAL),
        (KeyError("x"), grpc.StatusCode.INTERNAL),
    ],
)
def test_the_one_map_from_errors_to_statuses(error: Exception, status: grpc.StatusCode) -> None:
    code, message = status_for(error)
    assert code is status
    # the message is the error's, except for INTERNAL: no internals leak to clients
    if status is grpc.StatusCode.INTERNAL:
        expected = INTERNAL_MESSAGE
    else:
        assert isinstance(error, RefereeError)
        expected = error.message
    assert message == expected
