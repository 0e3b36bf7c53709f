"""PN-21's search (`referee/mechanics/rummy/search.py`): can the seat in turn use the top discard?

The search is what decides that a hand is void, so it must miss no legal take. It is checked
against a brute force that proposes every ordering of every card list (small hands), and its one
assumption, that a meld kind's shape does not depend on where the jokers lie, is checked on
random cards. Then the void hand itself, on tables set up by hand: a seat that can use the
discard plays on; one that cannot ends the hand void, also when a claim window closes; and a
search that runs out of budget leaves the hand to go on.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from referee.cards import FRENCH_RANKS, FRENCH_SUITS, Card, PackKind, codes
from referee.engine.moves import parse_move
from referee.engine.table import Table, TableSetup
from referee.mechanics.rummy import search
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.mechanics.rummy.melds import MeldKind
from referee.mechanics.rummy.search import TakeSearch, arrangements
from referee.mechanics.rummy.state import Meld, RummyState
from referee.mechanics.rummy.turn import Turn
from referee.model import Move
from tests.conftest import stack_deal
from tests.support.games import shipped_games

GAMES = shipped_games()
JOKER_RULES = ("same_rank_other_colour", "next_rank_same_suit")
SEAT, DISCARDER = 1, 0
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def mechanic(game: str = "pontinho") -> RummyMechanic:
    found = GAMES[game].mechanic
    assert isinstance(found, RummyMechanic)
    return found


def position(
    hand: list[str],
    top: str,
    melds: list[list[str]],
    turned: str,
    joker_rule: str = JOKER_RULES[0],
    game: str = "pontinho",
    covered: bool = True,
) -> RummyState:
    """Seat 1 in turn to take a card, the stock empty, `top` alone on the discard pile (seat 0's
    discard), `melds` on the table (laid by seat 2). Cards need not be conserved: judging reads
    only the hand, the pile and the melds."""
    table = Table.create(
        GAMES[game],
        TableSetup(
            game=game,
            seats=3,
            dealer=0,
            seed=1,
            options={"joker_rule": joker_rule},
            deal=stack_deal(3, {}, turned),
        ),
    )
    state: RummyState = table.state.clone()
    state.hands[SEAT] = [Card.parse(c) for c in hand]
    state.stock, state.discard, state.discarders = [], [Card.parse(top)], [DISCARDER]
    state.turned_covered, state.to_act, state.phase = covered, SEAT, "take"
    state.melds = []
    for cards in melds:
        meld_cards = [Card.parse(c) for c in cards]
        env = Turn(mechanic(game), state, 2, "meld", {"present": []}).env()
        reading = mechanic(game).reader.read_new(env, meld_cards)
        assert not isinstance(reading, list), (cards, reading)
        state.melds.append(Meld(len(state.melds) + 1, reading.kind, 2, reading.cards, reading.wild))
    return state


def accepted(state: RummyState, move: Move, game: str = "pontinho") -> bool:
    spec = GAMES[game].spec
    parsed = parse_move(spec.moves, move, PackKind(spec.pack_kind))
    return mechanic(game).apply(state.clone(), SEAT, move.type, parsed).accepted


# --- the brute force: every ordering of every card list ------------------------------------


def sub_multisets(cards: list[Card]) -> Iterator[list[Card]]:
    """Every distinct sub-multiset of `cards`, smallest first."""
    ordered = sorted(cards)
    for size in range(len(ordered) + 1):
        seen: set[tuple[Card, ...]] = set()
        for combo in itertools.combinations(ordered, size):
            if combo not in seen:
                seen.add(combo)
                yield list(combo)


def orderings(cards: list[Card]) -> set[tuple[Card, ...]]:
    return set(itertools.permutations(cards))


def brute_take_discards(state: RummyState) -> list[Move]:
    top, hand = state.discard[-1], state.hands[SEAT]
    moves = []
    for others in sub_multisets(hand):
        for cards in orderings([top, *others]):
            listed = codes(list(cards))
            moves.append(Move("take_discard", {"meld": listed}))
            for meld in state.melds:
                for at in ("low", "high", None):
                    layoff: dict[str, Any] = {"meld": meld.id, "cards": listed}
                    if at:
                        layoff["at"] = at
                    moves.append(Move("take_discard", {"layoff": layoff}))
    return moves


def partitions(cards: list[Card]) -> list[list[list[Card]]]:
    if not cards:
        return [[]]
    first, rest = cards[0], cards[1:]
    result = []
    for smaller in partitions(rest):
        result.append([[first], *smaller])
        for i in range(len(smaller)):
            result.append(smaller[:i] + [[first, *smaller[i]]] + smaller[i + 1 :])
    return result


def brute_go_outs(state: RummyState) -> list[Move]:
    """Going out taking the discard, without steals: every partition into melds, lay-offs and
    one discard, every ordering (hands of up to 3 cards)."""
    top, hand = state.discard[-1], state.hands[SEAT]
    moves = []
    for groups in partitions([top, *hand]):
        singles = [g[0] for g in groups if len(g) == 1]
        for discard in [None, *singles]:
            rest = [g for g in groups if not (discard is not None and g == [discard])]
            if discard is not None and len(rest) == len(groups):
                continue
            for choice in itertools.product(*[_group_uses(state, g) for g in rest]):
                fields: dict[str, Any] = {
                    "take": "discard",
                    "melds": [c for kind, c in choice if kind == "meld"],
                    "layoffs": [c for kind, c in choice if kind == "layoff"],
                }
                if discard is not None:
                    fields["discard"] = str(discard)
                moves.append(Move("go_out", fields))
    return moves


def _group_uses(state: RummyState, group: list[Card]) -> list[tuple[str, Any]]:
    uses: list[tuple[str, Any]] = []
    for cards in orderings(group):
        listed = codes(list(cards))
        uses.append(("meld", listed))
        for meld in state.melds:
            for at in ("low", "high"):
                uses.append(("layoff", {"meld": meld.id, "cards": listed, "at": at}))
    return uses


# --- random positions near the boundary of what a meld is -----------------------------------


def _jokers(joker_rule: str, turned: Card) -> list[Card]:
    every = sorted({Card(r, s) for r in FRENCH_RANKS for s in FRENCH_SUITS})
    return [c for c in every if mechanic().config.is_joker({"joker_rule": joker_rule}, turned, c)]


@st.composite
def near_meld(draw: st.DrawFn, jokers: list[Card], most: int = 4) -> list[Card]:
    """A run of one suit (aces low or high) or cards of one rank, three or more, one perhaps a
    joker."""
    size = draw(st.integers(3, most))
    if draw(st.booleans()):
        suit, low = draw(st.sampled_from(FRENCH_SUITS)), draw(st.integers(0, 14 - size))
        cards = [Card((FRENCH_RANKS + "A")[low + k], suit) for k in range(size)]
    else:
        rank = draw(st.sampled_from(FRENCH_RANKS))
        suits = list(draw(st.permutations(FRENCH_SUITS))) * 2
        cards = [Card(rank, s) for s in suits[:size]]
    if bool(jokers) and draw(st.booleans()):
        cards[draw(st.integers(0, size - 1))] = draw(st.sampled_from(jokers))
    return cards


@st.composite
def positions(draw: st.DrawFn, max_hand: int) -> RummyState:
    """A hand and a top discard that are often most of a meld (a card taken away, a joker put
    in, a stray card added), the meld perhaps begun on the table already (its first three
    cards), and another table meld: near the boundary of the rules."""
    joker_rule = draw(st.sampled_from(JOKER_RULES))
    turned = Card(draw(st.sampled_from(FRENCH_RANKS)), draw(st.sampled_from(FRENCH_SUITS)))
    jokers = _jokers(joker_rule, turned)
    cards = draw(near_meld(jokers, most=6))
    melds = []
    if len(cards) >= 5 and draw(st.booleans()):
        melds.append(cards[:3])
        cards = cards[3:]
    if draw(st.integers(0, 3)) == 0:
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    cards += draw(st.lists(st.sampled_from([*jokers, *cards]), max_size=1))
    cards = draw(st.permutations(cards))[: max_hand + 1]
    top, hand = cards[0], list(cards[1:]) or [draw(st.sampled_from(jokers or [turned]))]
    if draw(st.booleans()):
        melds.append(draw(near_meld([]))[:3])
    legal = [codes(m) for m in melds if not set(m) & set(jokers)]  # no joker at a meld's end
    return position(codes(hand), str(top), legal, str(turned), joker_rule)


def searched(state: RummyState, move_type: str) -> Move | None:
    """The first legal move of `move_type` among the search's candidates."""
    found = TakeSearch(mechanic(), state, SEAT)
    return next((m for m in found.candidates() if m.type == move_type and accepted(state, m)), None)


