"""Piedicavallo Tarocchi's properties (STYLE.md 9): the pack holds 62 cards and 114 points, every
trick has one winner (TA-9's) and never the Matto, a card may be played exactly when TA-7 / TA-8
say so, every card belongs to a team at the count, and a team that wins every trick owns every
card. Each is proved over cards of the game's own pack; broken copies of the spec give
counterexamples that the engine's compiled expressions and rule book reproduce (and, for a play,
a real stacked table)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import z3

from referee.cards import Card, PackKind, codes, french_pack
from referee.cli import main
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import Move
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.proofs.prover import Outcome, Property, prove, read_properties
from referee.spec.expr.symbolic import CardDomain, SymCard, card_of

from .stacking import Edits, assert_located_property_error, edited_spec

# long runs; one worker runs the whole module: its proofs (a module fixture) are found once, not
# once a worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("proofs-tarocchi")]

GAME = "tarocchi_piedicavallo"
PROPERTY_IDS = [
    "pack-62-cards-114-points",
    "one-winner-never-the-matto",
    "legal-play-is-TA-7-TA-8",
    "every-card-to-a-team",
    "all-tricks-all-cards",
]
TOP_TRUMPS = ["21", "angel_20"]

LED_BY_TRUMP = (
    "      else if is_trump(trick[first_index(i in indices(trick): not is_matto(trick[i]))])"
    ' then "T"'
)
# Each break changes one expression or rule of the spec; the properties named beside it must
# then fail (for the option values named, else for every one).
BREAKS: dict[str, tuple[Edits, list[str]]] = {
    # TA-8: without trumps, the Matto counts as a card of the suit led (its strength is 11)
    "matto-may-win": (
        [
            (
                "else best_index(c in trick: if follows(c) then",
                "else best_index(c in trick: if follows(c) or is_matto(c) then",
            )
        ],
        ["one-winner-never-the-matto"],
    ),
    # TA-8: a Matto lead counts as a trump lead (the second card no longer sets the suit)
    "matto-lead-is-a-trump-lead": (
        [(LED_BY_TRUMP, '      else if suit(trick[0]) == "T" then "T"')],
        ["one-winner-never-the-matto", "legal-play-is-TA-7-TA-8"],
    ),
    # TA-3: the Angel forgotten: the 21 stays the top trump with `angel_20`
    "no-angel": (
        [
            (
                'then (if options.top_trump == "angel_20" and rank(c) == 20 then 22 else rank(c))',
                "then rank(c)",
            )
        ],
        ["one-winner-never-the-matto"],
    ),
    # TA-7: the rule forgets the must-trump clause
    "no-must-trump": (
        [("require: 'is_trump(move.card) or not any(c in hand: is_trump(c))'", "require: 'true'")],
        ["legal-play-is-TA-7-TA-8"],
    ),
    # TA-11: the discard always goes to the dealer's team
    "discard-to-dealer": (
        [
            (
                "then (if tricks[dealer_team] > 0 then dealer_team else 1 - dealer_team)",
                "then dealer_team",
            )
        ],
        ["all-tricks-all-cards"],
    ),
    # TA-11: the other team written as if teams were numbered 1 and 2
    "other-team-is-2": (
        [("else 1 - dealer_team)", "else 2 - dealer_team)")],
        ["every-card-to-a-team", "all-tricks-all-cards"],
    ),
    # TA-4: knights worth 2
    "knight-2": (
        [("else if rank(c) == knight then 3", "else if rank(c) == knight then 2")],
        ["pack-62-cards-114-points"],
    ),
}


def spec_copy(tmp_path: Path, name: str, edits: Edits) -> Game:
    return load_game(edited_spec(GAME, tmp_path, name, edits), DEFAULT_SPECS)


def broken(tmp_path: Path, name: str) -> Game:
    return spec_copy(tmp_path, name, BREAKS[name][0])


def named(game: Game, property_id: str) -> Property:
    return next(p for p in read_properties(game) if p.id == property_id)


def card(code: str) -> Card:
    return Card.parse(code, PackKind.TAROT)


@pytest.fixture(scope="module")
def tarocchi(games: dict[str, Game]) -> Game:
    return games[GAME]


@pytest.fixture(scope="module")
def proofs(tarocchi: Game) -> dict[str, list[Outcome]]:
    return {pid: prove(tarocchi, named(tarocchi, pid)) for pid in PROPERTY_IDS}


def _cards_allowed(domain: CardDomain | None) -> set[Card]:
    """Every card a fresh symbolic card may be, by enumerating z3's models."""
    sym, constraints = SymCard.fresh("c", domain)
    solver = z3.Solver()
    solver.add(*constraints)
    found: set[Card] = set()
    while solver.check() == z3.sat and len(found) <= 100:
        model = solver.model()
        rank, suit = model.eval(sym.rank).as_long(), model.eval(sym.suit).as_long()
        found.add(sym.decode(model))
        solver.add(z3.Or(sym.rank != rank, sym.suit != suit))
    return found


