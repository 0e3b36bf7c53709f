"""The trick-taking mechanic against independent statements of the rules.

Piedicavallo Tarocchi: a stateful property test (STYLE.md 12) plays random deals, with random
options and dealers, proposing legal and illegal moves. After every proposal: the referee accepts
exactly what RULES.md TA-6 / TA-7 / TA-8 allow, written in plain Python (tests/oracles/tarocchi.py,
not through the spec); a rejected proposal changes nothing (GEN-4); the 62 cards are all
somewhere; the trick goes to the card TA-9 names; at the end of each deal the count is TA-4 /
TA-10 / TA-11's and the two teams' points add up to 114; no seat's view shows a card of another
seat's hand (GEN-3).

Whist (docs/example-specs/whist.yaml, an example spec): the same mechanic runs another
trick-taking game from its spec alone (its rules in plain Python: tests/oracles/whist.py).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from referee.cards import Card, codes
from referee.engine.table import Table, TableSetup
from referee.errors import OptionError, SetupError
from referee.model import ADJUDICATOR, Move, Outcome, Verdict
from referee.plugins.games import load_game
from tests.oracles import whist
from tests.oracles.tarocchi import card, count, is_trump, may_discard, may_play, trick_winner
from tests.support import examples
from tests.support.games import shipped_games

TAROCCHI = shipped_games()["tarocchi_piedicavallo"]
WHIST = load_game(examples.WHIST)
PACK = Counter(codes(TAROCCHI.spec.pack()))


# --- the stateful test ----------------------------------------------------------------------
class TarocchiDeal(RuleBasedStateMachine):
    @initialize(
        seed=st.integers(0, 2**31),
        dealer=st.integers(0, 3),
        top_trump=st.sampled_from(["21", "angel_20"]),
        packets=st.sampled_from([1, 3, 5, 15]),
        deals=st.integers(1, 2),
    )
    def deal(self, seed: int, dealer: int, top_trump: str, packets: int, deals: int) -> None:
        options = {"top_trump": top_trump, "packets": packets, "deals_per_game": deals}
        self.table = Table.create(
            TAROCCHI,
            TableSetup(game=TAROCCHI.name, seats=4, dealer=dealer, seed=seed, options=options),
        )
        self.top_trump = top_trump
        self.rng = random.Random(seed)
        self.plays: list[tuple[list[tuple[int, Card]], int]] = []
        self.trick: list[tuple[int, Card]] = []

    def full(self) -> dict[str, Any]:
        return self.table.view(ADJUDICATOR)

    def propose(self, seat: int, data: dict[str, Any]) -> Verdict:
        before = self.full()
        verdict = self.table.propose(seat, Move.from_data(data))
        if verdict.outcome is Outcome.REJECTED:
            assert self.full() == before, "a rejected move changed the table (GEN-4)"
            assert verdict.violations and all(v.rule for v in verdict.violations)
        else:
            self.follow(seat, data, before, verdict)
        return verdict

    def follow(
        self, seat: int, data: dict[str, Any], before: dict[str, Any], verdict: Verdict
    ) -> None:
        """Check an accepted move's effects against the rules in plain Python."""
        kinds = [e.kind for e in verdict.events]
        if data["type"] == "discard":
            cards = [card(c) for c in data["cards"]]
            discarded = next(e for e in verdict.events if e.kind == "discarded")
            assert discarded.data["trumps"] == sum(1 for c in cards if is_trump(c))
            assert "cards" not in discarded.seen_by((seat + 1) % 4)  # face down (TA-5)
            self.discard, self.dealer = cards, seat
            return
        self.trick.append((seat, card(data["card"])))
        if "trick_won" in kinds:
            won = next(e for e in verdict.events if e.kind == "trick_won")
            cards = [c for _, c in self.trick]
            assert won.data["seat"] == self.trick[trick_winner(cards, self.top_trump)][0]
            self.plays.append((self.trick, won.data["seat"]))
            self.trick = []
        if "deal_over" in kinds:
            over = next(e for e in verdict.events if e.kind == "deal_over")
            expected = count(self.plays, self.discard, self.dealer)
            assert over.data["points"] == {"0": expected[0], "1": expected[1]}
            assert sum(expected) == 114
            self.plays = []

    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        """The seat to act proposes its cards in a random order; the referee must accept the
        first one the rules allow, and only that one."""
        full = self.full()
        if full["match_over"]:
            return
        seat = full["to_act"]
        hand = [card(c) for c in full["hands"][str(seat)]]
        trick = [card(p["card"]) for p in full["trick"]]
        if full["phase"] == "discard":
            pairs = [[a, b] for i, a in enumerate(hand) for b in hand[i + 1 :]]
            self.rng.shuffle(pairs)
            for pair in pairs[:40] + [p for p in pairs if may_discard(hand, p)][:1]:
                verdict = self.propose(seat, {"type": "discard", "cards": codes(pair)})
                assert (verdict.outcome is Outcome.ACCEPTED) == may_discard(hand, pair), pair
                if verdict.outcome is Outcome.ACCEPTED:
                    return
            raise AssertionError(f"no discard accepted from {codes(hand)}")
        order = list(hand)
        self.rng.shuffle(order)
        for c in order:
            verdict = self.propose(seat, {"type": "play", "card": str(c)})
            assert (verdict.outcome is Outcome.ACCEPTED) == may_play(hand, trick, c), (
                codes(hand),
                codes(trick),
                c,
            )
            if verdict.outcome is Outcome.ACCEPTED:
                return
        raise AssertionError(f"no card accepted from {codes(hand)} on {codes(trick)}")

    @rule(
        seat=st.integers(-1, 4),
        code=st.sampled_from([*PACK, "XX", "T22", "10S", "AH"]),
        kind=st.sampled_from(["play", "discard", "bid"]),
        announce=st.integers(-1, 3),
    )
    def random_move(self, seat: int, code: str, kind: str, announce: int) -> None:
        """Mostly illegal: wrong seat, a card not held, a wrong announcement, unknown moves."""
        data: dict[str, Any] = {"type": kind, "card": code}
        if kind == "discard":
            data = {"type": kind, "cards": [code, "5S"], "trumps": announce}
        full = self.full()
        verdict = self.propose(seat, data)
        if verdict.outcome is not Outcome.REJECTED:
            assert seat == full["to_act"] and kind in ("play", "discard")

    @invariant()
    def every_card_somewhere(self) -> None:
        full = self.full()
        where = [
            *(c for hand in full["hands"].values() for c in hand),
            *full["discard"],
            *(p["card"] for p in full["trick"]),
        ]
        where += [str(c) for plays, _ in self.plays for _, c in plays]
        if not full["match_over"] and not full["hand_over"]:
            assert Counter(where) == PACK

    @invariant()
    def seats_see_only_their_own_hand(self) -> None:
        full = self.full()
        for seat in range(4):
            view = self.table.view(seat)
            assert "hands" not in view and "deck" not in view
            assert view["hand"] == full["hands"][str(seat)]
            if seat != full["dealer"]:
                assert "discard" not in view


