"""PN-13-order (issue 27, a decision of the spec): a new meld listed out of order that would be a
sequence listed low to high is refused by its own rule, whose fix lists the cards in order (the
ace low or high, a joker standing in for a missing rank); cards that are no sequence in any order
stay PN-13's. No verdict changes: PN-13 alone refused them all before."""

from __future__ import annotations

import pytest

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import Move, Verdict
from referee.service import Ruling
from tests.conftest import StackDeal

TURNED = "9D"  # the jokers are 9S and 9C
HAND = ["6C", "4C", "5C", "KH", "AH", "QH", "9S", "2D", "3D"]  # seat 1, the mão, draws AD
STOCK = ["AD", "JD"]


def laid(pontinho: Game, stacked: StackDeal, cards: list[str]) -> tuple[Table, Move, Verdict]:
    deal = stacked(3, {1: HAND}, TURNED, STOCK)
    table = Table.create(pontinho, TableSetup(game="pontinho", seats=3, seed=1, deal=deal))
    assert table.propose(1, Move("draw")).accepted
    move = Move("meld", {"cards": cards})
    return table, move, table.propose(1, move)


@pytest.mark.parametrize(
    ("cards", "ordered"),
    [
        (["6C", "4C", "5C"], ["4C", "5C", "6C"]),
        (["5C", "6C", "4C"], ["4C", "5C", "6C"]),
        (["KH", "AH", "QH"], ["QH", "KH", "AH"]),  # the ace high
        (["2D", "3D", "AD"], ["AD", "2D", "3D"]),  # the ace low
        (["6C", "9S", "4C"], ["4C", "9S", "6C"]),  # a joker for the 5 of clubs
        (["QH", "KH", "AH", "9S"], ["9S", "QH", "KH", "AH"]),  # nothing beyond the ace: a jack
        (["5C", "4C", "9S"], ["4C", "5C", "9S"]),  # the joker left over at the high end
    ],
)
def test_cards_out_of_order_are_told_the_order(
    pontinho: Game, stacked: StackDeal, cards: list[str], ordered: list[str]
) -> None:
    _, _, verdict = laid(pontinho, stacked, cards)
    assert not verdict.accepted
    [order] = [v for v in verdict.violations if v.rule == "PN-13-order"]
    assert order.cites == ("PN-13",) and "PN-13" not in {v.rule for v in verdict.violations}
    assert order.fix == {"kind": "order_cards", "cards": ordered}
    assert order.message == "a sequence is listed low to high"


@pytest.mark.parametrize("cards", [["KH", "AH", "2D"], ["4C", "6C", "KH"], ["4C", "5C", "4C"]])
def test_cards_that_are_no_sequence_in_any_order_stay_pn13_s(
    pontinho: Game, stacked: StackDeal, cards: list[str]
) -> None:
    _, _, verdict = laid(pontinho, stacked, cards)
    assert not verdict.accepted and "PN-13-order" not in verdict.rule_ids()


def test_in_order_they_are_accepted(pontinho: Game, stacked: StackDeal) -> None:
    for cards in (["4C", "5C", "6C"], ["QH", "KH", "AH"], ["AD", "2D", "3D"]):
        _, _, verdict = laid(pontinho, stacked, cards)
        assert verdict.accepted, (cards, verdict.violations)


def test_the_fix_is_said_in_each_language(pontinho: Game, stacked: StackDeal) -> None:
    table, move, verdict = laid(pontinho, stacked, ["6C", "4C", "5C"])
    ruling = Ruling(verdict, 1, "", [])
    [en] = ruling.worded(table, move, ["en"]).verdict.violations
    [pt] = ruling.worded(table, move, ["pt"]).verdict.violations
    assert en.hint == "list the cards low to high: 4♣, 5♣, 6♣"
    assert pt.message == "a sequência é listada da carta menor para a maior"
    assert pt.hint == "liste as cartas da menor para a maior: 4♣, 5♣, 6♣"
    assert pt.fix == {"kind": "order_cards", "cards": ["4C", "5C", "6C"]}  # the data: codes
