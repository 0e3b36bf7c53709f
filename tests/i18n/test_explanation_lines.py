"""An explanation's lines: the table's own moves are said as the table's, not a seat's."""

from __future__ import annotations

from referee.engine.table import EXPIRE, SYSTEM
from referee.model import Outcome, Verdict
from referee.service.explanation_lines import explanation_lines


def test_a_deadline_passing_is_the_table_s_own_move() -> None:
    verdict = Verdict(Outcome.ACCEPTED, (), (), 5)
    assert explanation_lines(SYSTEM, EXPIRE, 4, verdict, [], "pt") == [
        "na versão 4 um prazo passou, e a mesa agiu por si: aceita",
        "nenhuma regra do jogo a julgou: não era uma jogada que as regras julgam",
    ]
    assert explanation_lines(2, "draw", 4, verdict, [], "en")[0] == (
        "seat 2 proposed to draw at version 4: accepted"
    )
