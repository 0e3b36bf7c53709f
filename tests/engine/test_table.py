"""The table: options and seats (PN-1), stacked deals, seeded deals (PN-3, GEN-5), replay,
the deck commitment, joker sets (PN-5), and unreadable moves (GEN-8)."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from referee.cards import Card, codes
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import OptionError, SetupError
from referee.model import ADJUDICATOR, Move
from referee_bots.rummy_bot import turn_candidates

StackDeal = Callable[..., dict[str, Any]]  # the `stacked` fixture (tests/conftest.py)


def new_table(game: Game, **setup: Any) -> Table:
    return Table.create(game, TableSetup(game="pontinho", **{"seed": 7, **setup}))


def bot_moves(table: Table, rng: random.Random, accepted: int) -> None:
    """Let the random bot play `accepted` moves (or until the match is over)."""
    for _ in range(accepted):
        if table.is_over:
            return
        full = table.view(ADJUDICATOR)
        seat = full["to_act"] if full["to_act"] is not None else full["deciding"][0]
        for move in turn_candidates(table.view(seat), rng):
            if table.propose(seat, Move.from_data(move)).accepted:
                break


# --- options ------------------------------------------------------------------------------


def test_defaults_fill_every_option(pontinho: Game) -> None:
    assert pontinho.resolve_options({}) == {
        "joker_rule": "same_rank_other_colour",
        "deal_packets": "singles",
        "joker_recovery": "steal_to_go_out",
        "go_out_discard": "optional",
        "ace_one_at_98": True,
        "reentry": "once",
        "stakes": 0,
        "claims": "first_valid",
        "claim_window_ms": 3000,
        "turn_seconds": 0,  # the play clock's (its `clock:` section): off
        "on_timeout": "auto",
        "max_timeouts": 0,
    }


def test_unknown_option_is_named_with_the_known_ones(pontinho: Game) -> None:
    with pytest.raises(OptionError) as caught:
        new_table(pontinho, options={"jokers": "none"})
    message = caught.value.message
    assert "unknown option `jokers`" in message
    assert "`joker_rule`" in message and "`deal_packets`" in message
    assert caught.value.code == "invalid_option"


@pytest.mark.parametrize(
    "name, value, allowed",
    [
        ("joker_rule", "wild", "`same_rank_other_colour`, `next_rank_same_suit`"),
        ("deal_packets", "pairs", "`singles`, `threes`"),
        ("deal_packets", 3, "`singles`, `threes`"),
        ("joker_recovery", "swap", "`steal_to_go_out`, `substitute`"),
        ("go_out_discard", "never", "`optional`, `forbidden`, `required`"),
        ("ace_one_at_98", "yes", "`true`, `false`"),
        ("ace_one_at_98", 1, "`true`, `false`"),
    ],
)
def test_bad_option_value_names_the_option_and_the_allowed_values(
    pontinho: Game, name: str, value: Any, allowed: str
) -> None:
    with pytest.raises(OptionError) as caught:
        new_table(pontinho, options={name: value})
    message = caught.value.message
    assert f"option `{name}`" in message and f"`{value}`" in message
    assert allowed in message


def test_given_options_reach_the_state(pontinho: Game) -> None:
    options = {"joker_rule": "next_rank_same_suit", "ace_one_at_98": False}
    table = new_table(pontinho, options=options)
    assert table.state.options["joker_rule"] == "next_rank_same_suit"
    assert table.state.options["ace_one_at_98"] is False
    assert table.state.options["deal_packets"] == "singles"


# --- seats and dealer (PN-1) --------------------------------------------------------------


@pytest.mark.parametrize("seats", [0, 1, 2, 6, 10])
def test_pontinho_is_played_by_three_to_five(pontinho: Game, seats: int) -> None:
    with pytest.raises(SetupError) as caught:
        new_table(pontinho, seats=seats)
    assert "3 to 5" in caught.value.message and f"`{seats}`" in caught.value.message


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_three_to_five_seats_are_dealt(pontinho: Game, seats: int) -> None:
    view = new_table(pontinho, seats=seats).view(ADJUDICATOR)
    assert view["seats"] == seats
    assert sorted(view["hands"]) == [str(s) for s in range(seats)]


@pytest.mark.parametrize("dealer", [-1, 4])
def test_dealer_must_be_a_seat(pontinho: Game, dealer: int) -> None:
    with pytest.raises(SetupError, match="dealer"):
        new_table(pontinho, seats=4, dealer=dealer)


@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_the_seat_after_the_dealer_acts_first(pontinho: Game, dealer: int) -> None:
    view = new_table(pontinho, seats=4, dealer=dealer).view(ADJUDICATOR)
    assert view["mao"] == view["to_act"] == (dealer + 1) % 4


# --- stacked deals ------------------------------------------------------------------------

HAND = ["2S", "3S", "4S", "5H", "5D", "5C", "9C", "TC", "JC"]


def _stacked(stacked: StackDeal, **change: Any) -> dict[str, Any]:
    deal = stacked(4, {1: HAND}, "9D")
    deal.update(change)
    return deal


def test_a_stacked_deal_is_dealt_as_given(pontinho: Game, stacked: StackDeal) -> None:
    deal = stacked(4, {1: HAND}, "9D", ["4C", "KH"])
    view = new_table(pontinho, deal=deal).view(ADJUDICATOR)
    assert view["hands"]["1"] == HAND
    assert view["turned"] == view["discard_top"] == "9D"
    assert view["stock"][:2] == ["4C", "KH"]
    assert view["stock_size"] == 104 - 4 * 9 - 1


@pytest.mark.parametrize(
    "copies, turned, stock",
    [
        (3, "9D", []),  # three 7H in one hand
        (2, "7H", []),  # two in hand, and the turned card
        (1, "9D", ["7H", "7H"]),  # one in hand, two in the stock
    ],
)
def test_a_stacked_deal_cannot_use_a_card_more_often_than_the_pack_holds(
    pontinho: Game, stacked: StackDeal, copies: int, turned: str, stock: list[str]
) -> None:
    hand = ["7H"] * copies + HAND[copies:]
    with pytest.raises(SetupError) as caught:
        new_table(pontinho, deal=stacked(4, {1: hand}, turned, stock))
    assert "`7H` is used 3 times; the pack holds 2" in caught.value.message


@pytest.mark.parametrize("size", [0, 8, 10])
def test_a_stacked_hand_has_nine_cards(pontinho: Game, stacked: StackDeal, size: int) -> None:
    deal = _stacked(stacked)
    deal["hands"][2] = (HAND + ["KD"])[:size]
    with pytest.raises(SetupError) as caught:
        new_table(pontinho, deal=deal)
    assert f"seat 2 gets {size} cards, not 9" in caught.value.message


def test_a_stacked_deal_needs_every_seat(pontinho: Game, stacked: StackDeal) -> None:
    deal = _stacked(stacked)
    del deal["hands"][3]
    with pytest.raises(SetupError, match="no hand for seat 3"):
        new_table(pontinho, deal=deal)


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"hands": {"7": HAND}}, "`7` is not a seat"),
        ({"hands": [HAND]}, "`hands` must map each seat"),
        ({"turned": None}, "missing `turned`"),
        ({"turned": "9X"}, "\u201c9X\u201d is not a card"),
        ({"stock": ["4C", "one"]}, "\u201cone\u201d is not a card"),
        ({"extra": 1}, "unknown key `extra`"),
    ],
)
def test_a_malformed_stacked_deal_is_a_setup_error(
    pontinho: Game, stacked: StackDeal, change: dict[str, Any], problem: str
) -> None:
    with pytest.raises(SetupError) as caught:
        new_table(pontinho, deal=_stacked(stacked, **change))
    assert problem in caught.value.message


# --- seeded deals (PN-3, GEN-5) -----------------------------------------------------------


def _deal_view(table: Table) -> dict[str, Any]:
    view = table.view(ADJUDICATOR)
    return {k: view[k] for k in ("hands", "turned", "stock", "jokers", "to_act")}


def test_the_same_seed_deals_the_same_cards(pontinho: Game) -> None:
    one, two = new_table(pontinho, seed=42), new_table(pontinho, seed=42)
    assert _deal_view(one) == _deal_view(two)
    assert one.setup.salt != two.setup.salt and one.commitment != two.commitment
    three = new_table(pontinho, seed=42, salt=one.setup.salt)
    assert three.view(ADJUDICATOR) == one.view(ADJUDICATOR)
    assert _deal_view(new_table(pontinho, seed=43)) != _deal_view(one)


def test_a_table_without_a_seed_gets_a_secret(pontinho: Game) -> None:
    table = Table.create(pontinho, TableSetup(game="pontinho"))
    assert table.setup.seed is None and table.setup.salt
    assert table.setup.secret is not None and len(bytes.fromhex(table.setup.secret)) == 32
    assert table.view(0)["deal"] == "fair" and "seed" not in table.view(0)
    again = Table.create(pontinho, table.setup)
    assert _deal_view(again) == _deal_view(table)


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_singles_and_threes_deal_the_same_deck_differently(pontinho: Game, seats: int) -> None:
    singles, threes = (
        new_table(pontinho, seats=seats, dealer=seats - 1, options={"deal_packets": packets})
        for packets in ("singles", "threes")
    )
    deck = codes(singles.state.deck)
    assert deck == codes(threes.state.deck)
    one, three = singles.view(ADJUDICATOR), threes.view(ADJUDICATOR)
    assert one["hands"] != three["hands"]
    for view in (one, three):
        assert all(len(hand) == 9 for hand in view["hands"].values())
        assert view["stock_size"] == len(view["stock"]) == 104 - 9 * seats - 1
        assert view["turned"] == view["discard_top"] == deck[9 * seats]
        assert view["stock"] == deck[9 * seats + 1 :]  # top first
    # the dealer is the last seat, so seat 0 is dealt first
    for seat in range(seats):
        assert one["hands"][str(seat)] == deck[seat : 9 * seats : seats]
        assert three["hands"][str(seat)] == [
            deck[3 * (seats * packet + seat) + k] for packet in range(3) for k in range(3)
        ]


def test_the_first_draw_takes_the_top_of_the_stock(pontinho: Game) -> None:
    table = new_table(pontinho)
    top = table.view(ADJUDICATOR)["stock"][0]
    verdict = table.propose(1, Move.from_data({"type": "draw"}))
    assert verdict.accepted
    assert table.view(1)["hand"][-1] == top
    drew = verdict.events[0]
    assert drew.seen_by(1)["card"] == top and "card" not in drew.seen_by(2)


# --- replay (GEN-5) -----------------------------------------------------------------------


def test_replaying_the_history_reproduces_the_table(pontinho: Game) -> None:
    table = new_table(pontinho, seed=11, seats=3)
    bot_moves(table, random.Random(11), 40)
    assert table.version == len(table.history) >= 40
    again = Table.replay(pontinho, table.setup, table.history)
    assert again.view(ADJUDICATOR) == table.view(ADJUDICATOR)
    assert again.version == table.version and again.history == table.history


def test_replaying_a_log_that_no_longer_replays_is_a_setup_error(pontinho: Game) -> None:
    table = new_table(pontinho)
    history = [(1, Move.from_data({"type": "draw"})), (1, Move.from_data({"type": "draw"}))]
    with pytest.raises(SetupError, match="move 2 `draw` of seat 1"):
        Table.replay(pontinho, table.setup, history)


def test_setup_round_trips_through_data(pontinho: Game, stacked: StackDeal) -> None:
    table = new_table(pontinho, deal=stacked(3, {1: HAND}, "9D"), seats=3, scores={0: 12})
    setup = TableSetup.from_data(table.setup.to_data())
    assert setup == table.setup
    assert Table.create(pontinho, setup).view(ADJUDICATOR) == table.view(ADJUDICATOR)


# --- the deck commitment ------------------------------------------------------------------


def test_the_commitment_is_checkable_once_the_hand_is_over(pontinho: Game) -> None:
    table = new_table(pontinho, seed=3, seats=3)
    dealt = table.view(ADJUDICATOR)
    for seat in range(3):
        view = table.view(seat)
        assert view["commitment"] == table.commitment
        assert "salt" not in view and "deck" not in view and not view["last_hand"]
    rng = random.Random(3)
    while table.view(ADJUDICATOR)["hand_number"] == 1:
        bot_moves(table, rng, 1)
    finished = table.view(0)["last_hand"]  # the first hand, revealed to everyone
    assert finished["commitment"] == table.commitment
    text = finished["salt"] + ":" + ",".join(finished["deck"])
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == table.commitment
    # the revealed deck is the one that was dealt (singles, seat 1 first)
    deck = finished["deck"]
    assert sorted(deck) == sorted(codes(pontinho.spec.pack()))
    for seat in range(3):
        assert dealt["hands"][str(seat)] == deck[(seat - 1) % 3 : 27 : 3]
    assert deck[27] == dealt["turned"] and deck[28:] == dealt["stock"]
    # the next hand has a commitment of its own, and its salt stays secret
    assert table.view(0)["commitment"] != table.commitment


def test_a_spectator_sees_the_hand_revealed_only_at_its_end(
    pontinho: Game, stacked: StackDeal
) -> None:
    hand = ["2S", "3S", "4S", "5H", "5D", "5C", "9C", "TC", "JC"]
    table = new_table(pontinho, deal=stacked(4, {1: hand}, "KD", ["QH"]))
    assert not table.view(None)["last_hand"] and "hands" not in table.view(None)
    assert table.propose(1, Move.from_data({"type": "draw"})).accepted
    verdict = table.propose(
        1,
        Move.from_data(
            {
                "type": "go_out",
                "melds": [["2S", "3S", "4S"], ["5H", "5D", "5C"], ["9C", "TC", "JC"]],
                "discard": "QH",
            }
        ),
    )
    assert verdict.accepted
    view = table.view(None)
    finished = view["last_hand"]
    assert finished["hands"]["1"] == [] and "hands" not in view and "salt" not in view
    text = finished["salt"] + ":" + ",".join(finished["deck"])
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == table.commitment


# --- jokers (PN-5) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "turned, rule, jokers",
    [
        ("7H", "same_rank_other_colour", ["7C", "7S"]),
        ("7H", "next_rank_same_suit", ["8H"]),
        ("KH", "next_rank_same_suit", ["AH"]),
        ("KH", "same_rank_other_colour", ["KC", "KS"]),
        ("7S", "same_rank_other_colour", ["7D", "7H"]),
        ("AD", "next_rank_same_suit", ["2D"]),
        ("QC", "next_rank_same_suit", ["KC"]),
    ],
)
def test_the_turned_card_sets_the_jokers(
    pontinho: Game, stacked: StackDeal, turned: str, rule: str, jokers: list[str]
) -> None:
    table = new_table(pontinho, deal=stacked(4, {}, turned), options={"joker_rule": rule})
    assert table.view(2)["jokers"] == jokers
    assert sorted(table.state.jokers) == [Card.parse(c) for c in jokers]


# --- unreadable moves are rejections, never errors (GEN-8) --------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_non_finite_number_for_an_int_field_is_rejected(pontinho: Game, value: float) -> None:
    table = new_table(pontinho)
    assert table.propose(1, Move.from_data({"type": "draw"})).accepted
    before = table.view(ADJUDICATOR)
    verdict = table.propose(1, Move.from_data({"type": "layoff", "meld": value, "cards": ["9S"]}))
    assert not verdict.accepted
    assert verdict.violations[0].rule == "GEN-8"
    assert verdict.violations[0].code == "malformed_move"
    assert table.view(ADJUDICATOR) == before


@pytest.mark.parametrize(
    "move, code",
    [
        ({"type": "fold"}, "malformed_move"),
        ({}, "malformed_move"),
        ({"type": "discard", "card": "ZZ"}, "malformed_move"),
        ({"type": "discard", "card": 5}, "malformed_move"),
        ({"type": "discard"}, "malformed_move"),
        ({"type": "discard", "card": "9S", "extra": 1}, "malformed_move"),
        ({"type": "layoff", "meld": "1", "cards": ["9S"]}, "malformed_move"),
        ({"type": "layoff", "meld": True, "cards": ["9S"]}, "malformed_move"),
        ({"type": "go_out", "steals": [{"meld": 1}]}, "malformed_move"),
        (
            {"type": "take_discard", "layoff": {"meld": 1, "cards": [], "at": "mid"}},
            "malformed_move",
        ),
    ],
)
def test_an_unreadable_move_is_rejected_under_gen8(
    pontinho: Game, move: dict[str, Any], code: str
) -> None:
    table = new_table(pontinho)
    before = table.view(ADJUDICATOR)
    verdict = table.propose(1, Move.from_data(move))
    assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", code)]
    assert verdict.violations[0].message and "`" not in verdict.violations[0].message  # words
    assert table.view(ADJUDICATOR) == before and verdict.version == 0


@pytest.mark.parametrize("seat", [-1, 4, 99])
def test_a_move_from_no_seat_is_rejected(pontinho: Game, seat: int) -> None:
    verdict = new_table(pontinho).propose(seat, Move.from_data({"type": "draw"}))
    assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", "unknown_seat")]


# --- what is worked out once a state --------------------------------------------------------


def test_what_is_kept_for_a_state_is_worked_out_again_once_a_move_changes_it(
    pontinho: Game,
) -> None:
    """`per_state` (a seat's legal moves, the cards its view names for cutting a rejection)
    holds while rejections change nothing, and is worked out again after an accepted move: a
    kept view never outlives the state it was seen in."""
    table = new_table(pontinho)
    seat = table.view(ADJUDICATOR)["to_act"]
    worked: list[int] = []

    def version_seen() -> int:
        worked.append(table.version)
        return table.version

    assert table.per_state("seen", version_seen) == 0
    assert not table.propose(seat, Move("discard", {"card": "AS"})).accepted  # must draw first
    assert table.per_state("seen", version_seen) == 0 and worked == [0]
    assert table.propose(seat, Move("draw")).accepted
    assert table.per_state("seen", version_seen) == 1 and worked == [0, 1]
