"""A rummy without a match may still play for chips and for several hands: `rummy.settlement`
says what each seat that did not go out pays whoever did, `rummy.hands` how many hands are dealt
(the deal passing on). Chips move balance to balance by `transfer` events, never made or lost
(GEN-6); the balances are in the views.

The spec: gin (docs/example-specs/gin.yaml), edited as text. The control: gin as it
is moves no chips and ends after one hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.table import Table, TableSetup
from referee.errors import SpecError, SpecErrors
from referee.model import ADJUDICATOR, Move
from referee.plugins.games import DEFAULT_SPECS, load_game
from tests.support.examples import GIN

DEAL = {
    "hands": {
        "1": ["2C", "3C", "4C", "7H", "7S", "7D", "KD"],
        "0": ["AS", "2S", "9H", "TD", "JC", "QH", "4D"],
    },
    "stock": ["5C", "QS", "8C"],
}
SETTLED = """  hand_size: 7
  settlement:
    source: [example]
    pays: 'size(hand) + count(c in hand: rank(c) >= 10)'
  hands: 2
"""


def gin(tmp_path: Path, settled: bool) -> Table:
    text = GIN.read_text(encoding="utf-8")
    if settled:
        text = text.replace("  hand_size: 7\n", SETTLED)
    path = tmp_path / "gin.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(path)
    setup = TableSetup(game="gin", seats=2, dealer=0, deal=DEAL, balances={0: 20, 1: 20})
    return Table.create(game, setup)


def go_out(table: Table) -> list[dict[str, object]]:
    """Seat 1 draws 5C, lays its melds and goes out discarding KD: the events of the last move."""
    for move in (
        Move("draw"),
        Move("meld", {"cards": ["2C", "3C", "4C", "5C"]}),
        Move("meld", {"cards": ["7H", "7S", "7D"]}),
    ):
        assert table.propose(1, move).accepted
    verdict = table.propose(1, Move("discard", {"card": "KD"}))
    assert verdict.accepted, verdict.violations
    return [dict(e.data) for e in verdict.events if e.kind == "transfer"]


def test_each_seat_that_did_not_go_out_pays_and_the_deal_passes(tmp_path: Path) -> None:
    table = gin(tmp_path, settled=True)
    transfers = go_out(table)
    # seat 0 kept seven cards, three of them ten or over (TD JC QH): 7 + 3
    assert transfers == [{"from": 0, "to": 1, "amount": 10, "reason": "settlement"}]
    view = table.view(ADJUDICATOR)
    assert view["balances"] == {"0": 10, "1": 30}  # GEN-6: the sum is what it was
    assert not table.is_over and view["hand_number"] == 2 and view["dealer"] == 1
    assert view["last_hand"]["went_out"] == 1 and view["pot"] == 0


def test_without_a_settlement_one_hand_moves_no_chips(tmp_path: Path) -> None:
    table = gin(tmp_path, settled=False)
    assert go_out(table) == []
    assert table.is_over and table.view(None)["winner"] == 1
    assert table.view(None)["balances"] == {"0": 20, "1": 20}


def test_hands_belong_to_a_game_without_a_match(tmp_path: Path) -> None:
    text = (Path(DEFAULT_SPECS) / "pontinho.yaml").read_text(encoding="utf-8")
    path = tmp_path / "pontinho.yaml"
    path.write_text(text.replace("  hand_size: 9 ", "  hands: 3\n  hand_size: 9 "), "utf-8")
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_game(path)
    assert "no `hands`" in str(caught.value)