@SETTINGS
@given(positions(max_hand=4))
def test_the_search_misses_no_take_discard(state: RummyState) -> None:
    found = searched(state, "take_discard")
    brute = next((m for m in brute_take_discards(state) if accepted(state, m)), None)
    assert (found is None) == (brute is None), f"the search missed {brute and brute.to_data()}"
    event("a take_discard" if found else "no take_discard")


@SETTINGS
@given(positions(max_hand=3))
def test_the_search_misses_no_going_out(state: RummyState) -> None:
    found = searched(state, "go_out")
    brute = next((m for m in brute_go_outs(state) if accepted(state, m)), None)
    if brute is not None:  # (the search also steals jokers; the brute force does not)
        assert found is not None, f"the search missed {brute.to_data()}"
    event("a going-out" if found else "no going-out")


# cases the random positions reach only now and then, each needing one part of the search
@pytest.mark.parametrize(
    "hand, top, melds, turned, move_type, wanted",
    [
        (
            ["QC", "KC", "2D"],
            "AC",
            [],
            "5H",
            "take_discard",
            {"meld": ["QC", "KC", "AC"]},
        ),  # ace high
        (
            ["5C", "9S", "2D"],
            "7C",
            [],
            "9D",
            "take_discard",
            {"meld": ["5C", "9S", "7C"]},
        ),  # a racha
        (
            ["8C", "5H"],
            "9C",
            [["5C", "6C", "7C"], ["2H", "3H", "4H"]],
            "KD",
            "go_out",
            {
                "take": "discard",
                "melds": [],
                "layoffs": [
                    {"meld": 1, "cards": ["8C", "9C"], "at": "high"},
                    {"meld": 2, "cards": ["5H"], "at": "high"},
                ],
            },
        ),
        (
            ["5D", "JC"],
            "QC",
            [["4D", "9S", "6D"]],
            "9D",
            "go_out",
            {
                "take": "discard",
                "steals": [{"meld": 1, "card": "5D"}],
                "melds": [["JC", "QC", "9S"]],
                "layoffs": [],
            },
        ),
    ],
)
def test_the_search_finds(
    hand: list[str],
    top: str,
    melds: list[list[str]],
    turned: str,
    move_type: str,
    wanted: dict[str, Any],
) -> None:
    state = position(hand, top, melds, turned)
    assert accepted(state, Move(move_type, wanted))
    found = searched(state, move_type)
    assert found is not None and accepted(state, found)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(sorted(set(Card(r, s) for r in FRENCH_RANKS for s in FRENCH_SUITS))),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from(JOKER_RULES),
    st.sampled_from(FRENCH_RANKS),
    st.sampled_from(FRENCH_SUITS),
    st.booleans(),
)
def test_a_kinds_shape_does_not_depend_on_where_the_jokers_lie(
    cards: list[Card], joker_rule: str, rank: str, suit: str, going_out: bool
) -> None:
    """The one assumption of the search: shapes judged on one arrangement hold for all."""
    state = position(["2C"], "3C", [], rank + suit, joker_rule)
    move_type = "go_out" if going_out else "meld"
    env = Turn(mechanic(), state, SEAT, move_type, {"present": []}).env()
    reader = mechanic().reader
    for kind in reader.kinds.values():
        shapes = {
            bool(kind.shape(reader.meld_env(env, kind.name, arranged, new=True)))
            for arranged in arrangements(cards, state.jokers)
        }
        assert len(shapes) == 1, (kind.name, cards)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(sorted(set(Card(r, s) for r in FRENCH_RANKS for s in FRENCH_SUITS))),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from(sorted(set(Card(r, s) for r in FRENCH_RANKS for s in FRENCH_SUITS))),
    st.sampled_from(JOKER_RULES),
    st.sampled_from(FRENCH_RANKS),
    st.sampled_from(FRENCH_SUITS),
    st.booleans(),
)
def test_a_card_added_never_mends_a_kinds_shape(
    cards: list[Card], added: Card, joker_rule: str, rank: str, suit: str, going_out: bool
) -> None:
    """The other assumption: a group with a natural card that no shape admits is not worth
    growing."""
    state = position(["2C"], "3C", [], rank + suit, joker_rule)
    assume(any(c not in state.jokers for c in cards))
    env = Turn(mechanic(), state, SEAT, "go_out" if going_out else "meld", {"present": []}).env()
    reader = mechanic().reader

    def admits(kind: MeldKind, group: list[Card]) -> bool:
        first = next(arrangements(group, state.jokers))
        return bool(kind.shape(reader.meld_env(env, kind.name, first, new=True)))

    for kind in reader.kinds.values():
        if not admits(kind, cards):
            assert not admits(kind, [*cards, added]), (kind.name, cards, added)


