"""A dispute (issue 16): any seat calls the director on a past verdict. It is a move of the table:
logged, told to every seat, its reason to the disputing seat alone, the game unchanged; a
malformed one is a GEN-8 rejection that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.record import record_of
from referee.engine.replay import adjudicate
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import ADJUDICATOR, Move, Outcome
from referee.spec.registry import Game
from tests.server.server_support import DEAL

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
    return {k: v for k, v in table.view(seat).items() if k not in ("version", "disputes")}


def test_a_dispute_is_logged_and_told_changing_nothing_of_the_game(table: Table) -> None:
    before = {seat: view_without_version(table, seat) for seat in (None, 0, 1, 2, ADJUDICATOR)}
    verdict = table.propose(2, Move("dispute", {"version": 1, "reason": REASON}))
    assert verdict.outcome is Outcome.ACCEPTED and verdict.version == 2
    assert {seat: view_without_version(table, seat) for seat in before} == before
    listed = {"dispute": 2, "seat": 2, "version": 1, "ruling": None}
    assert all(table.view(seat)["disputes"] == [listed] for seat in before)  # no reason in it
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
        ({"reason": REASON}, "one of `version` or `proposal`"),
        ({"version": 1, "proposal": "m", "reason": REASON}, "one of `version` or `proposal`"),
        ({"version": 2, "reason": REASON}, "`2` is no move of this table: its moves are 1 to 1"),
        ({"version": 0, "reason": REASON}, "is no move of this table"),
        ({"version": True, "reason": REASON}, "is no move of this table"),
        ({"version": 1}, "missing field `reason`"),
        ({"version": 1, "reason": ""}, "printable characters"),
        ({"version": 1, "reason": "x" * 501}, "up to 500"),
        ({"version": 1, "reason": "a\u0000b"}, "printable characters"),
        ({"proposal": "", "reason": REASON}, "`proposal`"),
        ({"version": 1, "reason": REASON, "card": "7H"}, "unknown field `card`"),
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
