"""A verdict worded in another language goes through the redaction point after it is worded:
whatever a translation shows, no seat is told a card hidden from it."""

from __future__ import annotations

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.i18n.verdicts import verdict_worded
from referee.model import ADJUDICATOR, Move, Outcome, Verdict, Violation
from referee.service import Ruling

TAROCCHI = "tarocchi_piedicavallo"


def test_a_translated_sentence_names_no_hidden_card(games: dict[str, Game]) -> None:
    game = games[TAROCCHI]
    table = Table.create(game, TableSetup(game=TAROCCHI, seats=4, seed=5))
    seat = 1
    hidden = table.view(ADJUDICATOR)["hands"]["2"][0]  # another seat's card
    # a verdict whose sentence would show that card: the value `say` gave, as judged
    violation = Violation(
        "TA-7-follow", f"you must follow the suit led ({hidden}) when you can", said={"led": hidden}
    )
    ruling = Ruling(Verdict(Outcome.REJECTED, (violation,), (), table.version), seat, "", [])
    move = Move("play", {"card": table.view(seat)["hand"][0]})

    worded = ruling.worded(table, move, ["pt"]).verdict.violations[0]
    assert worded.message == "você deve seguir o naipe liderado (??) se possível"
    english = ruling.worded(table, move, []).verdict.violations[0]
    assert english.message == "you must follow the suit led (??) when you can"
    # the control: worded alone, without the redaction point, the translation shows the card
    [alone] = verdict_worded(ruling.verdict, game.texts, "pt", game.spec.words).violations
    assert f"({hidden})" in alone.message