def test_arrangements_list_naturals_low_to_high_and_jokers_everywhere() -> None:
    five, seven, ace, joker = (Card.parse(c) for c in ("5C", "7C", "AC", "9S"))
    found = [codes(a) for a in arrangements([seven, joker, five], frozenset({joker}))]
    assert found == [["9S", "5C", "7C"], ["5C", "9S", "7C"], ["5C", "7C", "9S"]]
    aces = [codes(a) for a in arrangements([ace, five], frozenset())]
    assert aces == [["AC", "5C"], ["5C", "AC"]]  # ace low, then high


# --- the void hand (PN-21) ------------------------------------------------------------------


def judge(state: RummyState, seat: int, move: dict[str, Any], game: str = "pontinho") -> Any:
    spec = GAMES[game].spec
    parsed_move = Move.from_data(move)
    parsed = parse_move(spec.moves, parsed_move, PackKind(spec.pack_kind))
    return mechanic(game).judge(state, seat, parsed_move.type, parsed)


def test_a_seat_that_can_use_the_discard_plays_on() -> None:
    state = position(["5C", "6C", "KD", "QH"], "7C", [], "2H")
    draw = judge(state, SEAT, {"type": "draw"})
    assert [v.rule for v in draw.violations] == ["PN-21"]
    take = judge(state, SEAT, {"type": "take_discard", "meld": ["5C", "6C", "7C"]})
    assert take.accepted and not take.state.hand_ended
    assert "hand_void" not in [e.kind for e in take.events]


