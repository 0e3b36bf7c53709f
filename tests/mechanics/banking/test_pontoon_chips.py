"""A stateful property test of Pontoon tables (STYLE.md 12): random seeds, seats, options,
banks and starting chips; hands played by the pontoon bot with random choices, mixed with random
proposals, most of them illegal (out of turn, out of phase, amounts out of range, unreadable).

Properties, after every proposal: chips are conserved (the balances plus every stake on the
table never change in sum, GEN-6) and move only as the events say (`transfer`, `settled`); a
rejected proposal changes nothing (GEN-4) and names its rules; every bet or buy rejected for its
amount gives the allowed range in its message (PO-3, PO-5); the 52 cards are all somewhere;
a seat sees of the other seats only their face-up cards (GEN-3). Between hands nothing is left
on the table. Table options are validated when the table is created (PO-10).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from referee.cards import codes, french_pack
from referee.engine.table import Table, TableSetup
from referee.errors import OptionError
from referee.model import ADJUDICATOR, Move, Verdict
from referee_bots.pontoon_bot import HIDDEN, next_to_act, turn_candidates
from tests.support.games import shipped_games
from tests.support.soak import SOAK_SCALE

GAME = shipped_games()["pontoon"]
ONE_PACK = Counter(codes(french_pack(1)))
MOVE_TYPES = [
    "bet",
    "split",
    "buy",
    "twist",
    "stick",
    "burn",
    "offer_bank",
    "accept_bank",
    "next_hand",
]
MAX_CANDIDATES = 50
ORDINALS = {2: "3rd", 3: "4th", 4: "5th"}


@st.composite
def table_setups(draw: st.DrawFn) -> dict[str, Any]:
    seats = draw(st.integers(2, 8))
    low = draw(st.integers(1, 60))
    options = {
        "stick_min": draw(st.sampled_from([15, 16])),
        "split": draw(st.sampled_from(["equal_rank", "aces_only"])),
        "fifth_card_buy": draw(st.sampled_from(["allowed", "twist_only_if_hard_11_or_less"])),
        "burn_hard_13": draw(st.booleans()),
        "split_pontoon_double": draw(st.booleans()),
        "min_bet": low,
        "max_bet": low + draw(st.integers(0, 200)),
    }
    balances = draw(
        st.one_of(st.none(), st.lists(st.integers(-500, 5000), min_size=seats, max_size=seats))
    )
    return {
        "seats": seats,
        "options": options,
        "dealer": draw(st.integers(0, seats - 1)),
        "balances": None if balances is None else dict(enumerate(balances)),
    }


@st.composite
def random_moves(draw: st.DrawFn) -> dict[str, Any]:
    """Any move type with fields in and out of every range, and some unreadable ones."""
    kind = draw(st.sampled_from([*MOVE_TYPES, "double", "", "BET"]))
    amount = draw(st.one_of(st.integers(-20, 400), st.sampled_from(["ten", 2.5, None, [5]])))
    move: dict[str, Any] = {"type": kind}
    if kind in ("bet", "buy") or draw(st.integers(0, 9)) == 0:
        move["amount"] = amount
    if kind == "offer_bank":
        move["to"] = draw(st.integers(-2, 9))
        move["price"] = draw(st.integers(-10, 300))
    return move


class PontoonTable(RuleBasedStateMachine):
    table: Table

    @initialize(setup=table_setups(), seed=st.integers(0, 2**32))
    def deal(self, setup: dict[str, Any], seed: int) -> None:
        self.seats, self.options = setup["seats"], setup["options"]
        self.table = Table.create(
            GAME,
            TableSetup(
                game="pontoon",
                seats=self.seats,
                seed=seed,
                dealer=setup["dealer"],
                options=self.options,
                balances=setup["balances"],
            ),
        )
        self.chips = sum((setup["balances"] or {}).values())  # GEN-6: all the chips there are
        self.limits = {"min_bet": self.options["min_bet"], "max_bet": self.options["max_bet"]}
        self.snapshot = self.adjudicator

    @property
    def adjudicator(self) -> dict[str, Any]:
        return self.table.view(ADJUDICATOR)

    # --- proposing, with the per-move properties ------------------------------------------
    def propose(self, seat: int, data: dict[str, Any]) -> Verdict:
        before, state, version = self.snapshot, self.table.state, self.table.version
        verdict = self.table.propose(seat, Move.from_data(data))
        if not verdict.accepted:
            assert self.table.state is state and self.adjudicator == before, (
                f"a rejected {data} of seat {seat} changed the table"
            )
            assert self.table.version == verdict.version == version
            assert verdict.violations and not verdict.events
            for violation in verdict.violations:
                assert violation.rule.strip() and violation.message.strip(), verdict
            self.check_ranges(seat, data, verdict, before)
            return verdict
        assert self.table.version == verdict.version == version + 1
        self.snapshot = after = self.adjudicator
        self.check_chip_moves(verdict, before, after)
        event(f"accepted: {data['type']}")
        if after["hand_over"] and not before["hand_over"]:
            event("a hand was settled")
        return verdict

    def check_ranges(
        self, seat: int, data: dict[str, Any], verdict: Verdict, before: dict[str, Any]
    ) -> None:
        """PO-3, PO-5: a bet or a buy rejected for its amount says what the range is."""
        for violation in verdict.violations:
            if violation.rule == "PO-3":
                low, high = self.options["min_bet"], self.options["max_bet"]
                assert f"between {low} and {high}" in violation.message, violation
                event("a bet out of range was rejected")
            elif violation.rule == "PO-5-buy":
                hand = self.judged_hand(seat, before)
                low = hand["stake"]
                high = hand["paid"][-1] if hand["paid"] else 2 * hand["stake"]
                assert f"between {low} and {high}" in violation.message, (violation, hand)
                if len(hand["cards"]) in ORDINALS:  # (five cards: PO-5-more-cards says why)
                    assert ORDINALS[len(hand["cards"])] in violation.message, (violation, hand)
                event("a buy out of range was rejected")

    @staticmethod
    def judged_hand(seat: int, view: dict[str, Any]) -> dict[str, Any]:
        """The hand a move of `seat` is judged on: its active hand when in turn, else its first."""
        hands = view["hands"][str(seat)]
        index = view["active_hand"] if seat == view["to_act"] else 0
        hand: dict[str, Any] = hands[min(index, len(hands) - 1)]
        return hand

    def check_chip_moves(
        self, verdict: Verdict, before: dict[str, Any], after: dict[str, Any]
    ) -> None:
        """Chips move only as the events say: a `transfer` (a balance to or from the table, or
        between balances) or a `settled` hand (its stake back, plus what the banker paid)."""
        moved = Counter[str]()
        for e in verdict.events:
            if e.kind == "transfer":
                assert isinstance(e.data["amount"], int) and e.data["amount"] >= 0, e
                moved[str(e.data["from"])] -= e.data["amount"]
                moved[str(e.data["to"])] += e.data["amount"]
            elif e.kind == "settled":
                moved[str(e.data["seat"])] += e.data["stake"] + e.data["paid"]
                moved[str(before["banker"])] -= e.data["paid"]
                moved["table"] -= e.data["stake"]
        for s in range(self.seats):
            assert after["balances"][str(s)] - before["balances"][str(s)] == moved[str(s)], (
                verdict.events,
                before["balances"],
                after["balances"],
            )
        assert after["on_table"] - before["on_table"] == moved["table"], verdict.events

    # --- legal play (the bot) -------------------------------------------------------------
    def bot_turn(self, rng: random.Random) -> None:
        seat = next_to_act(self.adjudicator)
        view = self.table.view(seat)
        for move in itertools.islice(turn_candidates(view, rng, **self.limits), MAX_CANDIDATES):
            if self.propose(seat, move).accepted:
                return
        raise AssertionError(f"seat {seat} has no legal move: {self.adjudicator}")

    @rule(choices=st.integers(0, 2**32), moves=st.integers(1, 60))
    def bot_plays_on(self, choices: int, moves: int) -> None:
        rng = random.Random(choices)
        for _ in range(moves):
            self.bot_turn(rng)

    # --- moves that may or may not be legal -----------------------------------------------
    @rule(seat=st.integers(0, 7), move=random_moves())
    def random_proposal(self, seat: int, move: dict[str, Any]) -> None:
        if self.propose(seat % self.seats, move).accepted:
            event(f"a random {move['type']} was accepted")

    @rule(data=st.data())
    def amount_in_turn(self, data: st.DataObject) -> None:
        """The seat in turn bets or buys some amount near the limits, or far from them."""
        view = self.adjudicator
        seat = next_to_act(view)
        hand = self.judged_hand(seat, view)
        near = [
            self.options["min_bet"],
            self.options["max_bet"],
            hand["stake"],
            2 * hand["stake"],
            *hand["paid"][-1:],
        ]
        base = data.draw(st.sampled_from(near))
        amount = (
            base + data.draw(st.integers(-2, 2))
            if data.draw(st.booleans())
            else data.draw(st.integers(-5, 500))
        )
        kind = "bet" if view["phase"] == "bet" else data.draw(st.sampled_from(["buy", "bet"]))
        self.propose(seat, {"type": kind, "amount": amount})

    @rule(
        offset=st.integers(1, 7),
        kind=st.sampled_from(["bet", "buy", "twist", "stick", "split", "burn"]),
    )
    def out_of_turn(self, offset: int, kind: str) -> None:
        view = self.adjudicator
        seat = (next_to_act(view) + offset) % self.seats
        if seat == next_to_act(view):
            return
        move: dict[str, Any] = {"type": kind}
        if kind in ("bet", "buy"):
            move["amount"] = self.options["min_bet"]
        verdict = self.propose(seat, move)
        assert not verdict.accepted, f"seat {seat} played {move} out of turn"
        if not view["hand_over"]:
            assert "GEN-7" in verdict.rule_ids(), verdict

    @rule(to=st.integers(0, 7), price=st.integers(0, 300), accept=st.booleans())
    def sell_the_bank(self, to: int, price: int, accept: bool) -> None:
        """PO-9 between hands: the banker offers, the other seat may accept."""
        view = self.adjudicator
        to %= self.seats
        offered = self.propose(view["banker"], {"type": "offer_bank", "to": to, "price": price})
        if offered.accepted:
            assert view["hand_over"] and to != view["banker"]
            if accept:
                assert self.propose(to, {"type": "accept_bank"}).accepted
                assert self.adjudicator["banker"] == to
                event("the bank was sold")
        else:  # PO-9: not a bank that a player's pontoon has won (PO-8)
            won = view["last_hand"].get("next_banker") is not None
            assert not view["hand_over"] or to == view["banker"] or won, offered

    # --- invariants -----------------------------------------------------------------------
    @invariant()
    def chips_are_conserved(self) -> None:
        view = self.adjudicator
        assert (
            sum(view["balances"].values()) + view["on_table"] + (view.get("kitty") or 0)
            == self.chips
        )
        assert view["on_table"] >= 0
        if view["hand_over"]:
            assert view["on_table"] == 0, "a finished hand left stakes on the table"

    @invariant()
    def cards_are_conserved(self) -> None:
        state = self.table.state
        everywhere = [c for hands in state.hands for h in hands for c in h.cards]
        everywhere += state.pack  # bust and burnt cards are under the pack at once (PO-5)
        assert Counter(codes(everywhere)) == ONE_PACK
        assert self.adjudicator["stock_size"] == len(state.pack)

    @invariant()
    def one_seat_acts(self) -> None:
        view = self.adjudicator
        assert 0 <= next_to_act(view) < self.seats
        if not view["hand_over"]:
            assert view["to_act"] is not None

    @invariant()
    def seats_see_face_up_cards_only(self) -> None:
        """GEN-3, PO-3: a card is seen by others only face up; its holder sees it, but for the
        banker's first card before the banker's turn."""
        state = self.table.state
        in_play = state.phase in ("bet", "play")
        for viewer in [*range(self.seats), None]:
            view = self.table.view(viewer)
            for seat, hands in enumerate(state.hands):
                for hand, shown in zip(hands, view["hands"][str(seat)]):
                    for place, (card, up) in enumerate(zip(hand.cards, hand.face_up)):
                        hidden_first = seat == state.banker and place == 0 and in_play
                        sees = up or (viewer == seat and not hidden_first)
                        assert shown["cards"][place] == (str(card) if sees else HIDDEN), (
                            viewer,
                            seat,
                            place,
                            shown,
                            state.phase,
                        )


# No shrinking: a failure prints its steps (and the example database replays it). 40 tables
# in make test, 120 in make soak.
PontoonTable.TestCase.settings = settings(
    max_examples=40 * SOAK_SCALE,
    stateful_step_count=30,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestPontoonTable = pytest.mark.slow(PontoonTable.TestCase)


# --- options (PO-10) are validated when the table is created ---------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {"stick_min": 14},
        {"stick_min": 17},
        {"split": "any_pair"},
        {"fifth_card_buy": "never"},
        {"burn_hard_13": "yes"},
        {"split_pontoon_double": 1},
        {"min_bet": 0},
        {"max_bet": -5},
        {"min_bet": "five"},
        {"kitty": 100},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as caught:
        Table.create(GAME, TableSetup(game="pontoon", seats=3, seed=1, options=options))
    assert f"`{next(iter(options))}`" in caught.value.message


def test_a_minimum_bet_over_the_maximum_is_refused() -> None:
    """PO-3, PO-10: with `min_bet` over `max_bet` no bet could ever be accepted, and the table
    would wait forever for its first move: refused like any other bad option."""
    with pytest.raises(OptionError):
        Table.create(
            GAME,
            TableSetup(game="pontoon", seats=3, seed=1, options={"min_bet": 50, "max_bet": 10}),
        )


@pytest.mark.parametrize(
    "options",
    [
        {
            "stick_min": 16,
            "split": "aces_only",
            "fifth_card_buy": "twist_only_if_hard_11_or_less",
            "burn_hard_13": True,
            "split_pontoon_double": False,
            "min_bet": 10,
            "max_bet": 10,
        },
        {"stick_min": 15.0},  # over gRPC numbers arrive as floats: an integral one is an integer
    ],
)
def test_good_options_are_taken(options: dict[str, Any]) -> None:
    table = Table.create(GAME, TableSetup(game="pontoon", seats=3, seed=1, options=options))
    assert table.state.options == {**GAME.resolve_options({}), **options}
