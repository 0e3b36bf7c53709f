"""PN-13's span and PN-9's trio of joker cards (issue 25, B1 and B2).

PN-13: the ace is low or high, never both, so a sequence spans at most the thirteen ranks A to K
or 2 to A: a second ace at the other end of A..K, a joker standing for the low ace below 2..K-A
or for the high ace above A..K, and a joker beyond an end ace are refused, going out or not.
PN-9: going out with a trio made only of joker cards (7S-7C-7S under a turned 7H) is legal.

The examples are judged at the meld reader (where a 14-card meld can be asked, though no hand
holds one) and as moves. The property test draws sequences with aces and jokers at both ends and
compares the referee's verdict on every move that lays one or extends one (a meld, a lay-off at
either end, each also taking the discard, each also going out) with a simple oracle of PN-13
written here. The scenarios are tests/conformance/*/i25-*.yaml.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, reject, settings
from hypothesis import strategies as st

from referee.cards import FRENCH_SUITS, Card, PackKind, codes, french_pack
from referee.engine.mechanic import Judgement
from referee.engine.moves import parse_move
from referee.engine.table import Table, TableSetup
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.mechanics.rummy.melds import Reading
from referee.mechanics.rummy.state import Meld, RummyState
from referee.mechanics.rummy.turn import Turn
from referee.model import Move, Violation
from tests.conftest import stack_deal
from tests.support.games import shipped_games

GAMES = shipped_games()
RUMMIES = ("pontinho", "taradinho")
JOKER_RULES = ("same_rank_other_colour", "next_rank_same_suit")
SEAT, OTHER = 1, 2
PACK = french_pack(2)
PLACES = "A23456789TJQKA"  # the rank at each place of a run, 1 (the low ace) to 14 (the high ace)
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def mechanic(game: str) -> RummyMechanic:
    found = GAMES[game].mechanic
    assert isinstance(found, RummyMechanic)
    return found


def cards_of(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def hearts(ranks: str) -> list[Card]:
    return [Card.parse(r + "H") for r in ranks]


def table(
    game: str,
    turned: str,
    hand: list[Card],
    melds: list[list[Card]] | None = None,
    joker_rule: str = JOKER_RULES[0],
    top: Card | None = None,
) -> RummyState:
    """Seat 1 in turn with `hand`: about to take `top` (seat 0's discard), or without it, having
    drawn. `melds` lie on the table, laid by seat 2 in ordinary moves. Cards need not be
    conserved: judging reads only the hand, the top discard and the melds."""
    setup = TableSetup(
        game=game,
        seats=3,
        dealer=0,
        seed=1,
        options={"joker_rule": joker_rule},
        deal=stack_deal(3, {}, turned, ["5S", "5D", "5C"]),
    )
    state: RummyState = Table.create(GAMES[game], setup).state.clone()
    state.hands[SEAT] = list(hand)
    state.to_act, state.phase, state.turned_covered = SEAT, "play" if top is None else "take", True
    if top is not None:
        state.discard, state.discarders = [top], [0]
    state.melds = []
    for cards in melds or []:
        reading = read(game, state, "meld", cards)
        assert isinstance(reading, Reading), (codes(cards), reading)
        state.melds.append(
            Meld(len(state.melds) + 1, reading.kind, OTHER, reading.cards, reading.wild)
        )
    return state


def env_of(game: str, state: RummyState, move_type: str) -> dict[str, Any]:
    return Turn(mechanic(game), state.clone(), SEAT, move_type, {"present": []}).env()


def read(
    game: str, state: RummyState, move_type: str, cards: list[Card]
) -> Reading | list[Violation]:
    return mechanic(game).reader.read_new(env_of(game, state, move_type), cards)


def read_layoff(
    game: str, state: RummyState, move_type: str, added: list[Card], at: str
) -> Reading | list[Violation]:
    return mechanic(game).reader.read_layoff(
        env_of(game, state, move_type), state.melds[0], added, at
    )


def propose(game: str, state: RummyState, move: dict[str, Any]) -> Judgement[RummyState]:
    spec = GAMES[game].spec
    fields = {k: v for k, v in move.items() if k != "type"}
    parsed = parse_move(spec.moves, Move(move["type"], fields), PackKind(spec.pack_kind))
    return mechanic(game).apply(state.clone(), SEAT, move["type"], parsed)


def rules_of(verdict: Reading | list[Violation] | Judgement[RummyState]) -> set[str]:
    """The ids of the spec rules a rejection names (not those they cite: PN-13-shape cites
    PN-13, and is not the span's verdict)."""
    if isinstance(verdict, Judgement):
        verdict = verdict.violations
    assert isinstance(verdict, list), f"accepted: {verdict}"
    return {v.rule for v in verdict}


# --- B1: the examples, at the meld reader -------------------------------------------------
# turned 9D: the black nines 9S and 9C are the jokers

A_TO_K = hearts("A23456789TJQK")
TWO_TO_A = hearts("23456789TJQKA")


@pytest.mark.parametrize("game", RUMMIES)
@pytest.mark.parametrize("move_type", ["meld", "go_out"])
def test_thirteen_ranks_are_a_sequence_and_fourteen_are_not(game: str, move_type: str) -> None:
    state = table(game, "9D", [])
    for run in (A_TO_K, TWO_TO_A):
        assert isinstance(read(game, state, move_type, run), Reading), codes(run)
    fourteen = [
        A_TO_K + hearts("A"),  # a second ace at the high end
        hearts("A") + TWO_TO_A,  # ... at the low end
        cards_of("9S") + TWO_TO_A,  # a joker for the low ace below 2..K-A
        A_TO_K + cards_of("9C"),  # a joker for the high ace above A..K
    ]
    for run in fourteen:
        assert "PN-13" in rules_of(read(game, state, move_type, run)), codes(run)


@pytest.mark.parametrize("game", RUMMIES)
def test_a_joker_stands_for_an_end_ace_only_when_the_other_end_has_none(game: str) -> None:
    state = table(game, "9D", [])
    joker_ace_low = cards_of("9S") + hearts("23456789TJQK")  # 13 ranks: A..K, the A a joker
    joker_ace_high = hearts("23456789TJQK") + cards_of("9S")  # 2..A, the A a joker
    for run in (joker_ace_low, joker_ace_high):
        assert isinstance(read(game, state, "go_out", run), Reading), codes(run)
        assert "PN-7" in rules_of(read(game, state, "meld", run)), codes(run)


@pytest.mark.parametrize("game", RUMMIES)
@pytest.mark.parametrize("move_type", ["meld", "go_out"])
def test_no_joker_beyond_an_end_ace(game: str, move_type: str) -> None:
    state = table(game, "9D", [])
    for run in (hearts("QKA") + cards_of("9S"), cards_of("9S") + hearts("A23")):
        # listed otherwise they are a sequence, the joker at the other end: PN-13-order (issue 27)
        assert "PN-13-order" in rules_of(read(game, state, move_type, run)), codes(run)


@pytest.mark.parametrize("game", RUMMIES)
@pytest.mark.parametrize("move_type", ["layoff", "go_out"])
def test_laid_off_at_the_end_of_a_thirteen_rank_sequence(game: str, move_type: str) -> None:
    on_a_to_k = table(game, "9D", [], [A_TO_K])
    for added, at in [(hearts("A"), "high"), (hearts("A"), ""), (cards_of("9S"), "high")]:
        verdict = read_layoff(game, on_a_to_k, move_type, added, at)
        assert "PN-13" in rules_of(verdict), (codes(added), at)
    on_two_to_a = table(game, "9D", [], [TWO_TO_A])
    for added, at in [(hearts("A"), "low"), (hearts("A"), ""), (cards_of("9S"), "low")]:
        verdict = read_layoff(game, on_two_to_a, move_type, added, at)
        assert "PN-13" in rules_of(verdict), (codes(added), at)
    # the control: one rank short of thirteen, the same joker fits when going out
    short = table(game, "9D", [], [hearts("23456789TJQK")])
    for at in ("low", "high"):
        reading = read_layoff(game, short, move_type, cards_of("9S"), at)
        assert isinstance(reading, Reading) == (move_type == "go_out"), at


@pytest.mark.parametrize("game", RUMMIES)
def test_the_moves_refuse_a_second_ace_citing_pn13(game: str) -> None:
    """Through the mechanic: an ordinary lay-off, one taking the discard, and going out."""
    held = hearts("A") + cards_of("4C 5C 6C")
    state = table(game, "9D", held, [A_TO_K])
    moves: list[dict[str, Any]] = [
        {"type": "layoff", "meld": 1, "cards": ["AH"], "at": "high"},
        {"type": "layoff", "meld": 1, "cards": ["AH"]},
        {
            "type": "go_out",
            "melds": [["4C", "5C", "6C"]],
            "layoffs": [{"meld": 1, "cards": ["AH"]}],
        },
    ]
    for move in moves:
        verdict = propose(game, state, move)
        assert not verdict.accepted and "PN-13" in rules_of(verdict), move
    taking = table(game, "9D", cards_of("4C 5C 6C"), [A_TO_K], top=Card.parse("AH"))
    taking_moves: list[dict[str, Any]] = [
        {"type": "take_discard", "layoff": {"meld": 1, "cards": ["AH"], "at": "high"}},
        {
            "type": "go_out",
            "take": "discard",
            "melds": [["4C", "5C", "6C"]],
            "layoffs": [{"meld": 1, "cards": ["AH"], "at": "high"}],
        },
    ]
    for move in taking_moves:
        verdict = propose(game, taking, move)
        assert not verdict.accepted and "PN-13" in rules_of(verdict), move
    # the control: the same going out without the ace is accepted
    assert propose(
        game, state, {"type": "go_out", "melds": [["4C", "5C", "6C"]], "discard": "AH"}
    ).accepted


def test_under_next_rank_same_suit_the_ace_joker_is_natural_at_one_end_only() -> None:
    """A turned KH makes the AH a joker (PN-5): natural as the low ace of AH..KH (PN-9), it
    cannot also be the high ace; in a sequence it then stands for another card."""
    game = "pontinho"
    state = table(game, "KH", [], [A_TO_K], joker_rule="next_rank_same_suit")
    assert state.melds[0].wild == [False] * 13
    for move_type in ("layoff", "go_out"):
        for at in ("high", ""):
            assert "PN-13" in rules_of(read_layoff(game, state, move_type, hearts("A"), at))
    reading = read(game, state, "go_out", cards_of("4C 5C 6C AH"))
    assert isinstance(reading, Reading) and reading.wild == [False, False, False, True]


# --- B2: a trio made only of joker cards ------------------------------------------------------


@pytest.mark.parametrize("game", RUMMIES)
def test_going_out_with_a_trio_of_joker_cards(game: str) -> None:
    state = table(game, "7H", [])  # the black sevens are the jokers
    for trio in (cards_of("7S 7C 7S"), cards_of("7C 7S 7C 7S")):
        reading = read(game, state, "go_out", trio)
        assert isinstance(reading, Reading) and reading.kind == "trio", (codes(trio), reading)
        # outside going out they are natural sevens of two suits: no trio (PN-12)
        assert "PN-12" in rules_of(read(game, state, "meld", trio)), codes(trio)
    hand = cards_of("7S 7C 7S 2C 3C 4C 5C 6C AC KD")
    move = {"type": "go_out", "melds": [["7S", "7C", "7S"], ["AC", "2C", "3C", "4C", "5C", "6C"]]}
    verdict = propose(game, table(game, "7H", hand), {**move, "discard": "KD"})
    assert verdict.accepted, verdict.violations


def test_a_trio_of_joker_cards_cannot_be_made_under_next_rank_same_suit() -> None:
    """There the jokers are the two copies of one card: a meld holds a natural card besides,
    its anchor, and the jokers of its rank stand for missing suits when going out (PN-9)."""
    game = "pontinho"
    options = GAMES[game].resolve_options({"joker_rule": "next_rank_same_suit"})
    for turned in PACK:
        jokers = [c for c in set(PACK) if mechanic(game).config.is_joker(options, turned, c)]
        assert sum(Counter(PACK)[c] for c in jokers) == 2, turned
    state = table(game, "7H", [], joker_rule="next_rank_same_suit")  # the 8H are the jokers
    reading = read(game, state, "go_out", cards_of("8H 8H 8D"))
    assert isinstance(reading, Reading) and reading.wild == [True, True, False]
    # outside going out the 8H are natural cards: hearts and diamonds, no trio (PN-12)
    assert "PN-12" in rules_of(read(game, state, "meld", cards_of("8H 8H 8D")))


@pytest.mark.parametrize("game", RUMMIES)
def test_no_cards_are_no_meld(game: str) -> None:
    """The anchor of an empty list is -1: no kind's shape admits it, and nothing fails."""
    verdict = read(game, table(game, "7H", []), "go_out", [])
    assert isinstance(verdict, list) and verdict


# --- the property: every move that lays or extends a sequence, against an oracle of PN-13 ----


def oracle(cards: list[Card], jokers: frozenset[Card], going_out: bool, span: bool = True) -> bool:
    """PN-13 read the simple way: for some suit and first place, each card is the natural card
    of its place or a joker; the places lie between 1 (the low ace) and 14 (the high ace) and,
    with `span`, never hold both (the ace is low or high, never both). Outside going out both
    end cards are natural (PN-7). A joker card is natural where it is its place's card (PN-9)."""
    for suit in FRENCH_SUITS:
        for low in range(1, 15):
            high = low + len(cards) - 1
            if high > 14 or (span and low == 1 and high == 14):
                continue
            natural = [c == Card(PLACES[low - 1 + i], suit) for i, c in enumerate(cards)]
            if not all(n or c in jokers for n, c in zip(natural, cards, strict=True)):
                continue
            if going_out or (natural[0] and natural[-1]):
                return True
    return False


@st.composite
def runs_near_the_aces(draw: st.DrawFn) -> dict[str, Any]:
    """A run of one suit reaching an ace, or past it: its places go from 0 (below a low ace) to
    15 (above a high ace), jokers often at the ends, now and then a card out of place."""
    game = draw(st.sampled_from(RUMMIES))
    joker_rule = draw(st.sampled_from(JOKER_RULES))
    turned = draw(st.sampled_from(PACK))
    options = GAMES[game].resolve_options({"joker_rule": joker_rule})
    jokers = frozenset(c for c in set(PACK) if mechanic(game).config.is_joker(options, turned, c))
    suit = draw(st.sampled_from(FRENCH_SUITS))
    reach = draw(st.sampled_from(["both", "low", "high"]))
    if reach == "both":  # most often exactly A..A, the fourteen places
        low, high = (
            draw(st.sampled_from([1, 1, 1, 0, 2])),
            draw(st.sampled_from([14, 14, 14, 15, 13])),
        )
    elif reach == "low":
        low = draw(st.integers(0, 2))
        high = low + draw(st.integers(2, 5))
    else:
        high = draw(st.integers(12, 15))
        low = high - draw(st.integers(2, 5))
    copies = Counter({c: 2 for c in jokers}) - Counter([turned])  # the jokers still in the packs
    cards: list[Card] = []
    for place in range(low, high + 1):
        card = Card(PLACES[place - 1], suit) if 1 <= place <= 14 else None
        at_end = place in (low, high)
        left = sorted(copies.elements())
        if left and (card is None or draw(st.integers(0, 2 if at_end else 5)) == 0):
            card = draw(st.sampled_from(left))
            copies[card] -= 1
        if card is None:
            reject()  # no joker left to stand beyond an ace
        cards.append(card)
    if draw(st.integers(0, 9)) == 0:
        cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from(PACK))
    assume(len({c.rank for c in cards if c not in jokers}) >= 2)  # no trio: a sequence or nothing
    used = Counter(cards) + Counter([turned])
    assume(max(used.values()) <= 2)  # two packs
    return {
        "game": game,
        "joker_rule": joker_rule,
        "turned": str(turned),
        "jokers": jokers,
        "cards": cards,
        "others": _others(used, jokers, suit),
    }


def _others(used: Counter[Card], jokers: frozenset[Card], suit: str) -> list[Card]:
    """The rest of the hand: a natural trio in the other suits and a card to discard, so that
    a hand never holds one card only (PN-17) and a going out lays the trio and discards."""
    free = [c for c in PACK if c not in jokers and c.suit != suit and used[c] == 0]
    for rank in "23456789TJQK":
        trio = [c for c in dict.fromkeys(free) if c.rank == rank][:3]
        spare = [c for c in free if c.rank != rank]
        if len(trio) == 3 and spare:
            return [*trio, spare[0]]
    raise AssertionError("no trio left")  # a run is one suit: the other three are untouched


def _splits(run: dict[str, Any]) -> list[tuple[str, list[Card], list[Card]]]:
    """(end, table meld, added): every way `cards` is a sequence on the table, laid in an ordinary
    move (three cards or more, its ends natural), with the rest laid off at one end."""
    cards, jokers = run["cards"], run["jokers"]
    found = []
    for k in range(1, len(cards)):
        for end, meld, added in (("low", cards[k:], cards[:k]), ("high", cards[:k], cards[k:])):
            if len(meld) >= 3 and oracle(meld, jokers, going_out=False):
                found.append((end, meld, added))
    return found


def _check(run: dict[str, Any], state: RummyState, move: dict[str, Any], going_out: bool) -> None:
    cards, jokers = run["cards"], run["jokers"]
    verdict = propose(run["game"], state, move)
    expected = oracle(cards, jokers, going_out)
    where = f"{run['game']} [{run['joker_rule']}, turned {run['turned']}] {codes(cards)}: {move}"
    assert verdict.accepted == expected, f"{where}: {verdict.violations}"
    if not expected and oracle(cards, jokers, going_out, span=False):
        event("refused for its span alone")
        assert "PN-13" in rules_of(verdict), f"{where}: {verdict.violations}"


def _lay(
    run: dict[str, Any], hand: list[Card], meld: list[Card] | None, top: Card | None
) -> RummyState:
    held = [*hand, *run["others"]]
    return table(run["game"], run["turned"], held, [meld] if meld else [], run["joker_rule"], top)


def _going_out(run: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """`move` as a going out: the trio held besides laid too, the spare card discarded."""
    *trio, spare = codes(run["others"])
    return {**move, "type": "go_out", "melds": [*move.get("melds", []), trio], "discard": spare}


@SETTINGS
@given(runs_near_the_aces(), st.data())
def test_every_move_laying_or_extending_a_sequence_keeps_pn13_span(
    run: dict[str, Any], data: st.DataObject
) -> None:
    cards, jokers = run["cards"], run["jokers"]
    listed = codes(cards)
    event(f"{'accepted' if oracle(cards, jokers, True) else 'refused'} going out")
    # a new meld, from the hand or taking a natural card of it from the discard pile
    state = _lay(run, cards, None, None)
    _check(run, state, {"type": "meld", "cards": listed}, going_out=False)
    _check(run, state, _going_out(run, {"melds": [listed]}), going_out=True)
    top = next(c for c in cards if c not in jokers)  # a discarded joker is no joker (PN-11)
    state = _lay(run, _less(cards, top), None, top)
    _check(run, state, {"type": "take_discard", "meld": listed}, going_out=False)
    _check(run, state, _going_out(run, {"take": "discard", "melds": [listed]}), going_out=True)
    # laid off at one end of a sequence on the table, the end said
    splits = _splits(run)
    event(f"lay-offs: {bool(splits)}")
    if not splits:
        return
    end, meld, added = data.draw(st.sampled_from(splits))
    layoff = {"meld": 1, "cards": codes(added), "at": end}
    state = _lay(run, added, meld, None)
    _check(run, state, {"type": "layoff", **layoff}, going_out=False)
    _check(run, state, _going_out(run, {"layoffs": [layoff]}), going_out=True)
    for top in [c for c in added if c not in jokers][:1]:
        state = _lay(run, _less(added, top), meld, top)
        _check(run, state, {"type": "take_discard", "layoff": layoff}, going_out=False)
        _check(
            run, state, _going_out(run, {"take": "discard", "layoffs": [layoff]}), going_out=True
        )


def _less(cards: list[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest
