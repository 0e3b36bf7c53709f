"""Pontoon's properties (issue 4, item 5; STYLE.md 9): hand ranking is a total preorder, the
banker wins ties, a pontoon beats every other hand, the best total is the largest value not over
21, settling a hand moves 1× or 2× its whole stake, and buys stay within PO-5's ranges. Each is
proved over hands from one pack; broken copies of the spec give counterexamples that the engine's
compiled expressions (and, for a buy, a real stacked table) reproduce. What the proofs take as
given (`assume:`) and what they leave to the mechanic's bookkeeping is checked here too."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
import z3

from referee.cards import Card, french_pack
from referee.cli import main
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.mechanics.banking.flow import settle_hand
from referee.mechanics.banking.state import BankState, Hand
from referee.mechanics.banking.transfers import transfer
from referee.model import ADJUDICATOR, Move
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.proofs.prover import Outcome, Property, prove, read_properties

from .stacking import Edits, assert_located_property_error, edited_spec

# long runs; one worker runs the whole module: its proofs (a module fixture) are found once, not
# once a worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("proofs-pontoon")]

PROPERTY_IDS = [
    "rank-total-preorder",
    "banker-wins-ties",
    "pontoon-beats-every-hand",
    "best-total-largest-not-over-21",
    "settle-moves-the-whole-stake",
    "buy-within-PO-5",
    "forfeit-before-bet-costs-a-bet",
    "smallest-bet-accepted",
]
MIN_BETS = 3  # the option sets of the GEN-10 properties: `min_bet` 1, 7 and 100

BEST_TOTAL = (
    "      if any(c in cs: rank(c) == ace) and hard_total(cs) + 10 <= 21\n"
    "      then hard_total(cs) + 10 else hard_total(cs)"
)
# PO-7: the settlement pays the whole stake (`whole_stake`: the bet and every buy); paying only
# the initial bet is the bug the prover found once: a broken copy brings it back
WHOLE = (
    "    then (if special(cards, split_hand) then 2 else 1) * whole_stake\n"
    "    else if size(banker_cards) == 5\n"
    "    then (if pays_double(cards, split_hand) then 2 * whole_stake else -2 * whole_stake)\n"
    "    else if hand_rank(cards, split_hand) > hand_rank(banker_cards, false)\n"
    "    then (if special(cards, split_hand) then 2 else 1) * whole_stake\n"
    "    else -whole_stake"
)
INITIAL_BET_ONLY: Edits = [(WHOLE, WHOLE.replace("whole_stake", "stake"))]

# Each break changes one expression of the spec; the properties named beside it must then fail.
BREAKS: dict[str, tuple[Edits, list[str]]] = {
    # PO-1: every ace counts 11, over 21 or not
    "ace-always-11": (
        [(BEST_TOTAL, "      hard_total(cs) + 10 * count(c in cs: rank(c) == ace)")],
        ["best-total-largest-not-over-21"],
    ),
    # PO-2, PO-7: a tie pays the player
    "ties-to-the-player": (
        [
            (
                "else if hand_rank(cards, split_hand) > hand_rank(banker_cards",
                "else if hand_rank(cards, split_hand) >= hand_rank(banker_cards",
            )
        ],
        ["banker-wins-ties"],
    ),
    # PO-5: the 3rd card may be bought for up to three times the stake
    "buy-limit-3x": (
        [
            (
                "body: if size(paid) == 0 then 2 * stake else",
                "body: if size(paid) == 0 then 3 * stake else",
            )
        ],
        ["buy-within-PO-5"],
    ),
    # PO-2: a pontoon ranks as a plain 21
    "pontoon-is-21": (
        [
            (
                "else if counts_as_pontoon(cs, split) then 23",
                "else if counts_as_pontoon(cs, split) then 21",
            )
        ],
        ["pontoon-beats-every-hand"],
    ),
    # GEN-10: a player leaves the hand for free after a look at its first card
    "free-sit-out": (
        [("forfeit_before_bet: options.min_bet", "forfeit_before_bet: 0")],
        ["forfeit-before-bet-costs-a-bet"],
    ),
    # PO-3: the smallest bet refused, so that a timed-out seat has no bet it may place
    "smallest-bet-refused": (
        [
            (
                "require: move.amount >= options.min_bet and",
                "require: move.amount > options.min_bet and",
            )
        ],
        ["smallest-bet-accepted"],
    ),
}


def spec_copy(tmp_path: Path, name: str, edits: Edits) -> Game:
    return load_game(edited_spec("pontoon", tmp_path, name, edits), DEFAULT_SPECS)


def named(game: Game, property_id: str) -> Property:
    return next(p for p in read_properties(game) if p.id == property_id)


@pytest.fixture(scope="module")
def pontoon(games: dict[str, Game]) -> Game:
    return games["pontoon"]


@pytest.fixture(scope="module")
def proofs(pontoon: Game) -> dict[str, list[Outcome]]:
    return {pid: prove(pontoon, named(pontoon, pid)) for pid in PROPERTY_IDS}


# --- the real spec ------------------------------------------------------------------------


def test_the_spec_states_the_properties(pontoon: Game) -> None:
    props = {p.id: p for p in read_properties(pontoon)}
    assert list(props) == PROPERTY_IDS
    ranking = props["rank-total-preorder"]
    assert dict(ranking.lists) == {"a": (2, 5), "b": (2, 5), "c": (2, 5)}
    first = ranking.evaluations[0]
    assert (first.name, first.expression, {k: t for k, (t, _) in first.bindings.items()}) == (
        "rank_a",
        "banking.rank",
        {"cards": "a", "split_hand": "split_a"},
    )
    best = props["best-total-largest-not-over-21"].evaluations[0]
    assert (best.definition, best.expression) == (True, "best_total")
    buy = props["buy-within-PO-5"]
    assert (buy.on, buy.premise, dict(buy.lists)) == (
        "buy",
        "acceptance",
        {"cards": (2, 5), "paid": (0, 2)},
    )
    assert [text for text, _ in buy.assume] == ["twisted or size(paid) == size(cards) - 2"]


@pytest.mark.parametrize("property_id", PROPERTY_IDS)
def test_property_is_proved_for_every_option_set(
    proofs: dict[str, list[Outcome]], property_id: str
) -> None:
    outcomes = proofs[property_id]
    sets = {
        "best-total-largest-not-over-21": 1,
        "forfeit-before-bet-costs-a-bet": MIN_BETS,
        "smallest-bet-accepted": MIN_BETS,
    }
    assert len(outcomes) == sets.get(property_id, 2)
    for outcome in outcomes:
        assert outcome.status == "proved", outcome.line()
        assert outcome.sizes == len(outcome.property.size_sets)
        assert outcome.counterexample == {} and outcome.replayed is None


def test_a_proved_line_says_what_was_covered(proofs: dict[str, list[Outcome]]) -> None:
    assert proofs["rank-total-preorder"][0].line() == (
        "        proved  rank-total-preorder [split_pontoon_double=true]: for every `a` of 2..5 "
        "cards, `b` of 2..5 cards, `c` of 2..5 cards (from one pack)"
    )
    assert proofs["buy-within-PO-5"][1].line() == (
        "        proved  buy-within-PO-5 [fifth_card_buy=twist_only_if_hard_11_or_less]: for every "
        "`cards` of 2..5 cards, `paid` of 0..2 ints, `stake` in 1..1000000, assuming "
        "`twisted or size(paid) == size(cards) - 2`"
    )


def test_the_settle_counterexample_is_a_bought_card_left_unpaid(tmp_path: Path) -> None:
    game = spec_copy(tmp_path, "initial-bet-only", INITIAL_BET_ONLY)
    for outcome in prove(game, named(game, "settle-moves-the-whole-stake")):
        example = outcome.counterexample
        assert outcome.status == "counterexample" and outcome.replayed is True, outcome.line()
        assert example["paid"] and abs(example["results"]["pay"]) in (
            example["context"]["stake"],
            2 * example["context"]["stake"],
        )


def test_with_the_whole_stake_settle_is_proved(pontoon: Game) -> None:
    game = pontoon
    for outcome in prove(game, named(game, "settle-moves-the-whole-stake")):
        assert outcome.status == "proved", outcome.line()
    for outcome in prove(game, named(game, "banker-wins-ties")):
        assert outcome.status == "proved", outcome.line()


def test_prove_command_proves_one_of_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "pontoon", "--only", "buy-within-PO-5"]) == 0
    out, _ = capsys.readouterr()
    assert out.count("        proved  buy-within-PO-5 [fifth_card_buy=") == 2
    assert "1 properties, 0 not proved" in out


# --- broken copies: counterexamples the engine reproduces ----------------------------------


@pytest.mark.parametrize("name", list(BREAKS))
def test_a_broken_expression_yields_replayed_counterexamples(tmp_path: Path, name: str) -> None:
    edits, property_ids = BREAKS[name]
    game = spec_copy(tmp_path, name, edits)
    for property_id in property_ids:
        outcomes = prove(game, named(game, property_id))
        assert all(o.status == "counterexample" for o in outcomes), [o.line() for o in outcomes]
        for outcome in outcomes:
            assert outcome.replayed is True, outcome.line()


def test_an_ace_always_11_is_over_21_where_a_choice_is_not(tmp_path: Path) -> None:
    game = spec_copy(tmp_path, "ace-always-11", BREAKS["ace-always-11"][0])
    (outcome,) = prove(game, named(game, "best-total-largest-not-over-21"))
    cards, eleven = outcome.counterexample["cards"], outcome.counterexample["eleven"]
    best = outcome.counterexample["results"]["best"]
    chosen = sum(
        11 if c.startswith("A") and e else min(Card.parse(c).value, 10)
        for c, e in zip(cards, eleven)
    )
    assert chosen <= 21 < best, outcome.line()
    assert "(replayed: the engine's compiled `best_total` gives the same)" in outcome.line()


def test_a_tie_paid_to_the_player_is_replayed(tmp_path: Path) -> None:
    game = spec_copy(tmp_path, "ties", BREAKS["ties-to-the-player"][0])
    for outcome in prove(game, named(game, "banker-wins-ties")):
        results = outcome.counterexample["results"]
        assert results["player_rank"] == results["banker_rank"] and results["pay"] > 0
        assert not results["banker_bust"]
        assert "`banking.settle` gives the same)" in outcome.line()


def _buy(game: Game, cards: list[Card], stake: int, amount: int) -> tuple[bool, list[str]]:
    """Seat 1, the only player, is dealt `cards`, bets `stake` and buys a 3rd card for
    `amount`: accepted, and the rules broken if not. The banker holds two low cards."""
    low = [c for c in french_pack(1) if c not in cards and 2 <= c.value <= 6][:2]
    deck = [str(cards[0]), str(low[0]), str(cards[1]), str(low[1])]
    setup = TableSetup(
        game=game.name,
        seats=2,
        dealer=0,
        seed=1,
        deal={"deck": deck},
        balances={0: 10_000, 1: 10_000},
    )
    table = Table.create(game, setup)
    assert table.propose(1, Move.from_data({"type": "bet", "amount": stake})).accepted
    verdict = table.propose(1, Move.from_data({"type": "buy", "amount": amount}))
    return verdict.accepted, [v.rule for v in verdict.violations]


def test_a_buy_over_the_limit_is_played_at_a_real_table(tmp_path: Path, pontoon: Game) -> None:
    game = spec_copy(tmp_path, "buy-limit-3x", BREAKS["buy-limit-3x"][0])
    # the table's bets are 1..100 (PO-3): ask for a counterexample such a table can reach
    prop = dataclasses.replace(named(game, "buy-within-PO-5"), ranges={"stake": (1, 100)})
    for outcome in prove(game, prop):
        example = outcome.counterexample
        assert outcome.replayed is True and example["paid"] == [], outcome.line()
        cards = [Card.parse(c) for c in example["cards"]]
        stake, amount = example["context"]["stake"], example["context"]["move.amount"]
        assert 2 * stake < amount <= 3 * stake
        assert _buy(game, cards, stake, amount) == (True, [])
        assert _buy(pontoon, cards, stake, amount) == (False, ["PO-5-buy"])


def test_a_lost_hand_pays_its_whole_stake(pontoon: Game) -> None:
    """Seat 1 bets 10, buys a 3rd card for 20 and sticks on 15; the banker sticks on 17."""
    game = pontoon
    setup = TableSetup(
        game=game.name,
        seats=2,
        dealer=0,
        seed=1,
        deal={"deck": ["5H", "TS", "4H", "7S", "6H"]},
        balances={0: 100, 1: 100},
    )
    table = Table.create(game, setup)
    moves: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "bet", "amount": 10}),
        (1, {"type": "buy", "amount": 20}),
        (1, {"type": "stick"}),
        (0, {"type": "stick"}),
    ]
    for seat, move in moves:
        assert table.propose(seat, Move.from_data(move)).accepted, move
    view = table.view(ADJUDICATOR)
    assert view["on_table"] == 0
    assert view["balances"] == {"0": 130, "1": 70}


# --- what the proofs leave to the mechanic -------------------------------------------------


def test_settling_a_hand_conserves_chips_for_every_amount() -> None:
    """GEN-6 for one hand, on symbolic chips: whatever `banking.settle` gives, the mechanic
    moves that one amount between player and banker, and returns the stake from the table
    (`settle_hand`); a bust hand's stake goes to the banker (`transfer`)."""
    for settle in (True, False):
        balances = [z3.Int("banker"), z3.Int("player")]
        state = BankState(
            seats=2, banker=0, seed="", salt="", options={}, pack=[], balances=list(balances)
        )
        hand = Hand(stake=z3.Int("stake"), paid=[z3.Int("bought3"), z3.Int("bought4")])
        state.hands = [[Hand()], [hand]]
        before, amount = sum(state.balances) + state.on_table, z3.Int("amount")
        if settle:
            settle_hand(state, 1, hand, amount)
        else:
            transfer(state, None, 0, hand.on_table, "bust", hand=hand)
        after = sum(state.balances) + state.on_table
        banker_gets = amount * -1 if settle else z3.Int("stake") + sum(hand.paid)
        solver = z3.Solver()
        solver.add(z3.Or(before != after, state.balances[0] - balances[0] != banker_gets))
        assert solver.check() == z3.unsat
        assert hand.settled and state.on_table == 0


def _invariants(table: Table) -> None:
    """The `assume:` of buy-within-PO-5 and settle-moves-the-whole-stake, on every hand in
    play: until a hand twists, every card past its first two was bought; never more bought."""
    for hands in table.state.hands:
        for hand in hands:
            if len(hand.cards) >= 2:
                assert hand.twisted or len(hand.paid) == len(hand.cards) - 2, hand
                assert len(hand.paid) <= len(hand.cards) - 2, hand


def _candidates(table: Table, rng: random.Random) -> list[dict[str, Any]]:
    state = table.state
    hand = state.hand(state.to_act)
    limit = hand.paid[-1] if hand.paid else 2 * max(hand.stake, 1)
    amounts = {1, 2, max(hand.stake, 1), limit, rng.randint(1, limit + 1)}
    moves: list[dict[str, Any]] = [
        {"type": t} for t in ("split", "twist", "stick", "burn", "next_hand")
    ]
    moves += [{"type": t, "amount": a} for t in ("bet", "buy") for a in sorted(amounts)]
    rng.shuffle(moves)
    return moves


@pytest.mark.parametrize("seed", range(12))
def test_the_assumptions_hold_at_played_tables(pontoon: Game, seed: int) -> None:
    rng = random.Random(seed)
    options = {
        "burn_hard_13": rng.random() < 0.5,
        "fifth_card_buy": rng.choice(["allowed", "twist_only_if_hard_11_or_less"]),
        "split": rng.choice(["equal_rank", "aces_only"]),
    }
    seats = rng.randint(2, 6)
    setup = TableSetup(
        game="pontoon",
        seats=seats,
        seed=seed,
        options=options,
        balances={s: 1000 for s in range(seats)},
    )
    table = Table.create(pontoon, setup)
    buys = 0
    for _ in range(300):
        seat = table.state.to_act
        for move in _candidates(table, rng):
            if table.propose(seat, Move.from_data(move)).accepted:
                buys += move["type"] == "buy"
                break
        else:
            raise AssertionError(f"seat {seat} has no move in phase {table.state.phase}")
        _invariants(table)
    assert buys > 0