def test_a_free_card_is_one_of_the_packs_cards(tarocchi: Game) -> None:
    assert _cards_allowed(CardDomain.of(tarocchi.spec.pack())) == set(tarocchi.spec.pack())
    assert _cards_allowed(None) == set(french_pack())  # the default: a French card, as before
    assert card_of(14, "C") == card("NC") and card_of(0, "T") == card("MT")


# --- the real spec ------------------------------------------------------------------------


def test_the_spec_states_the_properties(tarocchi: Game) -> None:
    props = {p.id: p for p in read_properties(tarocchi)}
    assert list(props) == PROPERTY_IDS
    pack = props["pack-62-cards-114-points"]
    assert (pack.lists, pack.size_sets) == ({}, [{}])
    assert pack.constants["pack"] == tarocchi.spec.pack()
    (worth,) = pack.evaluations
    assert worth.each is not None
    assert (worth.expression, worth.each, {k: t for k, (t, _) in worth.bindings.items()}) == (
        "tricks.points",
        ("c", ("pack", worth.each[1][1])),
        {"card": "c"},
    )
    legal = props["legal-play-is-TA-7-TA-8"]
    assert [(e.name, e.expression, e.acceptance) for e in legal.evaluations] == [
        ("legal", "play", True)
    ]
    assert dict(legal.lists) == {"hand": (1, 15), "trick": (0, 3)}
    winner = props["one-winner-never-the-matto"]
    assert [name for (name, _), _ in winner.definitions][-1] == "wins(i: int)"
    assert props["every-card-to-a-team"].constants == {"deal": 15}


@pytest.mark.parametrize("property_id", PROPERTY_IDS)
def test_property_is_proved_for_every_option_set(
    proofs: dict[str, list[Outcome]], property_id: str
) -> None:
    outcomes = proofs[property_id]
    assert [o.options for o in outcomes] == (
        [{"top_trump": t} for t in TOP_TRUMPS]
        if property_id == "one-winner-never-the-matto"
        else [{}]
    )
    for outcome in outcomes:
        assert outcome.status == "proved", outcome.line()
        assert outcome.sizes == len(outcome.property.size_sets)
        assert outcome.counterexample == {} and outcome.replayed is None


def test_a_proved_line_says_what_was_covered(proofs: dict[str, list[Outcome]]) -> None:
    assert proofs["pack-62-cards-114-points"][0].line() == (
        "        proved  pack-62-cards-114-points [defaults]: it holds (no input ranges)"
    )
    assert proofs["one-winner-never-the-matto"][1].line() == (
        "        proved  one-winner-never-the-matto [top_trump=angel_20]: for every `trick` of "
        "4..4 cards"
    )
    assert proofs["legal-play-is-TA-7-TA-8"][0].line() == (
        "        proved  legal-play-is-TA-7-TA-8 [defaults]: for every `hand` of 1..15 cards, "
        "`trick` of 0..3 cards (from one pack), assuming `move.card in hand`"
    )


