"""A rummy spec declares only the moves, and the parts of a move, its game has: one it leaves
out is not offered (not in a view's `legal` or `legal_moves`, an unknown move if sent), and the
mechanic's verdicts only that move or part could give are not asked of the spec. What is still
needed is asked by name.

The spec: gin (docs/example-specs/gin.yaml), edited as text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import SpecError, SpecErrors
from referee.model import Move
from referee.plugins.games import load_game
from tests.support.examples import GIN

DEAL = {
    "hands": {
        "1": ["2C", "3C", "4C", "7H", "7S", "7D", "KD"],
        "0": ["AS", "2S", "9H", "TD", "JC", "QH", "4D"],
    },
    "stock": ["5C", "QS", "8C"],
}
GO_OUT = """  go_out:
    fields:
      melds: list_of_cards
      discard: {type: card, optional: true}
    text: {en: "go out: lay the whole hand in melds"}
"""
LAYOFF_MOVE = """  layoff:
    fields:
      meld: int
      cards: cards
      at: {type: enum, values: [low, high], optional: true}
    text: {en: "add cards to a meld on the table"}
"""
AMBIGUOUS = """    ambiguous_layoff:
      id: GN-4
      source: [example]
      text: {en: "these cards fit at both ends of the run: say `at: low` or `at: high`"}
"""


def edited(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    """gin.yaml with each (old, new) text replaced, written beside the test."""
    text = GIN.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "gin.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# no `layoff` move and no `ambiguous_layoff` verdict; going out lays melds only
WITHOUT_LAYOFFS = (
    (LAYOFF_MOVE, GO_OUT),
    (AMBIGUOUS, ""),
    (
        "on: [draw, take_discard, meld, layoff, discard]",
        "on: [draw, take_discard, meld, discard, go_out]",
    ),
    ("on: [meld, layoff, discard]", "on: [meld, discard, go_out]"),  # after a draw
    ("on: [meld, layoff]\n", "on: [meld]\n"),
)


def spec_error(path: Path) -> str:
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_game(path)
    return str(caught.value)


def test_a_move_left_out_is_neither_asked_for_nor_offered(tmp_path: Path) -> None:
    game = load_game(edited(tmp_path, *WITHOUT_LAYOFFS))
    table = Table.create(game, TableSetup(game="gin", seats=2, dealer=0, deal=DEAL))
    assert table.propose(1, Move("draw")).accepted
    view = table.view(1, legal=True)
    assert "layoff" not in view["legal_moves"] and "layoff" not in view["legal"]
    assert view["legal_moves"] == ["meld", "discard", "go_out"]
    sent = table.propose(1, Move("layoff", {"meld": 1, "cards": ["5C"]}))
    assert not sent.accepted
    assert sent.rule_ids() == {"GEN-8"}  # an unknown move type
    assert "there is no move lay off" in sent.violations[0].message


def test_going_out_with_melds_alone_needs_no_steal_verdict(tmp_path: Path) -> None:
    """`go_out` declares neither `steals` nor `layoffs`: the `steal` and `ambiguous_layoff`
    verdicts are not asked for; it lays the whole hand in melds, the last card discarded."""
    game = load_game(edited(tmp_path, *WITHOUT_LAYOFFS))
    assert "steal" not in game.mechanic.config.violations  # type: ignore[attr-defined]
    table = Table.create(game, TableSetup(game="gin", seats=2, dealer=0, deal=DEAL))
    assert table.propose(1, Move("draw")).accepted  # 5C
    out = table.propose(
        1,
        Move("go_out", {"melds": [["2C", "3C", "4C", "5C"], ["7H", "7S", "7D"]], "discard": "KD"}),
    )
    assert out.accepted, out.violations
    assert table.is_over and table.view(None)["winner"] == 1


def test_a_verdict_still_needed_is_asked_for_by_name(tmp_path: Path) -> None:
    """The control: `meld` is still declared, so `no_meld` is still needed; and `go_out` with
    `layoffs` needs `ambiguous_layoff` even without a `layoff` move."""

    no_meld = """    no_meld:
      id: GN-3
      source: [example]
      text: {en: "these cards are neither a set (one rank) nor a run (one suit)"}
"""
    assert "missing `no_meld`" in spec_error(edited(tmp_path, *WITHOUT_LAYOFFS, (no_meld, "")))
    lays_off = (
        "      discard: {type: card, optional: true}\n",
        "      discard: {type: card, optional: true}\n"
        "      layoffs: {type: {list: {meld: int, cards: cards}}, optional: true}\n",
    )
    assert "missing `ambiguous_layoff`" in spec_error(edited(tmp_path, *WITHOUT_LAYOFFS, lays_off))


def test_gin_as_shipped_is_unchanged(games: dict[str, Game]) -> None:
    """Pontinho still needs every verdict: it has every move that can give one."""
    config = games["pontinho"].mechanic.config  # type: ignore[attr-defined]
    assert set(config.violations) == {
        "no_meld",
        "ambiguous_layoff",
        "steal",
        "empty_stock",
        "no_discard",
    }


def test_going_out_with_the_hand_alone_is_listed(tmp_path: Path) -> None:
    """Where `go_out` lays new melds only, a view's `legal` lists the ways to lay the whole hand
    out (each accepted as proposed); before the draw there is none."""
    game = load_game(edited(tmp_path, *WITHOUT_LAYOFFS))
    table = Table.create(game, TableSetup(game="gin", seats=2, dealer=0, deal=DEAL))
    assert "go_out" not in table.view(1, legal=True)["legal"]  # seven cards: no way out
    assert table.propose(1, Move("draw")).accepted  # 5C
    listed = table.view(1, legal=True)["legal"]["go_out"]["moves"]
    assert listed == [{"melds": [["2C", "3C", "4C", "5C"], ["7D", "7H", "7S"]], "discard": "KD"}]
    assert table.propose(1, Move("go_out", listed[0])).accepted


def test_going_out_that_may_lay_off_is_not_listed(games: dict[str, Game]) -> None:
    """The control: Pontinho's going out may take, lay off and steal: never listed."""
    table = Table.create(games["pontinho"], TableSetup(game="pontinho", seats=3, seed=7))
    for seat in range(3):
        assert "go_out" not in table.view(seat, legal=True)["legal"]


def test_a_kind_needs_its_misfit_only_where_a_move_lays_off(tmp_path: Path) -> None:
    """A kind's `misfit` is given by a lay-off alone: without one (no `layoff`, no `layoffs`)
    it is not asked for; the control: gin, which lays off, is refused without it."""
    misfit = """    misfit:
      id: GN-3-set
      source: [example]
      text: {en: "a set takes only cards of its rank"}
"""
    load_game(edited(tmp_path, *WITHOUT_LAYOFFS, (misfit, "")))
    assert "meld_kinds.set.misfit" in spec_error(edited(tmp_path, (misfit, "")))
