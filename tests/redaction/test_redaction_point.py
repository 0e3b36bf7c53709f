"""The redaction point (`referee.redaction`): a rejection names only cards the proposer sees in the
hand being played or named in its own move; card codes are read in messages as written."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.cards import PackKind, codes_in
from referee.engine.table import Table, TableSetup
from referee.model import Event, Move, Verdict, Violation
from referee.redaction import HIDDEN, events_for, verdict_for
from tests.support.games import shipped_games

GAMES = shipped_games()


@pytest.mark.parametrize(
    ("text", "kind", "found"),
    [
        ("you do not hold `10H`, `KS`", PackKind.FRENCH, ["TH", "KS"]),
        ("see TD-4 and PN-19; 5H5S is no card, nor kS", PackKind.FRENCH, []),
        ("`T21`, `MT`, `T1` and `NB` (TA-7)", PackKind.TAROT, ["T21", "MT", "T1", "NB"]),
        ("T22 or TT or T0", PackKind.TAROT, []),
    ],
)
def test_card_codes_are_read_in_text(text: str, kind: PackKind, found: list[str]) -> None:
    assert codes_in(text, kind) == found


def pontoon_table() -> Table:
    """Three seats, the banker (seat 0) with its first card face down and hidden from itself."""
    table = Table.create(
        GAMES["pontoon"],
        TableSetup(game="pontoon", seats=3, seed=5, balances={0: 100, 1: 100, 2: 100}),
    )
    assert table.state.phase == "bet"
    return table


def rejection(*cards: str) -> Verdict:
    named = ", ".join(f"`{c}`" for c in cards)
    return Verdict.reject(Violation("PO-3", f"not with {named}", cards=cards))


def test_a_rejection_loses_the_cards_hidden_from_the_proposer() -> None:
    table = pontoon_table()
    banker_first = str(table.state.hands[0][0].cards[0])
    own = str(table.state.hands[1][0].cards[0])
    seen = verdict_for(table, 1, Move("bet", {"amount": 5}), rejection(banker_first, own))
    (violation,) = seen.violations
    assert violation.cards == (own,)
    assert violation.message == f"not with `{HIDDEN}`, `{own}`"


def test_the_banker_does_not_see_its_first_card_in_a_rejection() -> None:
    table = pontoon_table()
    banker_first = str(table.state.hands[0][0].cards[0])
    (violation,) = verdict_for(table, 0, Move("stick"), rejection(banker_first)).violations
    assert violation.cards == () and banker_first not in violation.message


def test_a_card_the_move_names_may_come_back() -> None:
    table = pontoon_table()
    banker_first = str(table.state.hands[0][0].cards[0])
    move = Move("split", {"card": banker_first.lower()})
    (violation,) = verdict_for(table, 2, move, rejection(banker_first)).violations
    assert violation.cards == (banker_first,) and banker_first in violation.message


def test_an_honest_rejection_is_unchanged() -> None:
    table = pontoon_table()
    verdict = rejection(str(table.state.hands[2][0].cards[0]))
    assert verdict_for(table, 2, Move("stick"), verdict) is verdict


def test_an_event_shows_its_secret_to_its_audience_only() -> None:
    event = Event("drew", {"seat": 1}, {"card": "5H"}, frozenset({1}))
    assert events_for([event], 1) == [{"kind": "drew", "seat": 1, "card": "5H"}]
    assert events_for([event], 2) == events_for([event], None) == [{"kind": "drew", "seat": 1}]


def banker_in_play(first: str, second: str) -> Table:
    """A three-seat Pontoon table in play, the banker (seat 0) holding `first` (face down, which
    it does not see) and `second`."""
    game = GAMES["pontoon"]
    setup = TableSetup(game="pontoon", seats=3, seed=1, balances={0: 100, 1: 100, 2: 100})
    probe = bet_all(Table.create(game, setup))
    deck = [str(c) for c in probe.state.deck]
    places = [deck.index(str(c)) for c in probe.state.hands[0][0].cards]  # the banker's, dealt
    for place, card in zip(places, (first, second)):
        other = deck.index(card)
        deck[place], deck[other] = deck[other], deck[place]
    return bet_all(Table.create(game, replace(setup, deal={"deck": deck})))


def bet_all(table: Table) -> Table:
    for seat in (1, 2):
        assert table.propose(seat, Move("bet", {"amount": 5})).accepted
    assert table.state.phase == "play"
    return table


def test_a_banker_rejection_does_not_depend_on_its_hidden_card() -> None:
    """The banker's first card is hidden from it until its turn (PO-3): whether it would make a
    pair to split must not show in a rejection (a twin-table test found PO-5-split listed only
    when it did not)."""
    pair, no_pair = banker_in_play("8S", "8H"), banker_in_play("KS", "8H")
    assert [str(c) for c in pair.state.hands[0][0].cards] == ["8S", "8H"]
    for move in (Move("split"), Move("twist"), Move("buy", {"amount": 5}), Move("stick")):
        seen = [verdict_for(t, 0, move, t.propose(0, move)) for t in (pair, no_pair)]
        assert seen[0] == seen[1], move


def mended(*cards: str) -> Verdict:
    """A rejection whose fix offers `cards`, and says them in a text too."""
    fix = {"kind": "play_one_of", "cards": list(cards), "note": " ".join(cards)}
    return Verdict.reject(Violation("PO-3", "not now", fix=fix))


def test_a_fix_loses_the_cards_hidden_from_the_proposer() -> None:
    table = pontoon_table()
    banker_first = str(table.state.hands[0][0].cards[0])
    own = str(table.state.hands[1][0].cards[0])
    (violation,) = verdict_for(
        table, 1, Move("bet", {"amount": 5}), mended(banker_first, own)
    ).violations
    assert violation.fix == {"kind": "play_one_of", "cards": [own], "note": f"{HIDDEN} {own}"}


def test_a_fix_offering_only_hidden_cards_is_dropped() -> None:
    table = pontoon_table()
    banker_first = str(table.state.hands[0][0].cards[0])
    (violation,) = verdict_for(table, 0, Move("stick"), mended(banker_first)).violations
    assert violation.fix == {}


def test_a_fix_naming_only_cards_seen_is_unchanged() -> None:
    """The control: what the seat sees passes whole (its own card, and no card at all)."""
    table = pontoon_table()
    own = str(table.state.hands[2][0].cards[0])
    for verdict in (
        mended(own),
        Verdict.reject(
            Violation(
                "PO-3", "bet", fix={"kind": "amount_range", "field": "amount", "min": 1, "max": 9}
            )
        ),
    ):
        assert verdict_for(table, 2, Move("stick"), verdict) is verdict
