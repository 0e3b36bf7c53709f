"""Propose: illegal or unreadable moves are verdicts; protocol problems are statuses; in both
cases nothing changes. Retries with a move id are answered once."""

from __future__ import annotations

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.server.convert import data_to_struct, struct_to_data
from tests.support.server import (
    GOING_OUT_DEAL,
    GOING_OUT_MELDS,
    OpenTable,
    open_table,
    seat_metadata,
    status_of,
)


def assert_rejected(verdict: pb.Verdict, table: OpenTable, version: int, *words: str) -> None:
    """A rejection with a reason (citing a rule), and the table where it was."""
    assert verdict.outcome == pb.OUTCOME_REJECTED
    assert verdict.violations and all(v.rule and v.message for v in verdict.violations)
    assert verdict.version == table.version() == version
    text = " ".join(v.message for v in verdict.violations)
    assert all(word in text for word in words), text


def test_a_legal_move_is_accepted_with_its_events(table: OpenTable) -> None:
    verdict = table.propose(1, "draw")
    assert (verdict.outcome, verdict.version, verdict.seat) == (pb.OUTCOME_ACCEPTED, 1, 1)
    assert [e.kind for e in verdict.events] == ["drew"]
    assert table.version() == 1


def test_the_proposer_sees_its_drawn_card_in_the_verdict(table: OpenTable) -> None:
    drew = table.propose(1, "draw").events[0]
    assert "4C" in str(drew.data)


def test_a_rejection_says_how_to_mend_the_move_where_the_rules_tell(table: OpenTable) -> None:
    card = table.view(1)["hand"][0]
    verdict = table.propose(1, "discard", card=card)  # before taking a card (PN-16)
    fixes = {v.rule: struct_to_data(v.fix) for v in verdict.violations}
    assert fixes["PN-16-take-first"] == {"kind": "move_instead", "moves": ["draw", "take_discard"]}
    out_of_turn = table.propose(2, "draw")  # GEN-7: no fix to offer, none sent
    assert [v.rule for v in out_of_turn.violations] == ["GEN-7"]
    assert not out_of_turn.violations[0].HasField("fix")


def test_a_malformed_card_code_is_a_rejection(table: OpenTable) -> None:
    table.propose(1, "draw")
    assert_rejected(table.propose(1, "discard", card="JX"), table, 1, "\u201cJX\u201d")


def test_an_unknown_move_type_is_a_rejection(table: OpenTable) -> None:
    assert_rejected(table.propose(1, "castle"), table, 0, "\u201ccastle\u201d")
    assert_rejected(table.propose(1, ""), table, 0)


def test_a_missing_field_is_a_rejection(table: OpenTable) -> None:
    table.propose(1, "draw")
    assert_rejected(table.propose(1, "discard"), table, 1, "card")


def test_an_unknown_field_is_a_rejection(table: OpenTable) -> None:
    assert_rejected(table.propose(1, "draw", card="4C"), table, 0, "card")


def test_a_card_not_held_is_a_rejection(table: OpenTable) -> None:
    table.propose(1, "draw")
    assert_rejected(
        table.propose(1, "discard", card="QD"), table, 1, "Q\u2666"
    )  # as players write it


def test_a_seat_out_of_turn_is_rejected(table: OpenTable) -> None:
    verdict = table.propose(2, "draw")
    assert_rejected(verdict, table, 0)
    assert "GEN-7" in {v.rule for v in verdict.violations} | {
        c for v in verdict.violations for c in v.cites
    }


def test_no_move_is_accepted_after_the_match_is_over(stub: RefereeStub) -> None:
    # seats 0 and 2 start at 99 with no re-entry: seat 1 going out ends the match (PN-26, PN-27)
    table = open_table(
        stub, GOING_OUT_DEAL, scores={0: 99, 2: 99}, options=data_to_struct({"reentry": "none"})
    )
    table.propose(1, "draw")
    out = table.propose(1, "go_out", melds=GOING_OUT_MELDS, discard="KD")
    assert out.outcome == pb.OUTCOME_ACCEPTED, out.violations
    view = table.view(None)
    assert view["hand_over"] is True and view["match_over"] is True and view["winner"] == 1
    assert_rejected(table.propose(2, "draw"), table, 2, "over")


