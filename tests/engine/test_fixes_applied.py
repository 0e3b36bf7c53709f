"""A rejection's fix, applied, makes the move legal (issue 11, point 5): the cards a follow-suit
or trump rule offers are each accepted (and are the plays the view lists), both ends of a bet's,
a buy's, a kitty's or a shoot bet's range are accepted and one beyond is rejected, the card a
gapped meld lacks mends it, the held cards a lay-off fix offers each lay off, a discard's fix
offers discards the rules accept."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.engine.table import Table, TableSetup
from referee.model import Move, Violation
from tests.liveness.oracle import accepted
from tests.support.games import shipped_games

GAMES = shipped_games()
TAROCCHI = GAMES["tarocchi_piedicavallo"]
SETTINGS = settings(
    max_examples=12, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def fixes(violations: tuple[Violation, ...], rule: str) -> dict[str, Any]:
    (found,) = [v.fix for v in violations if v.rule == rule]
    return dict(found)


def judged(table: Table, seat: int, move: Move) -> tuple[Violation, ...]:
    """The rejection `move` gets, proposed now (a rejected move changes nothing)."""
    verdict = table.propose(seat, move)
    assert not verdict.accepted, move
    return verdict.violations


def holds(table: Table, seat: int, move: Move) -> bool:
    return accepted(table.game, table.state, seat, move)


# --- trick taking: follow suit, trump ------------------------------------------------------------


def tarocchi_tricks(seed: int) -> Iterator[Table]:
    """A Tarocchi deal played at random (legal plays only), at each play."""
    table = Table.create(TAROCCHI, TableSetup(game=TAROCCHI.name, seats=4, seed=seed))
    rng = random.Random(seed)
    dealer = table.state.dealer
    choice = table.view(dealer, legal=True)["legal"]["discard"]
    cards = choice["cards"][:2] if "cards" in choice else choice["choices"][0]
    assert table.propose(dealer, Move("discard", {"cards": cards})).accepted
    while table.state.phase == "play" and table.state.deal_number == 1:
        yield table
        seat = table.state.to_act
        play = rng.choice(table.view(seat, legal=True)["legal"]["play"]["cards"])
        assert table.propose(seat, Move("play", {"card": play})).accepted


def mend_plays(seed: int) -> int:
    """At each play of a random deal, a card the view does not list is proposed: its rejection's
    fix offers exactly the plays the view lists, each accepted. How many were proposed."""
    mended = 0
    for table in tarocchi_tricks(seed):
        seat = table.state.to_act
        legal = table.view(seat, legal=True)["legal"]["play"]["cards"]
        illegal = [str(c) for c in table.state.hands[seat] if str(c) not in legal]
        if not illegal:
            continue
        violations = judged(table, seat, Move("play", {"card": illegal[0]}))
        (rule,) = [v.rule for v in violations]
        fix = fixes(violations, rule)
        assert rule in ("TA-7-follow", "TA-7-trump") and fix["kind"] == "play_one_of"
        assert sorted(fix["cards"]) == sorted(legal)
        assert all(holds(table, seat, Move("play", {"card": c})) for c in fix["cards"])
        mended += 1
    return mended


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_a_follow_or_trump_fix_offers_exactly_the_legal_plays(seed: int) -> None:
    mend_plays(seed)


def test_a_deal_has_plays_to_mend() -> None:
    assert mend_plays(3) > 0


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_a_discard_fix_offers_cards_the_dealer_may_discard(seed: int) -> None:
    table = Table.create(TAROCCHI, TableSetup(game=TAROCCHI.name, seats=4, seed=seed))
    dealer = table.state.dealer
    hand = [str(c) for c in table.state.hands[dealer]]
    kept_back = [c for c in hand if c.startswith("K") or c in ("T1", "T21", "MT")]  # TA-6
    assume(kept_back)
    kept, plain = kept_back[0], next(c for c in hand if c != kept_back[0])
    fix = fixes(judged(table, dealer, Move("discard", {"cards": [kept, plain]})), "TA-6")
    assert fix["kind"] == "choose_from" and fix["count"] == 2 and kept not in fix["cards"]
    if not any(c.startswith("T") and c[1:].isdigit() for c in fix["cards"]):  # no trump in it:
        # two plain cards or more to choose from, any two of them may be discarded
        assert all(
            holds(table, dealer, Move("discard", {"cards": list(pair)}))
            for pair in itertools.combinations(fix["cards"], 2)
        )


# --- banking: the ranges of bets, buys, kitties, shoot bets ------------------------------------


def assert_a_range(
    table: Table,
    seat: int,
    move_type: str,
    fix: dict[str, Any],
    others: dict[str, Any] | None = None,
) -> None:
    """Both ends of the fix's range accepted in its field, one beyond either rejected."""
    assert fix["kind"] == "amount_range"
    field, low, high = fix["field"], fix["min"], fix["max"]
    for amount, legal in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
        move = Move(move_type, {**(others or {}), field: amount})
        assert holds(table, seat, move) == legal, (move.to_data(), fix)