CLAIM = {"type": "take_discard", "layoff": {"meld": 1, "cards": ["8C"]}}


def stuck_after_a_claim() -> RummyState:
    """Seat 1 in turn, the stock empty, seat 2's 8C alone on the pile, which seat 0 can lay off
    onto 5C-6C-7C; seat 1 cannot use 8C (nor, once it is taken, anything else)."""
    state = position(["9D", "KD"], "8C", [["5C", "6C", "7C"]], "2H", game="taradinho")
    state.options["claims"] = "first_valid"  # the claim is applied at once (TD-5)
    state.discarders = [2]
    state.hands[0] = [Card.parse(c) for c in ("QS", "JH", "3D")]
    return state


def test_a_move_that_leaves_the_seat_in_turn_stuck_ends_the_hand_void() -> None:
    """Seat 0 takes seat 2's discard out of turn (Taradinho, TD-2) with a lay-off: the pile is
    left empty, the stock is empty, and seat 1 is in turn: nothing can be taken."""
    state = stuck_after_a_claim()
    scores = list(state.scores)
    outcome = judge(state, 0, CLAIM, "taradinho")
    kinds = [e.kind for e in outcome.events]
    assert outcome.accepted and "hand_void" in kinds and "hand_dealt" in kinds, kinds
    after = outcome.state
    assert after.last_hand["void"] and after.last_hand["went_out"] is None
    assert after.scores == scores and after.hand_number == state.hand_number + 1
    assert after.dealer == 1 and after.to_act == 2  # the deal passes on, as after any hand