def test_prove_command_proves_one_of_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", GAME, "--only", "every-card-to-a-team"]) == 0
    out, _ = capsys.readouterr()
    assert "        proved  every-card-to-a-team [defaults]: for every `tricks` of 2..2 ints" in out
    assert "1 properties, 0 not proved" in out


# --- broken copies: counterexamples the engine reproduces ----------------------------------


@pytest.mark.parametrize("name", list(BREAKS))
def test_a_broken_spec_yields_replayed_counterexamples(tmp_path: Path, name: str) -> None:
    edits, property_ids = BREAKS[name]
    game = spec_copy(tmp_path, name, edits)
    for property_id in property_ids:
        outcomes = prove(game, named(game, property_id))
        failing = [o for o in outcomes if o.status == "counterexample"]
        expected = [
            o for o in outcomes if name != "no-angel" or o.options["top_trump"] == "angel_20"
        ]
        assert failing == expected, [o.line() for o in outcomes]
        for outcome in failing:
            assert outcome.replayed is True, outcome.line()
            assert "(replayed: the engine's compiled" in outcome.line()


def test_the_matto_that_wins_is_shown(tmp_path: Path) -> None:
    game = broken(tmp_path, "matto-may-win")
    for outcome in prove(game, named(game, "one-winner-never-the-matto")):
        trick, winner = outcome.counterexample["trick"], outcome.counterexample["results"]["winner"]
        assert trick[winner] == "MT" and not any(card(c).suit == "T" and c != "MT" for c in trick)


def test_the_angel_forgotten_fails_with_both_20_and_21_played(tmp_path: Path) -> None:
    game = broken(tmp_path, "no-angel")
    outcome = prove(game, named(game, "one-winner-never-the-matto"))[1]
    trick = outcome.counterexample["trick"]
    assert {"T20", "T21"} <= set(trick) and trick[
        outcome.counterexample["results"]["winner"]
    ] == "T21"


def test_a_discard_kept_by_a_team_without_tricks_is_shown(tmp_path: Path) -> None:
    game = broken(tmp_path, "discard-to-dealer")
    (outcome,) = prove(game, named(game, "all-tricks-all-cards"))
    context, results = outcome.counterexample["context"], outcome.counterexample["results"]
    assert context["in_discard"] is True
    assert results["owner"] == context["dealer_team"]
    assert outcome.counterexample["tricks"][context["dealer_team"]] == 0
    assert "`card` " in outcome.line()  # the card is shown, although no property list holds it


def test_knights_worth_2_leave_the_pack_4_points_short(tmp_path: Path) -> None:
    game = broken(tmp_path, "knight-2")
    (outcome,) = prove(game, named(game, "pack-62-cards-114-points"))
    worth = outcome.counterexample["results"]["worth"]
    assert len(worth) == 62 and sum(worth) == 114 - 4  # four knights


def _play_after_a_lead(game: Game, lead: Card, hand: list[Card], played: Card) -> list[str]:
    """Dealer 0 discards two plain low cards; seat 1 leads `lead`; seat 2, holding `hand` filled
    up to 15 with cards neither of the suit led nor trumps, plays `played`. The rules broken."""
    pack = game.spec.pack()
    rest = [c for c in pack if c != lead and c not in hand]
    filler = [c for c in rest if c.suit not in (lead.suit, "T")][: 15 - len(hand)]
    rest = [c for c in rest if c not in filler]
    discard = [c for c in rest if c.suit != "T" and c.rank != "K"][:2]
    rest = [c for c in rest if c not in discard]
    hands = {
        "0": codes(discard + rest[:15]),
        "1": codes([lead] + rest[15:29]),
        "2": codes(hand + filler),
        "3": codes(rest[29:]),
    }
    table = Table.create(
        game, TableSetup(game=GAME, seats=4, dealer=0, seed=1, deal={"hands": hands})
    )
    moves: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "discard", "cards": codes(discard)}),
        (1, {"type": "play", "card": str(lead)}),
    ]
    for seat, move in moves:
        assert table.propose(seat, Move.from_data(move)).accepted, move
    verdict = table.propose(2, Move.from_data({"type": "play", "card": str(played)}))
    return [v.rule for v in verdict.violations]