@SETTINGS
@given(seed=st.integers(0, 2**32), low=st.integers(1, 50), spread=st.integers(0, 200))
def test_a_bet_or_buy_fix_gives_its_range(seed: int, low: int, spread: int) -> None:
    game = GAMES["pontoon"]
    table = Table.create(
        game,
        TableSetup(
            game="pontoon",
            seats=3,
            seed=seed,
            options={"min_bet": low, "max_bet": low + spread},
            balances={s: 10_000 for s in range(3)},
        ),
    )
    first = table.state.to_act
    assert_a_range(
        table, first, "bet", fixes(judged(table, first, Move("bet", {"amount": 0})), "PO-3")
    )
    for seat in table.state.players():
        assert table.propose(seat, Move("bet", {"amount": low})).accepted
    seat = table.state.to_act
    if table.state.phase != "play" or not holds(table, seat, Move("buy", {"amount": low})):
        return  # the banker's pontoon ended the hand, or this hand may buy no card
    fix = fixes(judged(table, seat, Move("buy", {"amount": 0})), "PO-5-buy")
    assert (fix["min"], fix["max"]) == (low, 2 * low)
    assert_a_range(table, seat, "buy", fix)


@SETTINGS
@given(seed=st.integers(0, 2**32), kitty=st.integers(1, 100))
def test_a_kitty_or_shoot_fix_gives_its_range(seed: int, kitty: int) -> None:
    game = GAMES["shoot_pontoon"]
    table = Table.create(
        game,
        TableSetup(
            game="shoot_pontoon", seats=3, seed=seed, balances={s: 10_000 for s in range(3)}
        ),
    )
    banker = table.state.banker
    assert_a_range(
        table,
        banker,
        "kitty",
        fixes(judged(table, banker, Move("kitty", {"amount": 0})), "SH-1-amount"),
    )
    assert table.propose(banker, Move("kitty", {"amount": kitty})).accepted
    seat = table.state.to_act
    fix = fixes(judged(table, seat, Move("bet", {"amount": 1, "shoot": 0})), "SH-2")
    assert (fix["field"], fix["min"], fix["max"]) == ("shoot", 1, kitty)
    assert_a_range(table, seat, "bet", fix, {"amount": 1})


# --- rummy: a meld's missing card, the cards that lay off -------------------------------------

RUN_DEAL = {
    "hands": {
        "1": ["4C", "5C", "6C", "7C", "KH", "KS", "2D", "3D", "JH"],
        "2": ["4S", "4H", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
        "0": ["2S", "3S", "5H", "6H", "JD", "JS", "KC", "AD", "7S"],
    },
    "turned": "9D",
    "stock": ["8C", "TH", "5S"],
}  # seat 1 (the mão) draws 8C


def rummy_table() -> Table:
    game = GAMES["pontinho"]
    table = Table.create(game, TableSetup(game="pontinho", seats=3, deal=RUN_DEAL))
    assert table.propose(1, Move("draw")).accepted
    return table


def with_card(cards: list[str], card: str) -> Iterator[list[str]]:
    return (cards[:place] + [card] + cards[place:] for place in range(len(cards) + 1))


def test_the_card_a_gapped_sequence_lacks_mends_it() -> None:
    table = rummy_table()
    for gapped, lacking in ((["4C", "5C", "7C"], ["6C"]), (["KH", "KS"], ["KC", "KD"])):
        violations = judged(table, 1, Move("meld", {"cards": gapped}))
        assert violations and all(
            v.fix == {"kind": "missing_cards", "cards": lacking} for v in violations
        ), violations
    mended = [
        cards
        for cards in with_card(["4C", "5C", "7C"], "6C")
        if holds(table, 1, Move("meld", {"cards": cards}))
    ]
    assert mended == [["4C", "5C", "6C", "7C"]]


def test_a_lay_off_fix_offers_the_held_cards_that_lay_off() -> None:
    table = rummy_table()
    assert table.propose(1, Move("meld", {"cards": ["4C", "5C", "6C", "7C"]})).accepted
    (violation,) = judged(table, 1, Move("layoff", {"meld": 1, "cards": ["KH"]}))
    assert violation.fix == {"kind": "lay_off", "meld": 1, "cards": ["8C"]}
    assert holds(table, 1, Move("layoff", {"meld": 1, "cards": ["8C"]}))
    onto = table.view(1, legal=True)["legal"]["layoff"]["onto"]
    assert onto == [{"meld": 1, "cards": ["8C"]}]  # the view lists the same


def test_take_a_card_first_offers_the_moves_that_take_one() -> None:
    game = GAMES["pontinho"]
    table = Table.create(game, TableSetup(game="pontinho", seats=3, deal=RUN_DEAL))
    fix = fixes(judged(table, 1, Move("discard", {"card": "KH"})), "PN-16-take-first")
    assert fix == {"kind": "move_instead", "moves": ["draw", "take_discard"]}
    assert holds(table, 1, Move("draw"))
