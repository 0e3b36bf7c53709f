"""What the fuzz suite (`tests/fuzz/`) found answered INTERNAL, each now a clear status.

Both were one bug in two places: a Struct key of digits arrives as a seat number (`"1"` -> 1),
and the names of unknown keys were sorted to name the first, which fails on text beside a number.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.server.convert import data_to_struct


def refusal(stub: RefereeStub, **request: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as failure:
        stub.CreateTable(pb.CreateTableRequest(**request))
    return failure.value.code(), failure.value.details() or ""


def test_an_option_named_by_digits_beside_a_named_one(stub: RefereeStub) -> None:
    options = data_to_struct({"type": None, "1": None})
    code, message = refusal(stub, game="pontinho", seats=3, options=options)
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert message.startswith("unknown option `1`: this game's options are `joker_rule`")


@pytest.mark.parametrize(
    "game, seats", [("pontinho", 3), ("pontoon", 3), ("tarocchi_piedicavallo", 4)]
)
def test_a_stacked_deal_key_of_digits_beside_a_named_one(
    stub: RefereeStub, game: str, seats: int
) -> None:
    code, message = refusal(stub, game=game, seats=seats, deal=data_to_struct({"x": 1, "1": 2}))
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert message.startswith("stacked deal: unknown key `1`")
