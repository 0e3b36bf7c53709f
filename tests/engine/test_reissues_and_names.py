"""The engine's part of the lobby (issue 27): a seat's token reissued is a move of the director
that changes nothing of the game, keeps the play clock running and is never voided by a rewind;
display names are checked when a table is set up and shown in every view and the record."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.game import Game
from referee.engine.names import MAX_NAME_CHARS, name_problem
from referee.engine.record import record_of
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.errors import SetupError
from referee.model import ADJUDICATOR, DIRECTOR, Move, Outcome
from tests.support.server import DEAL

REISSUE_1 = Move("reissue", {"seat": 1})


def pontinho(games: dict[str, Game], **setup: Any) -> Table:
    return Table.create(
        games["pontinho"],
        TableSetup(game="pontinho", seats=3, dealer=0, deal=DEAL, seed=0, **setup),
    )


def game_view(table: Table, seat: int | None) -> dict[str, Any]:
    return {k: v for k, v in table.view(seat).items() if k != "version"}


def test_a_reissue_changes_nothing_of_the_game(games: dict[str, Game]) -> None:
    table = pontinho(games)
    before = {seat: game_view(table, seat) for seat in (None, ADJUDICATOR, 0, 1, 2)}
    verdict = table.propose(DIRECTOR, REISSUE_1)
    assert verdict.outcome is Outcome.ACCEPTED and verdict.version == 1
    assert [event.seen_by(2) for event in verdict.events] == [{"kind": "reissued", "seat": 1}]
    assert {seat: game_view(table, seat) for seat in before} == before
    assert record_of(table)["steps"] == [{"seat": "director", "move": REISSUE_1.to_data()}]


@pytest.mark.parametrize(
    ("seat", "move"),
    [
        (1, REISSUE_1),  # a seat may not
        (DIRECTOR, Move("reissue", {"seat": 3})),
        (DIRECTOR, Move("reissue", {"seat": True})),
        (DIRECTOR, Move("reissue", {})),
        (DIRECTOR, Move("reissue", {"seat": 1, "token": "x"})),
    ],
)
def test_a_reissue_that_cannot_be_made_is_gen8(
    games: dict[str, Game], seat: int, move: Move
) -> None:
    table = pontinho(games)
    verdict = table.propose(seat, move)
    assert verdict.outcome is Outcome.REJECTED and verdict.violations[0].rule == "GEN-8"
    assert table.version == 0


def test_a_rewind_never_voids_a_reissue(games: dict[str, Game]) -> None:
    table = pontinho(games)
    table.propose(1, Move("draw"))
    table.propose(DIRECTOR, REISSUE_1)  # version 2
    table.propose(1, Move("discard", {"card": "JH"}))  # 3
    table.propose(2, Move("dispute", {"version": 3, "reason": "too soon"}))  # 4
    ruling = {"dispute": 4, "decision": "rewind", "to": 1, "note": "back"}
    verdict = table.propose(DIRECTOR, Move("ruling", ruling))
    assert verdict.events[0].seen_by(0)["voided"] == [3]


def test_a_reissue_leaves_the_turn_clock_running(games: dict[str, Game]) -> None:
    table = pontinho(games, options={"turn_seconds": 30})
    table.propose(1, Move("draw"))
    running = table.deadline
    table.propose(DIRECTOR, REISSUE_1)
    assert running is not None and table.deadline == running  # its number: the same version


def test_names_are_shown_in_views_and_records(games: dict[str, Game]) -> None:
    table = pontinho(games, names={2: "Caio", 0: "Ana"})
    assert all(table.view(seat)["names"] == {"0": "Ana", "2": "Caio"} for seat in (None, 0, 2))
    assert record_of(table)["names"] == {"0": "Ana", "2": "Caio"}
    plain = pontinho(games)
    assert "names" not in plain.view(None) and "names" not in record_of(plain)
    assert "names" not in plain.setup.to_data()  # stored as it was before names
    assert TableSetup.from_data(table.setup.to_data()) == table.setup


@pytest.mark.parametrize(
    "name",
    ["", " ", "x" * (MAX_NAME_CHARS + 1), "a\tb", "a\x00", "\u202eevil", "a\u2028b", "a\u00a0b", 7],
)
def test_a_bad_name_sets_up_no_table(games: dict[str, Game], name: Any) -> None:
    assert name_problem(name) is not None
    with pytest.raises(SetupError):
        pontinho(games, names={1: name})


@pytest.mark.parametrize(
    "name", ["Ana", "x" * MAX_NAME_CHARS, "José da Silva", "玲", "🂡 ace", "a b"]
)
def test_a_good_name_is_one(name: str) -> None:
    assert name_problem(name) is None
