"""Proofs are three-valued (STYLE.md 9): the spec's properties are proved; a deliberately broken
rule yields a counterexample that the engine really accepts; an exhausted budget is `unknown`,
never `proved`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.cards import Card, codes, french_pack
from referee.cli import main
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move, Verdict
from referee.plugins.games import load_game
from referee.proofs.prover import Outcome, Property, prove, read_properties

from .stacking import edited_spec, jokers, natural_sequence

# long runs; one worker runs the whole module: its proofs (a module fixture) are found once, not
# once a worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("proofs-prove")]

JOKER_RULES = ["same_rank_other_colour", "next_rank_same_suit"]
PROPERTY_IDS = [
    "trio-three-suits",
    "sequence-no-joker-at-ends",
    "sequence-one-suit-consecutive",
    "sequence-at-most-thirteen-ranks",
]
# PN-13's span is a matter of long sequences (lay-offs make them): its sizes pass 13 cards
SIZES = {"sequence-at-most-thirteen-ranks": (11, 14)}
# the properties over the spec's expressions (tests/proofs/test_prove_expressions.py)
EXPRESSION_PROPERTY_IDS = [
    "hand-points-never-negative",
    "ace-at-98-only-lone-natural-ace",
    "reentry-under-blow-at",
    "reentry-at-worst-placed",
]
MAO = 1  # dealer 0: seat 1 acts first
StackDeal = Callable[..., dict[str, Any]]  # the `stacked` fixture (tests/conftest.py)

# Each break weakens one rule of the spec; the property named beside it must then fail.
BREAKS: dict[str, tuple[list[tuple[str, str]], str]] = {
    # PN-7 forgets the high end of the sequence
    "PN-7-low-end-only": (
        [
            (
                "require: not seq_wild(0) and not seq_wild(size(cards) - 1)",
                "require: not seq_wild(0)",
            )
        ],
        "sequence-no-joker-at-ends",
    ),
    # PN-12 lets the fourth suit (the foreigner) join a trio
    "PN-12-four-suits": (
        [
            (
                "require: trio_suits <= 3 and trio_suits +",
                "require: trio_suits <= 4 and trio_suits +",
            )
        ],
        "trio-three-suits",
    ),
    # PN-13 without its suit condition: neither the shape nor the places check the suit
    "PN-13-any-suit": (
        [
            (
                "shape: 'anchor >= 0 and all(c in cards: is_joker(c) or suit(c) == seq_suit)'",
                "shape: 'anchor >= 0'",
            ),
            ("suit(cards[i]) == seq_suit\n      and (rank(cards[i])", "(rank(cards[i])"),
        ],
        "sequence-one-suit-consecutive",
    ),
}


def broken_game(tmp_path: Path, name: str) -> tuple[Game, Property]:
    edits, property_id = BREAKS[name]
    game = load_game(edited_spec("pontinho", tmp_path, name, edits))
    return game, next(p for p in read_properties(game) if p.id == property_id)


def meld_properties(game: Game) -> list[Property]:
    return [p for p in read_properties(game) if p.id in PROPERTY_IDS]


@pytest.fixture(scope="module")
def proofs(pontinho: Game) -> dict[str, list[Outcome]]:
    return {prop.id: prove(pontinho, prop) for prop in meld_properties(pontinho)}


# --- the real spec ------------------------------------------------------------------------


def test_the_spec_states_the_meld_properties_first(pontinho: Game) -> None:
    props = read_properties(pontinho)
    assert [p.id for p in props] == PROPERTY_IDS + EXPRESSION_PROPERTY_IDS
    for index, prop in enumerate(props[: len(PROPERTY_IDS)]):
        assert list(prop.options["joker_rule"]) == JOKER_RULES
        assert prop.origin.path == f"properties[{index}].claim"
        assert (prop.over, prop.min_size, prop.max_cards) == ("cards", *SIZES.get(prop.id, (1, 10)))
        assert prop.premise == "acceptance" and not prop.evaluations


@pytest.mark.parametrize("property_id", PROPERTY_IDS)
def test_property_is_proved_for_both_joker_rules(
    proofs: dict[str, list[Outcome]], property_id: str
) -> None:
    outcomes = proofs[property_id]
    assert [o.options["joker_rule"] for o in outcomes] == JOKER_RULES
    for outcome in outcomes:
        assert outcome.status == "proved", outcome.line()
        assert outcome.sizes == len(outcome.property.size_sets)
        assert outcome.counterexample == {} and outcome.replayed is None
        assert "proved" in outcome.line()


# --- the prover has teeth -----------------------------------------------------------------


def _play_counterexample(
    stack_deal: StackDeal,
    game: Game,
    options: dict[str, Any],
    cards: list[Card],
    turned: Card,
    going_out: bool,
) -> tuple[Table, Verdict]:
    """Seat 1 holds `cards`, draws, and lays them: as a meld, or in a move that goes out."""
    placed = Counter(cards) + Counter([turned])
    over = [str(c) for c, n in placed.items() if n > 2]
    assert not over, f"the counterexample cannot be dealt from two packs: {over}"
    assert len(cards) <= 9 and not (going_out and len(cards) == 8), (
        f"no 9-card hand can lay the counterexample {codes(cards)} this way"
    )
    rest = 9 - len(cards)
    stock: list[Card] = []
    if going_out:
        # the rest of the hand is one natural sequence (two cards short of one: the drawn card
        # completes it); otherwise the drawn card is the final discard
        extra = natural_sequence(3 if rest == 2 else rest, placed, jokers(game, options, turned))
        hand, stock = cards + extra[:rest], extra[rest:]
    else:
        left = Counter(french_pack(2)) - placed
        hand = cards + sorted(left.elements())[:rest]
    deal = stack_deal(4, {MAO: codes(hand)}, str(turned), codes(stock))
    setup = TableSetup(game=game.name, seats=4, seed=1, options=options, deal=deal)
    table = Table.create(game, setup)
    assert table.propose(MAO, Move.from_data({"type": "draw"})).accepted
    if not going_out:
        return table, table.propose(MAO, Move.from_data({"type": "meld", "cards": codes(cards)}))
    melds = [codes(cards)] + ([codes(extra)] if extra else [])
    move: dict[str, Any] = {"type": "go_out", "melds": melds}
    if rest != 2:
        move["discard"] = table.view(MAO)["hand"][-1]  # the drawn card
    return table, table.propose(MAO, Move.from_data(move))


@pytest.mark.parametrize("name", list(BREAKS))
def test_a_broken_rule_yields_a_counterexample_the_engine_accepts(
    tmp_path: Path, pontinho: Game, stacked: StackDeal, name: str
) -> None:
    game, prop = broken_game(tmp_path, name)
    outcomes = prove(game, prop)
    assert [o.options["joker_rule"] for o in outcomes] == JOKER_RULES
    for outcome in outcomes:
        assert outcome.status == "counterexample", outcome.line()
        assert outcome.replayed is True, outcome.line()
        assert "accepted by the engine" in outcome.line()
        example = outcome.counterexample
        cards = [Card.parse(c) for c in example["cards"]]
        turned = Card.parse(example["turned"])
        context = {**prop.given, **example["context"]}
        going_out = bool(context.get("going_out", False))
        options = pontinho.resolve_options(outcome.options)

        # the broken rules really accept it at a table ...
        table, verdict = _play_counterexample(stacked, game, options, cards, turned, going_out)
        assert verdict.accepted, (outcome.line(), verdict.violations)
        view = table.view(ADJUDICATOR)  # after going out, the finished hand is `last_hand`
        laid = (view["last_hand"] if going_out else view)["melds"][0]
        assert (laid["kind"], laid["cards"]) == (prop.on, example["cards"])
        # ... and the real rules refuse the same move
        _, verdict = _play_counterexample(stacked, pontinho, options, cards, turned, going_out)
        assert not verdict.accepted, outcome.line()


def test_pn13_without_its_span_yields_a_fourteen_card_counterexample(
    tmp_path: Path, pontinho: Game
) -> None:
    """Issue 25, B1: PN-13 without `size(cards) <= 13` accepts sequences of fourteen ranks (an
    ace at each end, a joker beyond an end ace); the prover finds one, the engine under the
    broken rule accepts it, and under the real rule refuses it. (Fourteen cards are no hand:
    tests/mechanics/rummy/test_sequence_span.py plays such sequences as lay-offs.)"""
    edits = [
        (
            "seq_base + size(cards) - 1 <= 14 and size(cards) <= 13",
            "seq_base + size(cards) - 1 <= 14",
        ),
        ("over: {cards: [11, 14]}", "over: {cards: [14, 14]}"),  # where the breach lies
    ]
    game = load_game(edited_spec("pontinho", tmp_path, "PN-13-fourteen", edits))
    prop = next(p for p in read_properties(game) if p.id == "sequence-at-most-thirteen-ranks")
    outcomes = prove(game, prop)
    assert [o.options["joker_rule"] for o in outcomes] == JOKER_RULES
    for outcome in outcomes:
        assert outcome.status == "counterexample" and outcome.replayed is True, outcome.line()
        example = outcome.counterexample
        cards = [Card.parse(c) for c in example["cards"]]
        assert len(cards) == 14, outcome.line()
        given = {
            **prop.given,
            **example["context"],
            "options": pontinho.resolve_options(outcome.options),
        }
        turned = Card.parse(example["turned"])
        assert game.mechanic.replay_accepts("sequence", given, cards, turned)
        assert not pontinho.mechanic.replay_accepts("sequence", given, cards, turned)


# --- unknown is never proved --------------------------------------------------------------


def test_an_exhausted_budget_is_unknown_not_proved(pontinho: Game) -> None:
    for prop in read_properties(pontinho):  # the meld properties and the others alike
        for outcome in prove(pontinho, prop, rlimit=1):
            assert outcome.status == "unknown", outcome.line()
            assert outcome.sizes < prop.max_cards
            assert outcome.counterexample == {} and outcome.replayed is None
            assert "not proved" in outcome.line()


def test_prove_command_fails_when_the_solver_gives_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "pontinho", "--rlimit", "1"]) == 1
    out, _ = capsys.readouterr()
    statuses = [line.split()[0] for line in out.splitlines() if "[" in line]
    # 2 option sets per meld property; 4 + 2 for the scoring ones, 2 + 2 for the re-entry ones
    assert statuses == ["unknown"] * 18, out
    assert "8 properties, 18 not proved" in out


def test_prove_command_succeeds_on_one_property(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "pontinho", "--only", "trio-three-suits"]) == 0
    out, _ = capsys.readouterr()
    assert out.count("        proved  trio-three-suits") == 2
    assert "1 properties, 0 not proved" in out


@pytest.mark.parametrize("going_out", [False, True])
def test_a_known_breach_of_the_broken_pn13_is_played_both_ways(
    tmp_path: Path, pontinho: Game, stacked: StackDeal, going_out: bool
) -> None:
    # JD is a joker (turned JC) that fits its place by rank only; KH is of another suit
    game, _ = broken_game(tmp_path, "PN-13-any-suit")
    options = pontinho.resolve_options({})
    cards, turned = [Card.parse(c) for c in ("JD", "QD", "KH")], Card.parse("JC")
    table, verdict = _play_counterexample(stacked, game, options, cards, turned, going_out)
    assert verdict.accepted, verdict.violations
    assert table.view(ADJUDICATOR)["hand_over"] is going_out
    _, verdict = _play_counterexample(stacked, pontinho, options, cards, turned, going_out)
    assert "PN-13-shape" in verdict.rule_ids()
