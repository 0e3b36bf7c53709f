"""A dispute (issue 16): any seat calls the director on a past verdict. It is a move of the table:
logged, told to every seat, its reason to the disputing seat alone, the game unchanged; a
malformed one is a GEN-8 rejection that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from referee.adjudication.replay import adjudicate
from referee.engine.disputes import Bounds
from referee.engine.game import Game
from referee.engine.record import record_of
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.i18n.catalogue import CATALOGUE
from referee.model import ADJUDICATOR, DIRECTOR, Move, Outcome
from tests.support.server import DEAL

REASON = "my meld of three sevens was refused"


@pytest.fixture
def table(games: dict[str, Game]) -> Table:
    played = Table.create(
        games["pontinho"], TableSetup(game="pontinho", seats=3, dealer=0, deal=DEAL)
    )
    played.propose(1, Move("draw"))
    return played


def view_without_version(table: Table, seat: int | None) -> dict[str, Any]:
    """The view but for what a dispute changes: the version, and the disputes listed."""
    return {
        k: v
        for k, v in table.view(seat).items()
        if k not in ("version", "disputes", "disputes_ruled")
    }


def test_a_dispute_is_logged_and_told_changing_nothing_of_the_game(table: Table) -> None:
    before = {seat: view_without_version(table, seat) for seat in (None, 0, 1, 2, ADJUDICATOR)}
    verdict = table.propose(2, Move("dispute", {"version": 1, "reason": REASON}))
    assert verdict.outcome is Outcome.ACCEPTED and verdict.version == 2
    assert {seat: view_without_version(table, seat) for seat in before} == before
    listed = {"dispute": 2, "seat": 2, "version": 1}
    assert all(table.view(seat)["disputes"] == [listed] for seat in before)  # no reason in it
    assert all(table.view(seat)["disputes_ruled"] == 0 for seat in before)
    (event,) = verdict.events
    assert event.seen_by(0) == {"kind": "disputed", "seat": 2, "dispute": 2, "version": 1}
    assert event.seen_by(2)["reason"] == REASON  # the seat's own words, to itself
    assert table.propose(1, Move("discard", {"card": "JH"})).version == 3  # play goes on


def test_a_dispute_by_move_id_and_after_the_game_is_over(table: Table) -> None:
    verdict = table.propose(0, Move("dispute", {"proposal": "m-17", "reason": "x"}))
    assert verdict.outcome is Outcome.ACCEPTED
    assert verdict.events[0].seen_by(1)["proposal"] == "m-17"


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"reason": REASON}, "one of the two"),
        ({"version": 1, "proposal": "m", "reason": REASON}, "one of the two"),
        ({"version": 2, "reason": REASON}, "2 is no move of this table: its moves are 1 to 1"),
        ({"version": 0, "reason": REASON}, "is no move of this table"),
        ({"version": True, "reason": REASON}, "is no move of this table"),
        ({"version": 1}, "the reason is missing"),
        ({"version": 1, "reason": ""}, "printable characters"),
        ({"version": 1, "reason": "x" * 501}, "up to 500"),
        ({"version": 1, "reason": "a\u0000b"}, "printable characters"),
        ({"proposal": "", "reason": REASON}, "the proposal's move id"),
        ({"version": 1, "reason": REASON, "card": "7H"}, "the card is not part of this move"),
    ],
)
def test_a_malformed_dispute_is_refused_and_changes_nothing(
    table: Table, fields: dict[str, Any], said: str
) -> None:
    before = table.view(ADJUDICATOR)
    verdict = table.propose(2, Move("dispute", fields))
    assert verdict.outcome is Outcome.REJECTED and verdict.violations[0].rule == "GEN-8"
    assert said in verdict.violations[0].message
    assert table.view(ADJUDICATOR) == before


def test_no_seat_but_the_table_s_may_dispute(table: Table) -> None:
    for seat in (3, -1, -2):
        verdict = table.propose(seat, Move("dispute", {"version": 1, "reason": REASON}))
        assert verdict.outcome is Outcome.REJECTED


def test_a_record_with_a_dispute_replays(games: dict[str, Game]) -> None:
    table = Table.create(games["pontinho"], TableSetup(game="pontinho", seats=3, seed=7))
    table.propose(1, Move("draw"))
    table.propose(2, Move("dispute", {"version": 1, "reason": REASON}))
    answer = adjudicate(games, record_of(table))
    assert answer["legal"] and answer["moves"] == 2


def dispute(table: Table, seat: int, **fields: Any) -> Any:
    return table.propose(seat, Move("dispute", {"reason": REASON, **fields}))


def test_a_move_disputed_and_open_is_not_disputed_again(table: Table) -> None:
    assert dispute(table, 2, version=1).outcome is Outcome.ACCEPTED  # dispute 2
    assert dispute(table, 0, proposal="m-1").outcome is Outcome.ACCEPTED  # dispute 3
    before = table.view(ADJUDICATOR)
    for seat, fields in ((0, {"version": 1}), (2, {"version": 1}), (1, {"proposal": "m-1"})):
        verdict = dispute(table, seat, **fields)
        assert verdict.outcome is Outcome.REJECTED and verdict.violations[0].rule == "GEN-8"
        assert verdict.violations[0].code == "already_disputed"
        assert "that move is disputed already: dispute" in verdict.violations[0].message
    assert table.view(ADJUDICATOR) == before
    table.propose(DIRECTOR, Move("ruling", {"dispute": 2, "note": "n", "decision": "uphold"}))
    assert dispute(table, 0, version=1).outcome is Outcome.ACCEPTED  # ruled on: open again


def test_a_seat_has_at_most_three_disputes_open_and_a_table_sixteen(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    for version in range(1, 4):
        assert dispute(table, 2, version=version).outcome is Outcome.ACCEPTED
    fourth = dispute(table, 2, version=4)
    assert fourth.violations[0].code == "too_many_disputes"
    assert fourth.violations[0].message == (
        "you have 3 disputes open already: wait for the director to rule on one"
    )
    assert dispute(table, 0, version=4).outcome is Outcome.ACCEPTED  # another seat's are its own
    monkeypatch.setattr(Table, "dispute_bounds", Bounds(per_seat=3, per_table=5))
    assert dispute(table, 1, version=5).outcome is Outcome.ACCEPTED
    full = dispute(table, 1, version=6)
    assert full.violations[0].code == "too_many_disputes" and "this table has 5" in (
        full.violations[0].message
    )
    ruled = table.propose(
        DIRECTOR, Move("ruling", {"dispute": 2, "note": "n", "decision": "uphold"})
    )
    assert ruled.outcome is Outcome.ACCEPTED
    assert dispute(table, 2, version=6).outcome is Outcome.ACCEPTED  # one of its own was ruled on
    view = table.view(None)
    assert [d["dispute"] for d in view["disputes"]] == [3, 4, 5, 6, 8]
    assert view["disputes_ruled"] == 1


def test_the_bounds_are_default_three_a_seat_sixteen_a_table() -> None:
    assert Table.dispute_bounds == Bounds(per_seat=3, per_table=16)


@pytest.mark.parametrize("language", ["pt", "tl"])
def test_a_refused_dispute_says_why_in_the_seat_s_language(table: Table, language: str) -> None:
    dispute(table, 2, version=1)
    refused = dispute(table, 0, version=1).violations[0]
    worded = CATALOGUE.render(refused.sentence, language) if refused.sentence else ""
    assert worded and worded != refused.message
