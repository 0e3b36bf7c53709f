"""A spec's play clock (`clock:`, issue 16) is data, checked when the spec loads: a mistake in it
is refused at its spot, never found at a table when a seat's time runs out."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.plugins.games import load_game
from referee.spec.clock_options import MAX_TIMEOUTS, ON_TIMEOUT, TURN_SECONDS
from tests.support.spec_edits import edited, refusal

DRAW = "    - move: draw\n"
DISCARD_PREFER = "      prefer: 'if move.card == hand[size(hand) - 1] then 0 else 1'\n"
BET_FIELDS = "      fields: {amount: options.min_bet}\n"


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        (
            "pontinho",
            DRAW,
            "    - move: drow\n",
            "clock.auto[0].move: `drow` is no move of this spec",
        ),
        (
            "pontinho",
            DISCARD_PREFER,
            "      prefer: move.card\n",
            "clock.auto[1].prefer: ",  # a card where an int is wanted
        ),
        (
            "pontoon",
            BET_FIELDS,
            "      fields: {amount: options.min_bet, stake: 1}\n",
            "clock.auto[0].fields.stake: the move `bet` has no field `stake`",
        ),
        (
            "pontoon",
            BET_FIELDS,
            "",
            "clock.auto[0]: the field `amount` of `bet` is given by no `fields` expression, "
            "and the `banking` mechanic lists no choices of `bet`",
        ),
        (
            "pontoon",
            BET_FIELDS,
            "      fields: {amount: move.amount}\n",
            "clock.auto[0].fields.amount: a field's expression reads no `move`",
        ),
        (
            "pontinho",
            DRAW,
            DRAW + "      lats: true\n",
            "clock.auto[0].lats: unknown key `lats`",
        ),
        (
            "pontinho",
            DRAW,
            DRAW + "      last: yes please\n",
            "clock.auto[0].last: `last` is `true` or `false`",
        ),
        (
            "tarocchi_piedicavallo",
            "clock:\n  source: [decision]\n",
            "clock:\n  sourse: [decision]\n",
            "clock.sourse: unknown key `sourse` in `clock`: did you mean `source`?",
        ),
    ],
)
def test_a_mistake_in_the_clock_is_refused_at_its_spot(
    tmp_path: Path, name: str, old: str, new: str, expected: str
) -> None:
    line, said = refusal(edited(tmp_path, name, old, new))
    assert said.startswith(expected), said
    assert line > 0


def test_a_spec_may_not_take_the_clock_s_option_names(tmp_path: Path) -> None:
    path = edited(
        tmp_path,
        "tarocchi_piedicavallo",
        "options:\n",
        "options:\n  turn_seconds: {type: int, default: 5, text: {en: x, pt: y}}\n",
    )
    assert refusal(path)[1].startswith("options.turn_seconds: `turn_seconds` is the play clock's")


def test_a_game_without_a_clock_has_none_of_its_options(tmp_path: Path) -> None:
    path = edited(tmp_path, "tarocchi_piedicavallo", "\nclock:\n", "\nno_clock:\n")
    path.write_text(path.read_text().split("\nno_clock:\n")[0] + "\n")
    game = load_game(path)
    assert not {TURN_SECONDS, ON_TIMEOUT, MAX_TIMEOUTS} & set(game.spec.options)
    assert game.auto_moves == ()