def test_a_forgotten_must_trump_is_played_at_a_real_table(tmp_path: Path, tarocchi: Game) -> None:
    game = broken(tmp_path, "no-must-trump")
    # one card led, so that a table reaches the counterexample in the first trick
    prop = dataclasses.replace(
        named(game, "legal-play-is-TA-7-TA-8"), lists={"hand": (1, 15), "trick": (1, 1)}
    )
    (outcome,) = prove(game, prop)
    example = outcome.counterexample
    assert outcome.replayed is True and example["results"] == {"legal": True}, outcome.line()
    hand, (lead,) = [card(c) for c in example["hand"]], [card(c) for c in example["trick"]]
    played = card(example["free_cards"]["move.card"])
    assert played.suit not in (lead.suit, "T") and any(
        c.suit == "T" and c.rank != "M" for c in hand
    )
    assert _play_after_a_lead(game, lead, hand, played) == []
    assert _play_after_a_lead(tarocchi, lead, hand, played) == ["TA-7-trump"]


# --- the other outcomes, and properties that do not make sense -----------------------------


@pytest.mark.parametrize("property_id", PROPERTY_IDS[1:])
def test_an_exhausted_budget_is_unknown(tarocchi: Game, property_id: str) -> None:
    for outcome in prove(tarocchi, named(tarocchi, property_id), rlimit=1):
        assert outcome.status == "unknown", outcome.line()
        assert "(not proved)" in outcome.line() and outcome.replayed is None


def test_a_premise_nothing_satisfies_is_vacuous_not_proved(tmp_path: Path) -> None:
    game = spec_copy(
        tmp_path,
        "vacuous",
        [
            (
                "    assume: move.card in hand\n",
                "    assume: move.card in hand and size(hand) > 20\n",
            )
        ],
    )
    (outcome,) = prove(game, named(game, "legal-play-is-TA-7-TA-8"))
    assert outcome.status == "vacuous", outcome.line()


WORTH = "evaluate: {worth: {expression: tricks.points, for: c in pack, with: {card: c}}}"
LEGAL = "evaluate: {legal: {acceptance: play}}"
WRONG: dict[str, tuple[str, str, str]] = {
    "for on a definition": (
        WORTH,
        "evaluate: {worth: {definition: points, for: c in pack, with: {c: c}}}",
        "`for` repeats a spec expression",
    ),
    "for without a list": (
        WORTH,
        WORTH.replace("c in pack", "c in size(pack)"),
        "`size(pack)` is no list",
    ),
    "for malformed": (WORTH, WORTH.replace("c in pack", "pack"), "`for` names an item and a list"),
    "acceptance elsewhere": (
        LEGAL,
        "evaluate: {legal: {acceptance: discard}}",
        "the acceptance at `discard` reads the `discard` checkpoint, not `play`",
    ),
    "helper taken": (
        "matto(trick[j])))\n    evaluate: {legal",
        "matto(trick[j])))\n      \"is_trump(c: card)\": 'true'\n    evaluate: {legal",
        "`is_trump` is already a definition",
    ),
    "unknown constant": (
        "    constants: {pack: pack}\n",
        "    constants: {pack: pakc}\n",
        "`pakc` is no integer of this spec",
    ),
}


@pytest.mark.parametrize("name", list(WRONG))
def test_a_wrong_property_is_a_located_spec_error(tmp_path: Path, name: str) -> None:
    assert_located_property_error(GAME, tmp_path, *WRONG[name])
