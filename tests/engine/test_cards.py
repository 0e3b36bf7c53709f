"""Cards round-trip through their text codes (STYLE.md 4, RULES.md GEN-2)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import (
    FRENCH_RANKS,
    FRENCH_SUITS,
    TAROT_RANKS,
    TAROT_SUITS,
    Card,
    PackKind,
    french_pack,
    missing_from,
    parse_cards,
)
from referee.errors import CardError

SETTINGS = settings(max_examples=300, deadline=None)

french_cards = st.builds(Card, st.sampled_from(FRENCH_RANKS), st.sampled_from(FRENCH_SUITS))
tarot_suit_cards = st.builds(Card, st.sampled_from(TAROT_RANKS), st.sampled_from(TAROT_SUITS))
tarot_trumps = st.integers(1, 21).map(lambda n: Card(str(n), "T"))
tarot_cards = st.one_of(tarot_suit_cards, tarot_trumps, st.just(Card("M", "T")))

FRENCH_CODES = {f"{r}{s}" for r in FRENCH_RANKS for s in FRENCH_SUITS}


def _random_case(text: str, flips: list[bool]) -> str:
    flips = flips + [False] * len(text)
    return "".join(ch.lower() if flip else ch for ch, flip in zip(text, flips))


# --- round trips --------------------------------------------------------------------------


@SETTINGS
@given(french_cards)
def test_french_card_round_trips_through_its_code(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert str(Card.parse(str(card))) == str(card)


@SETTINGS
@given(tarot_cards)
def test_tarot_card_round_trips_through_its_code(card: Card) -> None:
    assert Card.parse(str(card), PackKind.TAROT) == card


@SETTINGS
@given(french_cards)
def test_french_card_repr_evaluates_back(card: Card) -> None:
    assert eval(repr(card), {"Card": Card}) == card


@SETTINGS
@given(tarot_cards)
def test_tarot_card_repr_evaluates_back(card: Card) -> None:
    # STYLE.md 4: "a `repr` that evaluates back"; `Card.parse` defaults to the French pack
    assert eval(repr(card), {"Card": Card, "PackKind": PackKind}) == card


@SETTINGS
@given(french_cards, st.lists(st.booleans(), min_size=3, max_size=3))
def test_french_input_is_case_insensitive(card: Card, flips: list[bool]) -> None:
    assert Card.parse(_random_case(str(card), flips)) == card


@SETTINGS
@given(tarot_cards, st.lists(st.booleans(), min_size=3, max_size=3))
def test_tarot_input_is_case_insensitive(card: Card, flips: list[bool]) -> None:
    assert Card.parse(_random_case(str(card), flips), PackKind.TAROT) == card


@pytest.mark.parametrize("suit", FRENCH_SUITS)
def test_ten_is_accepted_for_t(suit: str) -> None:
    assert Card.parse(f"10{suit}") == Card("T", suit)
    assert Card.parse(f"10{suit.lower()}") == Card("T", suit)
    assert str(Card.parse(f"10{suit}")) == f"T{suit}"


@pytest.mark.parametrize("suit", TAROT_SUITS)
def test_ten_is_accepted_for_t_in_tarot_suits(suit: str) -> None:
    assert Card.parse(f"10{suit}", PackKind.TAROT) == Card("T", suit)


def test_tarot_trumps_and_the_matto_are_not_suit_cards() -> None:
    assert Card.parse("t21", PackKind.TAROT) == Card("21", "T")
    assert Card.parse("mt", PackKind.TAROT) == Card("M", "T")
    assert str(Card.parse("T1", PackKind.TAROT)) == "T1"
    assert Card.parse("TB", PackKind.TAROT) == Card("T", "B")  # the ten of batons, not a trump


def test_surrounding_blanks_are_ignored() -> None:
    assert Card.parse("  qh ") == Card("Q", "H")


@SETTINGS
@given(st.one_of(french_cards, tarot_cards))
def test_a_cards_kept_hash_is_its_rank_and_suits_and_never_travels(card: Card) -> None:
    """A card keeps its hash (judging hashes cards a great deal): the dataclass's, so sets of
    cards iterate as before; a copy or a pickle is made anew, as a string's hash may differ in
    the process that reads it."""
    assert hash(card) == hash((card.rank, card.suit))
    assert "_hash" in card.__dict__  # kept once asked
    for copied in (copy.deepcopy(card), pickle.loads(pickle.dumps(card))):
        assert copied == card and "_hash" not in copied.__dict__
        assert hash(copied) == hash(card)


def test_french_pack_holds_every_card_once_per_copy() -> None:
    pack = french_pack(2)
    assert len(pack) == 104
    assert {str(c) for c in pack} == FRENCH_CODES
    assert all(pack.count(c) == 2 for c in set(pack))


def test_missing_from_treats_hands_as_multisets() -> None:
    hand = list(parse_cards(["7H", "7H", "8S"]))
    assert missing_from(hand, parse_cards(["7H", "7H"])) == []
    wanted = parse_cards(["7H", "7H", "7H", "9C"])
    assert missing_from(hand, wanted) == list(parse_cards(["7H", "9C"]))


# --- malformed codes ----------------------------------------------------------------------

MALFORMED_FRENCH = [
    "",
    " ",
    "7",
    "H",
    "1H",
    "11H",
    "0H",
    "7X",
    "ZZ",
    "7HH",
    "QHS",
    "10",
    "100H",
    "T1",
    "MT",
    "NS",
    "7B",
    "H7",
    "10 H",
    "7-H",
    "joker",
]
MALFORMED_TAROT = ["AH", "KH", "T0", "T22", "T01", "T-1", "M", "MTT", "1S", "ZS", "XS", "KT", "T"]


@pytest.mark.parametrize("code", MALFORMED_FRENCH)
def test_malformed_french_code_raises_card_error_naming_it(code: str) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(code)
    assert f"\u201c{code}\u201d" in caught.value.message
    assert caught.value.code == "malformed_card"


@pytest.mark.parametrize("code", MALFORMED_TAROT)
def test_malformed_tarot_code_raises_card_error_naming_it(code: str) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(code, PackKind.TAROT)
    assert f"\u201c{code}\u201d" in caught.value.message


@pytest.mark.parametrize("value", [None, 7, 7.5, ["7H"], b"7H"])
def test_a_card_code_that_is_not_text_is_a_card_error(value: object) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(value)  # type: ignore[arg-type]  # what a client may send, typed or not
    assert repr(value) in caught.value.message


def _is_valid_french(text: str) -> bool:
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    return code in FRENCH_CODES


@SETTINGS
@given(st.text(alphabet=st.sampled_from("AaTtQqKk0123456789HhSsDdCcXxNnBb -"), max_size=5))
def test_any_text_parses_to_its_card_or_is_a_card_error_naming_it(text: str) -> None:
    if _is_valid_french(text):
        assert str(Card.parse(text)) in FRENCH_CODES
        return
    with pytest.raises(CardError) as caught:
        Card.parse(text)
    assert f"\u201c{text}\u201d" in caught.value.message
