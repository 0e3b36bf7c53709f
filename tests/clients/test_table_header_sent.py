"""The Python callers name the table of every call about one in `x-referee-table`: the client
(`RefereeClient`) and the scenario runner's gRPC target, against a real referee whose own check
records what each call carried."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from referee.app import ServerConfig, create_server
from referee.calls import wire
from referee.calls.metadata import TABLE_HEADER, metadata_value, verify_table_header
from referee.engine.game import Game
from referee.model import Move
from referee.scenario.format import Setup
from referee.scenario.remote import GrpcTarget
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_client import RefereeClient

OPERATOR = "header-operator"
ABOUT_A_TABLE = {"Propose", "GetView", "Watch", "GetRecord", "Explain", "Rule", "ReissueSeat"}

Seen = list[tuple[str, str, str | None]]  # each call's request, its table id, the header


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Seen:
    """What the referee's check was given, call by call (the check itself still runs)."""
    calls: Seen = []

    def recorded(metadata: Any, request: Any) -> None:
        table_id = getattr(request, "table_id", "")
        calls.append((type(request).__name__, table_id, metadata_value(metadata, TABLE_HEADER)))
        verify_table_header(metadata, request)

    monkeypatch.setattr(wire, "verify_table_header", recorded)
    return calls


@pytest.fixture
def address(games: dict[str, Game]) -> Iterator[str]:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    server, port = create_server(service, config=ServerConfig(create_token=OPERATOR))
    server.start()
    yield f"127.0.0.1:{port}"
    server.stop(None)
    service.close()


def about_tables(seen: Seen) -> set[str]:
    """The requests about a table that were seen, each asserted to have named its table."""
    about = [(request, table_id, header) for request, table_id, header in seen if table_id]
    assert all(header == table_id for _, table_id, header in about), about
    return {request.removesuffix("Request") for request, _, _ in about}


def test_the_client_names_the_table_of_every_call_about_one(address: str, seen: Seen) -> None:
    with RefereeClient(address, create_token=OPERATOR) as client:
        table = client.create_table("pontinho", seats=3, seed=7)
        assert client.propose(table.id, table.tokens[1], {"type": "draw"})["accepted"]
        client.view(table.id, table.tokens[1])
        next(client.watch(table.id, table.tokens[1]))
        client.record(table.id)
        client.explain(table.id, version=1)
        client.rule(table.id, 1, "uphold", "no dispute here")  # a rejected ruling: a call still
        client.reissue_seat(table.id, 2)
        client.list_tables()
    assert about_tables(seen) == ABOUT_A_TABLE
    assert ("CreateTableRequest", "", None) in seen


def test_the_scenario_runner_names_the_table_of_its_calls(address: str, seen: Seen) -> None:
    target = GrpcTarget.connect(address, create_token=OPERATOR)
    handle = target.create_table(Setup(game="pontinho", seats=3, seed=7))
    target.propose(handle, 1, Move("draw", {}))
    target.view(handle)
    target.close()
    assert about_tables(seen) == {"Propose", "GetView"}
