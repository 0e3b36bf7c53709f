"""The gRPC target's conversions (the conformance suite runs it against a real server)."""

from __future__ import annotations

import pytest
from google.protobuf import json_format

from referee.api.v1 import referee_pb2 as pb
from referee.model import Outcome
from referee.scenario.format import Setup
from referee.scenario.remote import GrpcTarget, TargetError, create_request, merge_views, verdict_of


def test_a_stacked_deal_travels_with_text_seat_keys() -> None:
    setup = Setup(
        game="pontinho",
        seats=3,
        dealer=2,
        options={"joker_rule": "next_rank_same_suit"},
        deal={"hands": {1: ["2C"]}, "turned": "9D"},
        scores={0: 98},
    )
    request = create_request(setup)
    assert (request.game, request.seats, request.dealer) == ("pontinho", 3, 2)
    # seed 0 given explicitly: a table without a seed would be dealt fair (docs/fair-deal.md)
    assert request.HasField("deal") and request.HasField("seed") and request.seed == 0
    assert dict(request.scores) == {0: 98}
    assert json_format.MessageToDict(request.deal) == {"hands": {"1": ["2C"]}, "turned": "9D"}


def test_a_seeded_table_sends_its_seed() -> None:
    request = create_request(Setup(game="pontinho", seats=4, seed=42))
    assert request.HasField("seed") and request.seed == 42 and not request.HasField("deal")


def test_a_stacked_deal_travels_with_its_seed() -> None:
    request = create_request(
        Setup(game="pontinho", seats=3, seed=7, deal={"hands": {1: ["2C"]}, "turned": "9D"})
    )
    assert request.HasField("deal") and request.seed == 7


def test_a_verdict_comes_back_whole() -> None:
    message = pb.Verdict(
        outcome=pb.OUTCOME_REJECTED,
        version=3,
        violations=[
            pb.Violation(
                rule="PN-13-shape",
                message="no meld",
                cites=["PN-12", "PN-13"],
                cards=["4H"],
                code="rule_broken",
            )
        ],
    )
    verdict = verdict_of(message)
    assert verdict.outcome is Outcome.REJECTED and verdict.version == 3
    assert verdict.rule_ids() == {"PN-13-shape", "PN-12", "PN-13"}
    with pytest.raises(TargetError):
        verdict_of(pb.Verdict())


def test_the_full_view_is_built_from_the_seats_own_views() -> None:
    views = {0: {"to_act": 1, "hand": ["2C"], "seat": 0}, 1: {"to_act": 1, "hand": ["3C", "4C"]}}
    merged = merge_views(views)
    assert merged["hands"] == {"0": ["2C"], "1": ["3C", "4C"]} and merged["to_act"] == 1
    assert "hand" not in merged


def test_an_unreachable_referee_is_reported() -> None:
    with pytest.raises(TargetError, match=r"cannot reach a referee at `127\.0\.0\.1:1`"):
        GrpcTarget.connect("127.0.0.1:1", wait=0.2)
