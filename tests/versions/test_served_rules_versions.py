"""Over gRPC, with real `referee serve` processes (issue 14, point 1): the referee is stopped, a
rule corrected in its specs folder, and it is served again (`--specs DIR`): the table created
before keeps its rules, a new table follows the correction, and the API says which is which."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.engine.game import Game
from referee.engine.versions import rules_version
from referee.plugins.games import load_games
from tests.support.named_fields import named_fields
from tests.support.server import OpenTable, ServerProcess, seat_metadata
from tests.versions.corrected import ALLOWED_BEFORE_ONLY, corrected_specs, specs_copy

pytestmark = pytest.mark.slow  # every test here is a long run (3 s or more)


def pontoon_table(stub: RefereeStub) -> OpenTable:
    response = stub.CreateTable(pb.CreateTableRequest(game="pontoon", seats=3))
    tokens = {t.seat: t.token for t in response.seats}
    return OpenTable(stub, response.table_id, tokens, response.commitment)


def bet(table: OpenTable) -> list[str]:
    """The rules a bet of ALLOWED_BEFORE_ONLY by the seat to act breaks (none: accepted)."""
    verdict = table.propose(int(table.view(None)["to_act"]), "bet", amount=ALLOWED_BEFORE_ONLY)
    return [violation.rule for violation in verdict.violations]


def version_played(table: OpenTable, seat: int | None) -> str:
    """GetView's `rules_version`, asked with the seat's token (or none)."""
    metadata = seat_metadata(None if seat is None else table.tokens[seat])
    request = pb.GetViewRequest(table_id=table.table_id)
    return str(table.stub.GetView(request, metadata=metadata).rules_version)


def described(stub: RefereeStub, game: str) -> dict[str, Any]:
    return named_fields(stub.DescribeGame(pb.DescribeGameRequest(game=game)).description)


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_referee_served_again_with_a_corrected_rule_keeps_the_old_tables_rules(
    where: str, tmp_path: Path, request: pytest.FixtureRequest, games: dict[str, Game]
) -> None:
    store = (
        ["--db", str(tmp_path / "referee.db")]
        if where == "sqlite"
        else ["--store", request.getfixturevalue("pg_url")]
    )
    shipped = specs_copy(tmp_path / "specs")
    fixed = rules_version(load_games(corrected_specs(tmp_path / "corrected"))["pontoon"])

    first = ServerProcess(store=[*store, "--specs", str(shipped)])
    try:
        old = pontoon_table(first.stub)
        assert version_played(old, None) == rules_version(games["pontoon"])
        assert described(first.stub, "pontoon")["rules_version"] == rules_version(games["pontoon"])
    finally:
        first.stop()

    again = ServerProcess(store=[*store, "--specs", str(tmp_path / "corrected")])
    try:
        old.stub = again.stub
        new = pontoon_table(again.stub)
        assert bet(old) == [] and bet(new) == ["PO-3"]
        assert version_played(old, 1) == rules_version(games["pontoon"])
        assert version_played(new, None) == fixed
        assert described(again.stub, "pontoon")["rules_version"] == fixed
    finally:
        again.stop()