TestTarocchiDeal = pytest.mark.slow(TarocchiDeal.TestCase)
TestTarocchiDeal.settings = settings(
    max_examples=20,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_options_are_validated_at_creation() -> None:
    for options in ({"packets": 4}, {"top_trump": "20"}, {"deals_per_game": 0}):
        with pytest.raises(OptionError):
            Table.create(TAROCCHI, TableSetup(game=TAROCCHI.name, seats=4, seed=1, options=options))


# --- whist: another game, the same mechanic ---------------------------------------------------
@pytest.mark.parametrize("trumps", ["H", "none"])
def test_whist_runs_on_the_same_mechanic(trumps: str) -> None:
    table = Table.create(
        WHIST, TableSetup(game="whist", seats=4, seed=5, options={"trumps": trumps})
    )
    rng = random.Random(5)
    won = [0, 0]
    trick: list[tuple[int, Card]] = []
    while not table.is_over:
        full = table.view(ADJUDICATOR)
        seat = full["to_act"]
        hand = [Card.parse(c) for c in full["hands"][str(seat)]]
        led = trick[0][1].suit if trick else None
        for c in rng.sample(hand, len(hand)):
            verdict = table.propose(seat, Move.from_data({"type": "play", "card": str(c)}))
            legal = whist.may_play(hand, led, c)
            assert (verdict.outcome is Outcome.ACCEPTED) == legal
            if legal:
                break
        trick.append((seat, c))
        if len(trick) == 4:
            best = whist.trick_winner([x for _, x in trick], trumps)
            winner = next(e for e in verdict.events if e.kind == "trick_won").data["seat"]
            assert winner == trick[best][0]
            won[winner % 2] += 1
            trick = []
    points = table.view(ADJUDICATOR)["points"]
    assert points == {"0": 4 * won[0], "1": 4 * won[1]} and sum(won) == 13


def test_a_spec_whose_packets_are_empty_is_refused_at_the_deal(tmp_path: Path) -> None:
    text = (examples.WHIST).read_text(encoding="utf-8")
    path = tmp_path / "whist.yaml"
    path.write_text(text.replace("packet: 1", "packet: 0"), encoding="utf-8")
    game = load_game(path)
    with pytest.raises(SetupError, match="at least 1"):
        Table.create(game, TableSetup(game="whist", seats=4, seed=1))
