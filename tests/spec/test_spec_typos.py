"""A spec with a typo is refused where the typo is, with the word it was probably meant to be:
a misspelt key of a mechanic's section, a move no mechanic serves, a move without the fields its
handler reads. Each case was "ok" before, and silently changed the game."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from referee.engine.mechanic import Mechanic
from referee.mechanics.banking import moves as banking_moves
from referee.mechanics.banking.mechanic import BankingMechanic
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.mechanics.rummy.turn import Turn
from referee.mechanics.tricks import moves as tricks_moves
from referee.mechanics.tricks.mechanic import TricksMechanic
from tests.support.spec_edits import edited, refusal


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        (
            "pontinho",
            "  steal_bonus:",
            "  steal_bonsu:",
            "rummy.steal_bonsu: unknown key `steal_bonsu` in `rummy`: did you mean `steal_bonus`?",
        ),
        (
            "pontinho",
            "    blow_at: 100",
            "    blow_a: 100",
            "rummy.match.blow_a: unknown key `blow_a` in `rummy.match`: did you mean `blow_at`?",
        ),
        (
            "pontinho",
            "    extend: append",
            "    extends: append",
            "meld_kinds.trio.extends: unknown key `extends` in `meld_kinds.trio`: did you mean `extend`?",
        ),
        (
            "tarocchi_piedicavallo",
            "  dealer_extra:",
            "  dealer_extr:",
            "tricks.dealer_extr: unknown key `dealer_extr` in `tricks`: did you mean `dealer_extra`?",
        ),
        (
            "shoot_pontoon",
            "  kitty:   ",
            "  kity:   ",
            "banking.kity: unknown key `kity` in `banking`: did you mean `kitty`?",
        ),
        (
            "shoot_pontoon",
            "    shoot_settle:",
            "    shoot_setle:",
            "banking.kitty.shoot_setle: unknown key `shoot_setle` in `banking.kitty`: "
            "did you mean `shoot_settle`?",
        ),
        (
            "pontoon",
            "      id: PO-5-split-pack",
            "      idd: PO-5-split-pack",
            "banking.violations.split_pack_short.idd: unknown key `idd` in "
            "`banking.violations.split_pack_short`: did you mean `id`?",
        ),
    ],
)
def test_a_misspelt_key_of_a_mechanics_section_is_refused_at_the_key(
    tmp_path: Path, name: str, old: str, new: str, expected: str
) -> None:
    path = edited(tmp_path, name, old, new)
    line, message = refusal(path)
    assert message == expected
    assert (
        path.read_text(encoding="utf-8").splitlines()[line - 1].strip().startswith(new.strip()[:5])
    )


def test_a_move_no_handler_serves_is_refused(tmp_path: Path) -> None:
    path = edited(tmp_path, "pontinho", "\n  draw:\n", "\n  drwa:\n")
    _, message = refusal(path)
    assert message.startswith("moves.drwa: unknown key `drwa` in `moves`: did you mean `draw`?")


def test_a_move_without_the_fields_its_handler_reads_is_refused(tmp_path: Path) -> None:
    path = edited(tmp_path, "tarocchi_piedicavallo", "    fields: {card: card}\n", "")
    _, message = refusal(path)
    assert message == (
        "moves.play: the `tricks` mechanic's move `play` reads the field `card`: "
        "declare it under `fields`"
    )


def test_a_banking_size_the_procedure_does_not_follow_is_refused(tmp_path: Path) -> None:
    path = edited(tmp_path, "pontoon", "  hand_size: 2 ", "  hand_size: 3 ")
    _, message = refusal(path)
    assert message.startswith("banking.hand_size: the banking mechanic deals two cards each")


def test_a_misspelt_section_gets_a_suggestion(tmp_path: Path) -> None:
    path = edited(tmp_path, "tarocchi_piedicavallo", "\nrules:\n", "\nrulez:\n")
    _, message = refusal(path)
    assert message == "rulez: unknown section `rulez`: did you mean `rules`?"


@pytest.mark.parametrize(
    ("mechanic", "handlers", "prefix", "elsewhere"),
    [
        (RummyMechanic, Turn, "do_", {"pass"}),  # a claim window's pass: claims.py
        (BankingMechanic, banking_moves, "do_", set()),
        (TricksMechanic, tricks_moves, "", set()),  # its moves.py: the handlers alone
    ],
)
def test_the_moves_a_mechanic_declares_are_the_ones_it_handles(
    mechanic: type[Mechanic[Any]], handlers: type | ModuleType, prefix: str, elsewhere: set[str]
) -> None:
    found = {
        name.removeprefix(prefix)
        for name, function in inspect.getmembers(handlers, inspect.isfunction)
        if name.startswith(prefix) and _defined_in(handlers, function)
    }
    assert set(mechanic.moves) == found | elsewhere


def _defined_in(handlers: type | ModuleType, function: Any) -> bool:
    """A module's own functions, not those it imports (a class's are all its own)."""
    return not isinstance(handlers, ModuleType) or function.__module__ == handlers.__name__