# --- the other outcomes, and properties that do not make sense -----------------------------


def test_a_premise_nothing_satisfies_is_vacuous_not_proved(tmp_path: Path) -> None:
    game = spec_copy(tmp_path, "vacuous", [("given: {phase: play}", "given: {phase: bet}")])
    for outcome in prove(game, named(game, "buy-within-PO-5")):
        assert outcome.status == "vacuous", outcome.line()
        assert outcome.line().endswith("nothing is proved (not proved)")


def test_an_exhausted_budget_is_unknown(pontoon: Game) -> None:
    # the cost of leaving before the bet reads no card: z3 decides it without a search
    for property_id in [p for p in PROPERTY_IDS if p != "forfeit-before-bet-costs-a-bet"]:
        for outcome in prove(pontoon, named(pontoon, property_id), rlimit=1):
            assert outcome.status == "unknown", outcome.line()
            assert "(not proved)" in outcome.line() and outcome.replayed is None


RANK_C = "rank_c: {expression: banking.rank, with: {cards: c, split_hand: split_c}}"
WRONG: dict[str, tuple[str, str, str]] = {
    "unknown name": (
        RANK_C,
        RANK_C.replace("split_hand:", "split:"),
        "`banking.rank` reads no `split`",
    ),
    "binding type": (
        RANK_C,
        RANK_C.replace("split_hand: split_c", "split_hand: c"),
        "the expression must be `bool`, found `list[card]`",
    ),
    "definition parameters": (
        "best: {definition: best_total, with: {cs: cards}}",
        "best: {definition: best_total, with: {hand: cards}}",
        "`best_total` takes the parameters `cs`",
    ),
    "unknown definition": (
        "best: {definition: best_total, with: {cs: cards}}",
        "best: {definition: best_totl, with: {cs: cards}}",
        "unknown definition `best_totl`",
    ),
    "free list without sizes": (
        "over: {a: [2, 5], b: [2, 5], c: [2, 5]}",
        "over: {a: [2, 5], b: [2, 5]}",
        "`c` is a list: give its sizes in `over`",
    ),
    "free name taken": (
        'free: {eleven: "list[int]"}',
        'free: {eleven: "list[int]", stake: int}',
        "`stake` already names something at `hand`",
    ),
    "unknown type": (
        'free: {eleven: "list[int]"}',
        'free: {eleven: "list[bool]"}',
        "unknown type `list[bool]`",
    ),
}


@pytest.mark.parametrize("name", list(WRONG))
def test_a_wrong_property_is_a_located_spec_error(tmp_path: Path, name: str) -> None:
    assert_located_property_error("pontoon", tmp_path, *WRONG[name])