def test_an_unknown_table_is_not_found(table: OpenTable) -> None:
    view = lambda: table.stub.GetView(pb.GetViewRequest(table_id="nope"))  # noqa: E731
    assert status_of(view) is grpc.StatusCode.NOT_FOUND


def test_with_a_token_an_unknown_table_answers_as_a_wrong_token(table: OpenTable) -> None:
    """No existence oracle (issue 10): a token tried on a table id learns nothing more."""
    answers = []
    for table_id, token in (("nope", table.tokens[1]), (table.table_id, "forged")):
        request = pb.ProposeRequest(table_id=table_id, move=pb.Move(type="draw"))
        with pytest.raises(grpc.RpcError) as failure:
            table.stub.Propose(request, metadata=seat_metadata(token))
        details = (failure.value.details() or "").replace(table_id, "<id>")
        answers.append((failure.value.code(), details))
        with pytest.raises(grpc.RpcError) as viewing:
            table.stub.GetView(pb.GetViewRequest(table_id=table_id), metadata=seat_metadata(token))
        answers.append(
            (viewing.value.code(), (viewing.value.details() or "").replace(table_id, "<id>"))
        )
    assert answers[0] == answers[2] and answers[1] == answers[3]
    assert answers[0][0] is grpc.StatusCode.UNAUTHENTICATED


def test_a_missing_table_id_is_an_invalid_argument(table: OpenTable) -> None:
    view = lambda: table.stub.GetView(pb.GetViewRequest())  # noqa: E731
    assert status_of(view) is grpc.StatusCode.INVALID_ARGUMENT


def test_a_type_among_the_fields_is_an_invalid_argument(table: OpenTable) -> None:
    propose = lambda: table.propose(1, "draw", type="meld")  # noqa: E731
    assert status_of(propose) is grpc.StatusCode.INVALID_ARGUMENT


def test_a_stale_expected_version_is_aborted(table: OpenTable) -> None:
    table.propose(1, "draw", expected_version=0)
    stale = lambda: table.propose(1, "discard", card="JH", expected_version=0)  # noqa: E731
    assert status_of(stale) is grpc.StatusCode.ABORTED
    assert table.version() == 1
    assert table.propose(1, "discard", card="JH", expected_version=1).version == 2


def test_a_retried_move_id_gets_the_first_verdict_and_applies_once(table: OpenTable) -> None:
    first = table.propose(1, "draw", move_id="m-1")
    again = table.propose(1, "draw", move_id="m-1")
    assert first == again and first.move_id == "m-1"
    assert table.version() == 1
    assert table.propose(1, "draw", move_id="m-2").outcome == pb.OUTCOME_REJECTED  # drew already


def test_a_retry_after_the_table_moved_on_still_gets_the_first_verdict(table: OpenTable) -> None:
    first = table.propose(1, "draw", move_id="m-1", expected_version=0)
    table.propose(1, "discard", card="JH")
    assert table.propose(1, "draw", move_id="m-1", expected_version=0) == first
    assert table.version() == 2


def test_a_retried_rejection_gets_the_same_rejection(table: OpenTable) -> None:
    first = table.propose(2, "draw", move_id="early")
    table.propose(1, "draw")
    table.propose(1, "discard", card="JH")  # now seat 2 could draw, but the answer was given
    again = table.propose(2, "draw", move_id="early")
    assert again == first and again.outcome == pb.OUTCOME_REJECTED
    assert table.version() == 2


def test_a_move_id_used_for_another_move_is_an_invalid_argument(table: OpenTable) -> None:
    table.propose(1, "draw", move_id="m-1")
    other = lambda: table.propose(1, "discard", card="JH", move_id="m-1")  # noqa: E731
    assert status_of(other) is grpc.StatusCode.INVALID_ARGUMENT
    assert table.version() == 1


def test_integral_numbers_arrive_as_ints(table: OpenTable) -> None:
    """Struct numbers are doubles: `meld: 1.0` must read as meld 1, not be refused as a float."""
    table.propose(1, "draw")
    assert table.propose(1, "meld", cards=["4C", "5C", "6C"]).outcome == pb.OUTCOME_ACCEPTED
    verdict = table.propose(1, "layoff", meld=1, cards=["7C", "8C"])
    assert verdict.outcome == pb.OUTCOME_ACCEPTED, verdict.violations
