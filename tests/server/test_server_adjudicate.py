"""Adjudicate: a game record replayed, its first illegal move with reasons, or its result."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
import yaml

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.server.convert import data_to_struct, struct_to_data
from tests.i18n.test_player_sentences import machine_words
from tests.support.server import DEAL, status_of

RECORD: dict[str, Any] = {
    "format": 1,
    "game": "pontinho",
    "seats": 3,
    "dealer": 0,
    "deal": DEAL,
    "steps": [
        {"seat": 1, "move": {"type": "draw"}},
        {"seat": 1, "move": {"type": "meld", "cards": ["4C", "5C", "6C"]}},
        {"seat": 1, "move": {"type": "discard", "card": "JH"}},
        {"seat": 2, "move": {"type": "draw"}},
    ],
}
MELD_OUT_OF_ORDER = {"seat": 1, "move": {"type": "meld", "cards": ["6C", "4C", "5C"]}}
ENGLISH_HINT = "list the cards low to high: 4♣, 5♣, 6♣"
ILLEGAL = {
    **RECORD,
    "steps": [*RECORD["steps"][:3], {"seat": 2, "move": {"type": "meld", "cards": ["QD", "QC"]}}],
}


def test_a_legal_record_is_confirmed_with_its_result(stub: RefereeStub) -> None:
    report = stub.Adjudicate(pb.AdjudicateRequest(record_yaml=yaml.safe_dump(RECORD)))
    assert report.legal and not report.HasField("step") and report.moves == 4
    result = struct_to_data(report.result)
    assert result["to_act"] == 2 and len(result["hands"][2]) == 10


def test_an_illegal_record_names_its_first_illegal_move(stub: RefereeStub) -> None:
    report = stub.Adjudicate(pb.AdjudicateRequest(record_data=data_to_struct(ILLEGAL)))
    assert not report.legal
    assert (report.step, report.seat, report.moves) == (3, 2, 3)
    assert report.move.type == "meld"
    assert report.violations and all(v.rule and v.message for v in report.violations)


def test_a_record_as_data_and_as_yaml_agree(stub: RefereeStub) -> None:
    as_data = stub.Adjudicate(pb.AdjudicateRequest(record_data=data_to_struct(ILLEGAL)))
    as_yaml = stub.Adjudicate(pb.AdjudicateRequest(record_yaml=yaml.safe_dump(ILLEGAL)))
    assert as_data == as_yaml


@pytest.mark.parametrize(
    "text", ["steps: [", "just a string", yaml.safe_dump({**RECORD, "game": None})]
)
def test_an_unreadable_record_is_an_invalid_argument(stub: RefereeStub, text: str) -> None:
    request = pb.AdjudicateRequest(record_yaml=text)
    assert status_of(lambda: stub.Adjudicate(request)) is grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize("language", ["en", "pt"])
def test_an_illegal_move_is_told_in_the_caller_s_words(stub: RefereeStub, language: str) -> None:
    """A director reads Adjudicate's reasons as a seat reads a verdict's: in its language,
    cards as players write them, a fix in words; the data (`cards`, `fix`) keeps the codes."""
    wrong_order = {**RECORD, "steps": [RECORD["steps"][0], MELD_OUT_OF_ORDER]}
    request = pb.AdjudicateRequest(record_data=data_to_struct(wrong_order))
    report = stub.Adjudicate(request, metadata=[("accept-language", language)])
    (violation,) = report.violations
    assert violation.rule == "PN-13-order" and list(violation.cards) == ["6C", "4C", "5C"]
    assert struct_to_data(violation.fix)["cards"] == ["4C", "5C", "6C"]
    for sentence in (violation.message, violation.hint):
        assert sentence and not machine_words(sentence), sentence
    assert "4♣" in violation.hint
    if language == "pt":
        assert violation.hint != ENGLISH_HINT, "worded in Portuguese"
    else:
        assert violation.hint == ENGLISH_HINT
