"""Values in range (issue 10): every amount, score and option fits what a Struct's double carries
exactly (2^53 - 1), so an accepted move's verdict and every later view can always be sent. A
number beyond it is a GEN-8 rejection (a move) or INVALID_ARGUMENT (a table's setup), never an
exception: a kitty top-up of 1.7e308 once bricked a table for good."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.errors import SpecErrors
from referee.model import SAFE_INTEGER
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.server.convert import data_to_struct
from tests.support.server import OpenTable, open_table, status_of

HUGE = [1.7e308, float(SAFE_INTEGER + 1), -float(SAFE_INTEGER + 1), 10.0**20]


def shoot_table(stub: RefereeStub, **options: int) -> OpenTable:
    return open_table(
        stub,
        deal={"deck": []},
        game="shoot_pontoon",
        seats=3,
        options=data_to_struct(options),
        balances={0: 500, 1: 500, 2: 500},
    )


@pytest.mark.parametrize("amount", HUGE)
def test_an_amount_out_of_range_is_a_rejection_and_the_table_lives_on(
    stub: RefereeStub, amount: float
) -> None:
    table = shoot_table(stub)
    verdict = table.propose(0, "kitty", amount=amount, move_id="k1")
    assert verdict.outcome == pb.OUTCOME_REJECTED
    assert [(v.rule, "out of range" in v.message) for v in verdict.violations] == [("GEN-8", True)]
    assert table.propose(0, "kitty", amount=amount, move_id="k1").outcome == pb.OUTCOME_REJECTED
    for seat in (None, 0, 1, 2):
        assert table.view(seat)["kitty"] == 0
    assert table.propose(0, "kitty", amount=100).outcome == pb.OUTCOME_ACCEPTED


def test_an_amount_that_is_no_integer_is_a_rejection(stub: RefereeStub) -> None:
    table = shoot_table(stub)
    verdict = table.propose(0, "kitty", amount=2.5, move_id="half")
    assert [v.rule for v in verdict.violations] == ["GEN-8"]
    assert table.view(0)["kitty"] == 0


@pytest.mark.parametrize(
    "fields",
    [
        {"amount": float("nan")},
        {"amount": float("inf")},
        {"amount": -float("inf")},
        {"amount": 5, "1": 5},
        {"amount": [{"0": 1}]},
    ],
)
@pytest.mark.parametrize("move_id", ["", "m1"])
def test_a_move_the_log_cannot_hold_is_invalid_argument(
    stub: RefereeStub, fields: dict[str, Any], move_id: str
) -> None:
    """NaN, infinities (JSON has none) and keys of digits only (they come back as seats)."""
    table = shoot_table(stub)
    status = status_of(lambda: table.propose(0, "kitty", move_id=move_id, **fields))
    assert status == grpc.StatusCode.INVALID_ARGUMENT
    assert table.view(0)["kitty"] == 0 and table.version() == 0


def test_the_largest_amounts_allowed_travel_exactly(stub: RefereeStub) -> None:
    table = shoot_table(stub, max_bet=1_000_000_000)
    assert table.propose(0, "kitty", amount=1_000_000_000).outcome == pb.OUTCOME_ACCEPTED
    view = table.view(1)
    assert view["kitty"] == 1_000_000_000 and view["balances"][0] == 500 - 1_000_000_000


@pytest.mark.parametrize(
    "options, balances",
    [
        ({"max_bet": 1.7e308}, None),
        ({"max_bet": 1_000_000_001}, None),
        ({"min_bet": -5}, None),
        (None, {0: 2**60}),
        (None, {7: 10}),
    ],
)
def test_a_setup_out_of_range_is_invalid_argument(
    stub: RefereeStub, options: dict[str, Any] | None, balances: dict[int, int] | None
) -> None:
    request = pb.CreateTableRequest(
        game="pontoon", seats=3, options=data_to_struct(options or {}), balances=balances or {}
    )
    assert status_of(lambda: stub.CreateTable(request)) == grpc.StatusCode.INVALID_ARGUMENT


def test_a_spec_bound_beyond_the_safe_range_is_refused(tmp_path: Path) -> None:
    text = (DEFAULT_SPECS / "pontoon.yaml").read_text(encoding="utf-8")
    path = tmp_path / "pontoon.yaml"
    path.write_text(text.replace("max: 1000000000", f"max: {2**60}", 1), encoding="utf-8")
    with pytest.raises(SpecErrors) as caught:
        load_game(path, DEFAULT_SPECS)
    assert "2^53 - 1" in str(caught.value)