def window_on_the_last_discard() -> RummyState:
    """Taradinho: seat 0 has just discarded JC, the only card of the pile, opening a window; the
    stock is empty, seat 1 has passed, and seat 1 cannot use JC."""
    state = position(["9D", "KD"], "2S", [], "TH", game="taradinho")
    state.to_act, state.phase = DISCARDER, "play"
    state.hands[DISCARDER] = [Card.parse(c) for c in ("4H", "JC")]
    state.discard, state.discarders = [], []
    discarded = judge(state, DISCARDER, {"type": "discard", "card": "JC"}, "taradinho")
    assert discarded.accepted and discarded.state.window is not None
    passed = judge(discarded.state, SEAT, {"type": "pass"}, "taradinho")
    assert passed.accepted and passed.state.window is not None  # seat 2 has not answered
    after: RummyState = passed.state
    return after


def test_a_claim_window_closing_on_a_stuck_seat_ends_the_hand_void() -> None:
    """Nobody claims: the seat in turn must take a card with an empty stock and a pile holding
    a discard it cannot use."""
    closed = mechanic("taradinho").expire(window_on_the_last_discard())
    assert (
        closed is not None
        and closed.state is not None
        and "hand_void" in [e.kind for e in closed.events]
    )


def test_the_hand_goes_on_when_the_search_cannot_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search out of budget voids nothing: the seat keeps its turn (a director may rule)."""
    state = window_on_the_last_discard()
    monkeypatch.setattr(search, "BUDGET", 0)
    closed = mechanic("taradinho").expire(state)
    assert (
        closed is not None
        and closed.state is not None
        and "hand_void" not in [e.kind for e in closed.events]
    )
    assert closed.state.to_act == SEAT and closed.state.hand_number == state.hand_number
    with pytest.raises(search.SearchExhausted):
        TakeSearch(mechanic("taradinho"), closed.state, SEAT).legal_take()


@SETTINGS
@given(positions(max_hand=6))
def test_the_lay_off_fix_offers_exactly_the_cards_read_layoff_reads(state: RummyState) -> None:
    """A rejected lay-off's fix (`MeldReader.fitting`) asks only whether a card lays off, without
    wording what breaks: it offers exactly the held cards `read_layoff` reads a meld with."""
    reader = mechanic().reader
    env = Turn(mechanic(), state, SEAT, "layoff", {"present": []}).env()
    hand = state.hands[SEAT]
    for meld in state.melds:
        defined = [
            card
            for card in sorted(set(hand))
            if not isinstance(reader.read_layoff(env, meld, [card], ""), list)
        ]
        assert reader.fitting(env, meld, hand) == defined, (codes(meld.cards), codes(hand))
    event(f"{len(state.melds)} meld(s)")


@SETTINGS
@given(positions(max_hand=5))
def test_the_missing_card_fix_offers_exactly_the_cards_read_new_reads(state: RummyState) -> None:
    """A rejected meld's fix (`MeldReader.missing`) skips the kinds whose shape does not admit
    the cards already: it offers exactly the cards that, put somewhere among them as a natural
    card, make `read_new` read a meld."""
    reader = mechanic().reader
    cards = state.hands[SEAT]
    env = Turn(mechanic(), state, SEAT, "meld", {"present": []}).env()
    pool = mechanic().distinct

    def mends(card: Card) -> bool:
        for place in range(len(cards) + 1):
            reading = reader.read_new(env, cards[:place] + [card] + cards[place:])
            if not isinstance(reading, list) and not reading.wild[place]:
                return True
        return False

    defined = [card for card in pool if mends(card)]
    assert reader.missing(env, cards, pool, state.jokers) == defined, codes(cards)
    event("a card mends it" if defined else "no card mends it")
