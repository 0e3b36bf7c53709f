"""A stateful property test of a Pontinho table (STYLE.md 12): random legal moves (the bot's
candidates) and random illegal ones, with the table's invariants checked after every step.

Invariants: the 104 cards are conserved; exactly one seat is to act until the hand is over; a
rejected move changes nothing and an accepted one adds one to the version; every rejection
cites a rule with a message; no seat ever sees another seat's hand or the stock (GEN-3, GEN-4)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule)

from referee.cards import codes, french_pack
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move, Verdict
from referee.spec.registry import load_games
from referee_client.rummy_bot import turn_candidates

GAME = load_games()["pontinho"]
TWO_PACKS = Counter(codes(french_pack(2)))
ALL_CODES = sorted(TWO_PACKS)
RANKS = "A23456789TJQK"
MAX_CANDIDATES = 2000  # bot proposals tried for one turn (it always ends with discards)

BAD_CODES = ["ZZ", "1H", "7X", "", "10", "T1", "MT", "7HH", "H7", 7, 7.5, [], {}, None, True]
UNKNOWN_TYPES = ["pass", "", "DRAW", "bet", "stand", "draw ", None, 3]


@st.composite
def malformed_moves(draw: st.DrawFn) -> dict[str, Any]:
    """Moves that cannot be read: unknown types, bad card codes, fields of the wrong shape."""
    good = draw(st.sampled_from(ALL_CODES))
    bad = draw(st.sampled_from(BAD_CODES))
    return draw(st.sampled_from([
        {"type": draw(st.sampled_from(UNKNOWN_TYPES))},
        {"type": draw(st.sampled_from(UNKNOWN_TYPES)), "cards": [good]},
        {"type": "discard", "card": bad},
        {"type": "meld", "cards": [good, bad]},
        {"type": "meld", "cards": good},
        {"type": "layoff", "meld": 1, "cards": [bad]},
        {"type": "layoff", "meld": draw(st.sampled_from(["1", 1.5, None, [1]])), "cards": [good]},
        {"type": "layoff", "meld": 1, "cards": [good], "at": "middle"},
        {"type": "take_discard", "meld": [good, bad]},
        {"type": "go_out", "melds": [[good, bad]]},
        {"type": "go_out", "steals": [{"meld": 1}]},
        {"type": "go_out", "take": "stock"},
        {"type": "draw", "card": good},
        {"type": "discard", "card": good, "extra": 1},
    ]))


class PontinhoTable(RuleBasedStateMachine):
    table: Table

    @initialize(seats=st.integers(3, 5), seed=st.integers(0, 2**32), dealer=st.integers(0, 4),
                joker_rule=st.sampled_from(["same_rank_other_colour", "next_rank_same_suit"]),
                packets=st.sampled_from(["singles", "threes"]),
                go_out_discard=st.sampled_from(["optional", "forbidden", "required"]))
    def deal(self, seats: int, seed: int, dealer: int, joker_rule: str, packets: str,
             go_out_discard: str) -> None:
        options = {"joker_rule": joker_rule, "deal_packets": packets,
                   "go_out_discard": go_out_discard}
        self.table = Table.create(GAME, TableSetup(game="pontinho", seats=seats, seed=seed,
                                                   dealer=dealer % seats, options=options))
        self.seats = seats

    # --- proposing, with the per-move properties ------------------------------------------
    def propose(self, seat: int, data: dict[str, Any]) -> Verdict:
        before = self.table.view(ADJUDICATOR)
        version = self.table.version
        was_over = self.table.is_over
        verdict = self.table.propose(seat, Move.from_data(data))
        if was_over and 0 <= seat < self.seats:
            assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", "hand_over")]
        if self.table.is_over and verdict.accepted:
            event("the hand went out")
        if verdict.accepted:
            assert self.table.version == verdict.version == version + 1
            assert self.table.history[-1] == (seat, Move.from_data(data))
            return verdict
        assert self.table.view(ADJUDICATOR) == before, f"a rejected {data} changed the table"
        assert self.table.version == verdict.version == version
        assert verdict.violations and not verdict.events
        for violation in verdict.violations:
            assert isinstance(violation.rule, str) and violation.rule.strip(), verdict
            assert isinstance(violation.message, str) and violation.message.strip(), verdict
        return verdict

    def reject(self, seat: int, data: dict[str, Any]) -> Verdict:
        verdict = self.propose(seat, data)
        assert not verdict.accepted, f"seat {seat}: {data} was accepted"
        return verdict

    def bot_turn(self, rng: random.Random) -> bool:
        seat = self.adjudicator["to_act"]
        for move in itertools.islice(turn_candidates(self.table.view(seat), rng), MAX_CANDIDATES):
            if self.propose(seat, move).accepted:
                return True
        return False

    @property
    def adjudicator(self) -> dict[str, Any]:
        return self.table.view(ADJUDICATOR)

    def hand(self, seat: int) -> list[str]:
        return list(self.adjudicator["hands"][str(seat)])

    @property
    def to_act(self) -> int:
        return int(self.adjudicator["to_act"])

    def playing(self) -> bool:
        return not self.table.is_over

    # --- legal play (the bot) -------------------------------------------------------------
    # (every rule also runs after the end of the hand: its moves are then rejected, GEN-8)
    @rule(choices=st.integers(0, 2**32))
    def bot_plays_a_move(self, choices: int) -> None:
        if not self.playing():
            self.reject(choices % self.seats, {"type": "draw"})
            return
        self.bot_turn(random.Random(choices))

    @rule(choices=st.integers(0, 2**32), moves=st.integers(20, 400))
    def bot_plays_on(self, choices: int, moves: int) -> None:
        rng = random.Random(choices)
        for _ in range(moves):
            if self.table.is_over or not self.bot_turn(rng):
                return

    # --- moves that may or may not be legal -----------------------------------------------
    def some_seat(self, data: st.DataObject) -> int:
        """The seat to act, or any seat once the hand is over."""
        return self.to_act if self.playing() else data.draw(st.integers(0, self.seats - 1))

    @rule(data=st.data())
    def random_meld(self, data: st.DataObject) -> None:
        seat = self.some_seat(data)
        hand = self.hand(seat) or ALL_CODES
        if data.draw(st.booleans()):  # cards of one suit or of one rank: nearer to a meld
            key = data.draw(st.sampled_from([0, 1]))
            pick = data.draw(st.sampled_from(hand))
            hand = sorted((c for c in hand if c[key] == pick[key]), key=lambda c: RANKS.find(c[0]))
        picked = data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=5))
        if self.propose(seat, {"type": "meld", "cards": picked}).accepted:
            event("a random meld was accepted")

    @rule(data=st.data())
    def random_layoff(self, data: st.DataObject) -> None:
        seat = self.some_seat(data)
        hand = self.hand(seat) or ALL_CODES
        melds = len(self.adjudicator["melds"])
        move = {"type": "layoff", "meld": data.draw(st.integers(0, melds + 1)),
                "cards": data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=2))}
        if data.draw(st.booleans()):
            move["at"] = data.draw(st.sampled_from(["low", "high"]))
        if self.propose(seat, move).accepted:
            event("a random layoff was accepted")

    @rule(data=st.data())
    def random_take_discard(self, data: st.DataObject) -> None:
        seat = data.draw(st.integers(0, self.seats - 1))
        hand, top = self.hand(seat) or ALL_CODES, self.adjudicator["discard_top"]
        pair = data.draw(st.lists(st.sampled_from(hand), min_size=2, max_size=2))
        if data.draw(st.booleans()):
            self.propose(seat, {"type": "take_discard", "meld": [top, *pair]})
        else:
            self.propose(seat, {"type": "go_out", "take": "discard", "melds": [[top, *pair]]})

    # --- illegal moves ---------------------------------------------------------------------
    @rule(offset=st.integers(0, 40), move=st.sampled_from([{"type": "draw"}, {"type": "go_out"}]),
          below=st.booleans())
    def no_such_seat(self, offset: int, move: dict[str, Any], below: bool) -> None:
        seat = -1 - offset if below else self.seats + offset
        verdict = self.reject(seat, move)
        assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", "unknown_seat")]

    @rule(offset=st.integers(1, 4), data=st.data(),
          kind=st.sampled_from(["draw", "discard", "meld", "layoff", "take_discard"]))
    def out_of_turn(self, offset: int, data: st.DataObject, kind: str) -> None:
        if self.playing():
            seat = (self.to_act + 1 + offset % (self.seats - 1)) % self.seats
        else:
            seat = offset % self.seats
        hand = self.hand(seat) or ALL_CODES
        moves = {
            "draw": {"type": "draw"},
            "discard": {"type": "discard", "card": data.draw(st.sampled_from(hand))},
            "meld": {"type": "meld",
                     "cards": data.draw(st.lists(st.sampled_from(hand), min_size=3, max_size=3))},
            "layoff": {"type": "layoff", "meld": 1, "cards": [data.draw(st.sampled_from(hand))]},
            "take_discard": {"type": "take_discard",
                             "meld": [self.adjudicator["discard_top"], *hand[:2]]},
        }
        verdict = self.reject(seat, moves[kind])
        if self.playing():
            assert ("PN-19" if kind == "take_discard" else "GEN-7") in verdict.rule_ids()

    @rule(data=st.data(), kind=st.sampled_from(["discard", "meld", "layoff", "go_out"]))
    def cards_not_held(self, data: st.DataObject, kind: str) -> None:
        seat = self.some_seat(data)
        held = Counter(self.hand(seat))
        absent = data.draw(st.sampled_from([c for c in ALL_CODES if not held[c]]))
        moves = {
            "discard": {"type": "discard", "card": absent},
            "meld": {"type": "meld", "cards": [absent, *self.hand(seat)[:2]]},
            "layoff": {"type": "layoff", "meld": 1, "cards": [absent]},
            "go_out": {"type": "go_out", "melds": [[absent, *self.hand(seat)[:2]]]},
        }
        verdict = self.reject(seat, moves[kind])
        if self.playing() and self.adjudicator["phase"] == "play" and kind in ("discard", "meld"):
            assert ("GEN-8", "card_not_held") in {(v.rule, v.code) for v in verdict.violations}

    @rule(seat=st.integers(0, 4), move=malformed_moves())
    def malformed(self, seat: int, move: dict[str, Any]) -> None:
        verdict = self.reject(seat % self.seats, move)
        if self.playing():
            assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", "malformed_move")]

    @precondition(lambda self: not self.playing() or self.adjudicator["phase"] == "take")
    @rule(data=st.data())
    def discard_before_drawing(self, data: st.DataObject) -> None:
        seat = self.some_seat(data)
        card = data.draw(st.sampled_from(self.hand(seat) or ALL_CODES))
        verdict = self.reject(seat, {"type": "discard", "card": card})
        if self.playing():
            assert "PN-16-take-first" in verdict.rule_ids()

    @precondition(lambda self: not self.playing())
    @rule(seat=st.integers(0, 4), data=st.data())
    def move_after_the_end(self, seat: int, data: st.DataObject) -> None:
        card = data.draw(st.sampled_from(ALL_CODES))
        move = data.draw(st.sampled_from([
            {"type": "draw"}, {"type": "discard", "card": card}, {"type": "meld", "cards": [card]},
            {"type": "go_out", "take": "discard"}, {"type": "pass"}]))
        self.reject(seat % self.seats, move)
        event("a move after the end was rejected")

    # --- invariants -----------------------------------------------------------------------
    @invariant()
    def cards_are_conserved(self) -> None:
        state = self.table.state
        everywhere = [c for hand in state.hands for c in hand] + state.stock + state.discard
        everywhere += [c for meld in state.melds for c in meld.cards]
        assert Counter(codes(everywhere)) == TWO_PACKS
        view = self.adjudicator
        assert view["hands"] == {str(s): codes(h) for s, h in enumerate(state.hands)}
        assert view["stock"] == codes(reversed(state.stock))
        assert view["stock_size"] == len(state.stock)
        assert view["discard_size"] == len(state.discard)
        assert view["discard_top"] == (str(state.discard[-1]) if state.discard else None)
        assert [m["cards"] for m in view["melds"]] == [codes(m.cards) for m in state.melds]

    @invariant()
    def exactly_one_seat_is_to_act(self) -> None:
        view = self.adjudicator
        legal = {s: self.table.view(s)["legal_moves"] for s in range(self.seats)}
        if view["hand_over"]:
            assert view["to_act"] is None and 0 <= view["went_out"] < self.seats
            assert view["hands"][str(view["went_out"])] == []
            assert all(moves == [] for moves in legal.values())
            return
        assert isinstance(view["to_act"], int) and 0 <= view["to_act"] < self.seats
        assert view["phase"] in ("take", "play")
        assert legal[view["to_act"]], "the seat to act has no move"
        for seat, moves in legal.items():
            if seat != view["to_act"]:
                assert set(moves) <= {"go_out"}, (seat, moves)

    @invariant()
    def each_seat_sees_only_its_own_hand(self) -> None:
        view = self.adjudicator
        over = view["hand_over"]
        for seat in range(self.seats):
            mine = self.table.view(seat)
            assert mine["hand"] == view["hands"][str(seat)]
            assert mine["hand_sizes"] == {s: len(h) for s, h in view["hands"].items()}
            assert "stock" not in mine
            if not over:
                assert "hands" not in mine and "deck" not in mine and "salt" not in mine
        spectator = self.table.view(None)
        assert "hand" not in spectator and "stock" not in spectator
        assert ("hands" in spectator) is over

    @invariant()
    def version_counts_the_accepted_moves(self) -> None:
        assert self.table.version == len(self.table.history)
        assert self.adjudicator["version"] == self.table.version


PontinhoTable.TestCase.settings = settings(
    max_examples=40, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestPontinhoTable = PontinhoTable.TestCase
