"""Properties over the expressions the engine computes with (STYLE.md 9): what a hand left at the
end adds (PN-24, PN-25) and the score a blown player re-enters at (PN-28). The spec's properties
are proved; a broken copy of the spec yields counterexamples that the engine's compiled
expressions reproduce, and that a real, stacked table plays out."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.cards import Card, codes
from referee.cli import main
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import SpecError, SpecErrors
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.model import ADJUDICATOR, Move
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.proofs.prover import Outcome, Property, prove, read_properties
from referee.spec.rules import SpecExpression
from tests.support.mechanic_of import mechanic_of

from .stacking import Edits, edited_spec, jokers, natural_cards, natural_sequence

# long runs; one worker runs the whole module: its proofs (a module fixture) are found once, not
# once a worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("proofs-expressions")]

JOKER_RULES = ["same_rank_other_colour", "next_rank_same_suit"]
SCORING = ["hand-points-never-negative", "ace-at-98-only-lone-natural-ace"]
REENTRY = ["reentry-under-blow-at", "reentry-at-worst-placed"]
StackDeal = Callable[..., dict[str, Any]]  # the `stacked` fixture (tests/conftest.py)

HAND_POINTS_ACE = "    then 1\n    else sum(c in hand: card_points(c))"
NATURAL_ACE = "       and rank(hand[0]) == ace and not is_joker(hand[0])"
HIGHEST = "still_in[best_index(s in still_in: s)]'"

# Each break changes one expression of the spec; the properties named beside it must then fail.
BREAKS: dict[str, tuple[Edits, list[str]]] = {
    # PN-25 scores the lone ace at 98 -15 instead of 1
    "ace-at-98-minus-15": (
        [(HAND_POINTS_ACE, HAND_POINTS_ACE.replace("then 1", "then -15"))],
        SCORING,
    ),
    # PN-24: every ace counts -15
    "ace-minus-15": (
        [("else if rank(c) == ace then 15", "else if rank(c) == ace then -15")],
        ["hand-points-never-negative"],
    ),
    # PN-25 forgets "natural": a lone ace that is a joker adds 1 at 98 too
    "any-lone-ace": (
        [(NATURAL_ACE, "       and rank(hand[0]) == ace")],
        ["ace-at-98-only-lone-natural-ace"],
    ),
    # PN-28 at the best placed player still in (the lowest score), not the worst
    "reentry-at-min": (
        [(HIGHEST, HIGHEST.replace("still_in: s", "still_in: -s"))],
        ["reentry-at-worst-placed"],
    ),
    # PN-28 one above the worst placed player
    "reentry-plus-one": ([(HIGHEST, HIGHEST.replace("]'", "] + 1'"))], REENTRY),
}


def spec_copy(tmp_path: Path, name: str, edits: Edits) -> Path:
    return edited_spec("pontinho", tmp_path, name, edits)


def broken(tmp_path: Path, name: str) -> Game:
    return load_game(spec_copy(tmp_path, name, BREAKS[name][0]), DEFAULT_SPECS)


def named(game: Game, property_id: str) -> Property:
    return next(p for p in read_properties(game) if p.id == property_id)


@pytest.fixture(scope="module")
def proofs(pontinho: Game) -> dict[str, list[Outcome]]:
    return {pid: prove(pontinho, named(pontinho, pid)) for pid in SCORING + REENTRY}


# --- the real spec ------------------------------------------------------------------------


def test_the_properties_read_their_bounds_from_the_spec(pontinho: Game) -> None:
    points, ace, under, worst = (named(pontinho, pid) for pid in SCORING + REENTRY)
    assert (points.on, points.over, points.min_size, points.max_size) == ("scoring", "hand", 0, 12)
    assert points.premise == "none" and points.ranges == {"score": (0, 99)}  # blow_at - 1
    assert [(e.name, e.expression) for e in points.evaluations] == [
        ("points", "scoring.hand_points")
    ]
    assert [(e.name, dict(e.options)) for e in ace.evaluations] == [
        ("with_rule", {"ace_one_at_98": True}),
        ("without", {"ace_one_at_98": False}),
    ]
    for prop in (under, worst):
        assert (prop.on, prop.over, prop.min_size, prop.max_size) == ("reentry", "still_in", 2, 5)
        assert prop.constants == {"blow_at": 100, "seats": 5}
        assert prop.ranges == {"still_in": (0, 99)}


@pytest.mark.parametrize("property_id", SCORING + REENTRY)
def test_property_is_proved_for_every_option_set(
    proofs: dict[str, list[Outcome]], property_id: str
) -> None:
    outcomes = proofs[property_id]
    assert len(outcomes) == {"hand-points-never-negative": 4}.get(property_id, 2)
    for outcome in outcomes:
        assert outcome.status == "proved", outcome.line()
        assert outcome.sizes == len(outcome.property.sizes)
        assert outcome.counterexample == {} and outcome.replayed is None


def test_a_proved_line_says_what_was_covered(proofs: dict[str, list[Outcome]]) -> None:
    assert proofs["hand-points-never-negative"][0].line() == (
        "        proved  hand-points-never-negative [joker_rule=same_rank_other_colour, "
        "ace_one_at_98=true]: for every `hand` of 0..12 cards, `score` in 0..99"
    )
    assert proofs["reentry-under-blow-at"][1].line() == (
        "        proved  reentry-under-blow-at [reentry=paid]: for every `still_in` of 2..5 ints, "
        "each in 0..99"
    )


def test_prove_command_proves_one_of_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "pontinho", "--only", "ace-at-98-only-lone-natural-ace"]) == 0
    out, _ = capsys.readouterr()
    assert out.count("        proved  ace-at-98-only-lone-natural-ace [joker_rule=") == 2
    assert "1 properties, 0 not proved" in out


def test_the_engine_reenters_at_the_spec_expression(pontinho: Game) -> None:
    config = mechanic_of(pontinho, RummyMechanic).config
    expression = config.expressions["rummy.match.reentry_score"]
    assert expression({"options": {}, "still_in": [40, 97, 12]}) == 97
    assert config.match is not None and config.match.reentry_score is not None  # a match game
    assert config.match.reentry_score({}, [3, 3]) == 3


# --- broken copies: counterexamples the engine reproduces ----------------------------------


@pytest.mark.parametrize("name", list(BREAKS))
def test_a_broken_expression_yields_replayed_counterexamples(tmp_path: Path, name: str) -> None:
    game = broken(tmp_path, name)
    for property_id in BREAKS[name][1]:
        outcomes = prove(game, named(game, property_id))
        failed = [o for o in outcomes if o.status == "counterexample"]
        assert failed, [o.line() for o in outcomes]
        assert all(o.status in ("proved", "counterexample") for o in outcomes)
        for outcome in failed:
            assert outcome.replayed is True, outcome.line()
            assert "(replayed: the engine's compiled `" in outcome.line()


def test_scores_below_zero_only_where_the_broken_rule_applies(tmp_path: Path) -> None:
    game = broken(tmp_path, "ace-at-98-minus-15")
    outcomes = prove(game, named(game, "hand-points-never-negative"))
    by_rule = {o.options["ace_one_at_98"]: o.status for o in outcomes}
    assert by_rule == {True: "counterexample", False: "proved"}
    for outcome in outcomes:
        if outcome.status == "counterexample":
            example = outcome.counterexample
            assert len(example["hand"]) == 1 and example["hand"][0].startswith("A")
            assert example["context"] == {"score": 98}
            assert example["results"] == {"points": -15} and example["raises"] == []


def _lone_card_hand(
    stacked: StackDeal, game: Game, options: dict[str, Any], card: Card, turned: Card, score: int
) -> int:
    """Seat 2, at `score`, is left holding only `card` when seat 1 goes out: what it adds.

    Seat 1 (the mão) holds three natural sequences but one card, discards what it draws, and
    goes out on its next draw; seat 2 lays two natural sequences of four and discards.
    """
    wild, used = jokers(game, options, turned), Counter([card, turned])

    def run(length: int) -> list[Card]:
        cards = natural_sequence(length, used, wild)
        used.update(cards)
        return cards

    going_out, laid = [run(4), run(3), run(3)], [run(4), run(4)]
    draws = natural_cards(3, used, wild) + [going_out[2][2]]
    hands = {
        1: codes(going_out[0] + going_out[1] + going_out[2][:2]),
        2: codes(laid[0] + laid[1] + [card]),
    }
    deal = stacked(3, hands, str(turned), codes(draws))
    setup = TableSetup(
        game=game.name, seats=3, seed=1, options=options, deal=deal, scores={0: 0, 1: 0, 2: score}
    )
    table = Table.create(game, setup)
    moves: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "draw"}),
        (1, {"type": "discard", "card": str(draws[0])}),
        (2, {"type": "draw"}),
        (2, {"type": "meld", "cards": codes(laid[0])}),
        (2, {"type": "meld", "cards": codes(laid[1])}),
        (2, {"type": "discard", "card": str(draws[1])}),
        (0, {"type": "draw"}),
        (0, {"type": "discard", "card": str(draws[2])}),
        (1, {"type": "draw"}),
        (1, {"type": "go_out", "melds": [codes(m) for m in going_out]}),
    ]
    for seat, move in moves:
        verdict = table.propose(seat, Move.from_data(move))
        assert verdict.accepted, (seat, move, verdict.violations)
    finished = table.view(ADJUDICATOR)["last_hand"]
    assert finished["hands"]["2"] == [str(card)]
    return int(finished["points"]["2"])


@pytest.mark.parametrize("name", ["ace-at-98-minus-15", "ace-minus-15"])
def test_a_negative_score_is_played_at_a_real_table(
    tmp_path: Path, pontinho: Game, stacked: StackDeal, name: str
) -> None:
    game = broken(tmp_path, name)
    outcomes = prove(game, named(game, "hand-points-never-negative"))
    failed = [o for o in outcomes if o.status == "counterexample"]
    assert len(failed) == {"ace-at-98-minus-15": 2, "ace-minus-15": 4}[name]
    for outcome in failed:
        example, options = outcome.counterexample, pontinho.resolve_options(outcome.options)
        card, turned = Card.parse(example["hand"][0]), Card.parse(example["turned"])
        score = example["context"]["score"]
        points = _lone_card_hand(stacked, game, options, card, turned, score)
        assert points == example["results"]["points"] < 0, outcome.line()
        assert _lone_card_hand(stacked, pontinho, options, card, turned, score) >= 0


def test_a_lone_joker_ace_at_98_is_played_at_a_real_table(
    tmp_path: Path, pontinho: Game, stacked: StackDeal
) -> None:
    game = broken(tmp_path, "any-lone-ace")
    for outcome in prove(game, named(game, "ace-at-98-only-lone-natural-ace")):
        example = outcome.counterexample
        card, turned = Card.parse(example["hand"][0]), Card.parse(example["turned"])
        options = pontinho.resolve_options(outcome.options)
        assert card in jokers(game, options, turned) and example["context"]["score"] == 98
        for rule, name in ((True, "with_rule"), (False, "without")):
            played = {**options, "ace_one_at_98": rule}
            points = _lone_card_hand(stacked, game, played, card, turned, 98)
            assert points == example["results"][name], outcome.line()
            assert _lone_card_hand(stacked, pontinho, played, card, turned, 98) == 20  # PN-6
        assert example["results"]["with_rule"] != example["results"]["without"]


def _reentered_at(stacked: StackDeal, game: Game, still_in: list[int]) -> int:
    """Seats 1 and 2 end the hand at `still_in` (seat 1 goes out, seat 2 adds 40); seat 0, at 5,
    adds 100 and blows, then re-enters: the score it comes back at."""
    hands = {
        1: ["2C", "3C", "4C", "6H", "7H", "8H", "JS", "QS", "KS"],
        2: ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "2H", "3H"],
        0: ["AH", "AD", "KH", "KC", "QD", "QC", "JH", "JC", "TS"],
    }
    setup = TableSetup(
        game=game.name,
        seats=3,
        seed=2929,
        deal=stacked(3, hands, "9D", ["5C"]),
        scores={0: 5, 1: still_in[0], 2: still_in[1] - 40},
    )
    table = Table.create(game, setup)
    moves: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "draw"}),
        (
            1,
            {
                "type": "go_out",
                "melds": [["2C", "3C", "4C", "5C"], ["6H", "7H", "8H"], ["JS", "QS", "KS"]],
            },
        ),
        (0, {"type": "reenter"}),
    ]
    for seat, move in moves:
        verdict = table.propose(seat, Move.from_data(move))
        assert verdict.accepted, (seat, move, verdict.violations)
    view = table.view(ADJUDICATOR)
    assert [int(view["scores"][s]) for s in ("1", "2")] == still_in
    return int(view["scores"]["0"])


@pytest.mark.parametrize(
    "name, property_id",
    [("reentry-at-min", "reentry-at-worst-placed"), ("reentry-plus-one", "reentry-under-blow-at")],
)
def test_a_broken_reentry_is_played_at_a_real_table(
    tmp_path: Path, pontinho: Game, stacked: StackDeal, name: str, property_id: str
) -> None:
    game = broken(tmp_path, name)
    # seat 2 adds 40 in the stacked hand: ask for a counterexample that table can reach
    prop = dataclasses.replace(named(game, property_id), ranges={"still_in": (40, 99)})
    for outcome in prove(game, prop):
        example = outcome.counterexample
        assert outcome.replayed is True and len(example["still_in"]) == 2, outcome.line()
        comes_back_at = _reentered_at(stacked, game, example["still_in"])
        assert comes_back_at == example["results"]["comes_back_at"], outcome.line()
        assert _reentered_at(stacked, pontinho, example["still_in"]) == max(example["still_in"])


# --- the third outcome, and replays with teeth ---------------------------------------------


def test_an_expression_that_raises_is_a_replayed_counterexample(tmp_path: Path) -> None:
    # the third player's score: no such player when two are still in
    edits = [(HIGHEST, "still_in[2]'")]
    game = load_game(spec_copy(tmp_path, "reentry-third", edits), DEFAULT_SPECS)
    for outcome in prove(game, named(game, "reentry-under-blow-at")):
        assert outcome.status == "counterexample" and outcome.replayed is True, outcome.line()
        assert len(outcome.counterexample["still_in"]) == 2
        assert outcome.counterexample["raises"] == ["comes_back_at"]
        assert "`comes_back_at` raises (replayed:" in outcome.line()


def test_a_replay_that_disagrees_is_reported_as_an_encoder_bug(
    tmp_path: Path, pontinho: Game
) -> None:
    game = broken(tmp_path, "reentry-at-min")
    expressions = mechanic_of(game, RummyMechanic).config.expressions
    path = "rummy.match.reentry_score"
    # the engine computes with the real expression; z3 still reads the broken one
    real = mechanic_of(pontinho, RummyMechanic).config.expressions[path]
    # the config's table is read-only by type: the test swaps one expression in on purpose
    expressions[path] = SpecExpression(  # type: ignore[index]
        path, "reentry", expressions[path].typed, real.compiled
    )
    for outcome in prove(game, named(game, "reentry-at-worst-placed")):
        assert outcome.status == "counterexample" and outcome.replayed is False
        assert (
            "NOT replayed: the engine's compiled `rummy.match.reentry_score` gives `comes_back_at` "
        ) in outcome.line()
        assert outcome.line().endswith("(encoder bug))")


def test_an_exhausted_budget_is_unknown(pontinho: Game) -> None:
    for property_id in SCORING + REENTRY:
        for outcome in prove(pontinho, named(pontinho, property_id), rlimit=1):
            assert outcome.status == "unknown", outcome.line()
            assert outcome.counterexample == {} and outcome.replayed is None
            assert "(not proved)" in outcome.line()


# --- a property that does not make sense is a located spec error ----------------------------

WRONG: dict[str, tuple[str, str, str]] = {
    "unknown expression": (
        "evaluate: {points: scoring.hand_points}",
        "evaluate: {points: scoring.hand_pts}",
        "unknown expression `scoring.hand_pts`",
    ),
    "other context": (
        "evaluate: {comes_back_at: rummy.match.reentry_score}\n    claim: comes_back_at < blow_at",
        "evaluate: {comes_back_at: scoring.hand_points}\n    claim: comes_back_at < blow_at",
        "`scoring.hand_points` reads the `scoring` context, not `reentry`",
    ),
    "no list": (
        "over: {hand: [0, 12]}\n    constants: {blow_at: rummy.match.blow_at}\n"
        "    ranges: {score: [0, blow_at - 1]}\n    options:\n",
        "over: {score: [0, 12]}\n    constants: {blow_at: rummy.match.blow_at}\n"
        "    ranges: {score: [0, blow_at - 1]}\n    options:\n",
        "`score` is no list of cards or ints at `scoring`",
    ),
    "no constant": (
        "constants: {blow_at: rummy.match.blow_at, seats: seats.max}\n"
        "    over: {still_in: [2, seats]}\n    ranges: {still_in: [0, blow_at - 1]}\n"
        "    options: {reentry: [once, paid]}\n"
        "    evaluate: {comes_back_at: rummy.match.reentry_score}\n"
        "    claim: comes_back_at < blow_at",
        "constants: {blow_at: rummy.match.blow_up, seats: seats.max}\n"
        "    over: {still_in: [2, seats]}\n    ranges: {still_in: [0, blow_at - 1]}\n"
        "    options: {reentry: [once, paid]}\n"
        "    evaluate: {comes_back_at: rummy.match.reentry_score}\n"
        "    claim: comes_back_at < blow_at",
        "`rummy.match.blow_up` is no integer of this spec",
    ),
}


@pytest.mark.parametrize("name", list(WRONG))
def test_a_wrong_property_is_a_located_spec_error(tmp_path: Path, name: str) -> None:
    old, new, message = WRONG[name]
    with pytest.raises((SpecError, SpecErrors)) as caught:
        game = load_game(spec_copy(tmp_path, "wrong", [(old, new)]), DEFAULT_SPECS)
        for prop in read_properties(game):
            prove(game, prop, rlimit=1)
    error = str(caught.value)  # located in the proofs file, where the properties are stated
    assert message in error and "wrong.proofs.yaml:" in error and "properties[" in error, error
