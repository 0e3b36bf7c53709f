"""A stateful property test of a Pontinho match (STYLE.md 12): random legal moves (the bot's
candidates) and random illegal ones, whole matches played hand after hand, with the table's
invariants checked after every step.

Invariants: within each hand the two packs' 104 cards are conserved (hands, stock, discard pile,
melds); chips are conserved (balances plus the pot never change in sum, GEN-6) and move only by
`transfer` events; while a hand is in play exactly one seat is to act, and it always has a legal
move (no dead end), between hands somebody is deciding (PN-29), once the match is over nobody acts
and there is one winner (PN-27); a seat out of the match takes no part in a hand (PN-26); a rejected
move changes nothing and an accepted one adds one to the version (GEN-4); no seat ever sees
another seat's hand or the stock while a hand is in play, and the finished hand (`last_hand`) is
public and matches its commitment (GEN-3, GEN-5); scores change only when a hand is scored (up, by
its points) or by a re-entry (the seat, and only it, comes back at the highest score still in,
under 100: PN-28); after the match every move is rejected with GEN-8 `hand_over`.
Some runs start near 100 (`scores`) so that matches end fast; some play for stakes, from random
balances."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from referee.cards import codes, french_pack
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move, Verdict
from referee_bots.rummy_bot import turn_candidates
from tests.support.games import shipped_games
from tests.support.soak import SOAK_SCALE

GAME = shipped_games()["pontinho"]
TWO_PACKS = Counter(codes(french_pack(2)))
ALL_CODES = sorted(TWO_PACKS)
RANKS = "A23456789TJQK"
BLOW_AT = 100  # PN-26
MAX_CANDIDATES = 2000  # bot proposals tried for one turn (it always ends with discards)
HAND_MOVES = ("take", "play")

BAD_CODES = ["ZZ", "1H", "7X", "", "10", "T1", "MT", "7HH", "H7", 7, 7.5, [], {}, None, True]
UNKNOWN_TYPES = ["bet", "", "DRAW", "stand", "draw ", "re-enter", None, 3]


def extensions(meld: dict[str, Any]) -> set[str]:
    """Natural cards that may extend a meld of the view: the other pack's copy of a trio's
    suit, or the next card at a natural end of a sequence (a guess; the referee judges)."""
    cards, wild = meld["cards"], set(meld["wild"])
    natural = [c for i, c in enumerate(cards) if i not in wild]
    if meld["kind"] == "trio":
        return set(natural)
    found = set()
    for place, step in ((0, -1), (len(cards) - 1, 1)):
        if place in wild:
            continue
        end = cards[place]
        value = RANKS.index(end[0]) + step
        if end[0] == "A" and place > 0:  # a high ace ends the sequence
            continue
        if 0 <= value < len(RANKS) or value == len(RANKS):
            found.add(RANKS[value % len(RANKS)] + end[1])
    return found


@st.composite
def malformed_moves(draw: st.DrawFn) -> dict[str, Any]:
    """Moves that cannot be read: unknown types, bad card codes, fields of the wrong shape."""
    good = draw(st.sampled_from(ALL_CODES))
    bad = draw(st.sampled_from(BAD_CODES))
    return draw(
        st.sampled_from(
            [
                {"type": draw(st.sampled_from(UNKNOWN_TYPES))},
                {"type": draw(st.sampled_from(UNKNOWN_TYPES)), "cards": [good]},
                {"type": "discard", "card": bad},
                {"type": "meld", "cards": [good, bad]},
                {"type": "meld", "cards": good},
                {"type": "layoff", "meld": 1, "cards": [bad]},
                {
                    "type": "layoff",
                    "meld": draw(st.sampled_from(["1", 1.5, None, [1]])),
                    "cards": [good],
                },
                {"type": "layoff", "meld": 1, "cards": [good], "at": "middle"},
                {"type": "take_discard", "meld": [good, bad]},
                {"type": "go_out", "melds": [[good, bad]]},
                {"type": "go_out", "steals": [{"meld": 1}]},
                {"type": "go_out", "take": "stock"},
                {"type": "swap_joker", "meld": 1, "card": bad, "new_meld": [good]},
                {"type": "swap_joker", "meld": 1, "card": good},
                {"type": "draw", "card": good},
                {"type": "reenter", "score": 0},
                {"type": "discard", "card": good, "extra": 1},
            ]
        )
    )


@st.composite
def match_setups(draw: st.DrawFn) -> dict[str, Any]:
    """Seats, options, and starting scores and balances: some near 100, some with stakes."""
    seats = draw(st.integers(3, 5))
    options = {
        "joker_rule": draw(st.sampled_from(["same_rank_other_colour", "next_rank_same_suit"])),
        "deal_packets": draw(st.sampled_from(["singles", "threes"])),
        "go_out_discard": draw(st.sampled_from(["optional", "forbidden", "required"])),
        "joker_recovery": draw(st.sampled_from(["steal_to_go_out", "substitute"])),
        "reentry": draw(st.sampled_from(["once", "paid", "none"])),
        "ace_one_at_98": draw(st.booleans()),
        "stakes": draw(st.sampled_from([0, 0, 1, 10, 25, 100])),
    }
    # some runs start near 100 (matches end fast), some with a few seats near it (blown seats
    # while the match goes on), some anywhere under 100, some from 0
    scores = draw(
        st.one_of(
            st.lists(st.integers(80, 99), min_size=seats, max_size=seats),
            st.lists(
                st.one_of(st.integers(88, 99), st.integers(0, 50)), min_size=seats, max_size=seats
            ),
            st.lists(st.integers(0, 99), min_size=seats, max_size=seats),
            st.none(),
        )
    )
    balances = draw(
        st.one_of(st.none(), st.lists(st.integers(-500, 5000), min_size=seats, max_size=seats))
    )
    return {
        "seats": seats,
        "options": options,
        "scores": None if scores is None else dict(enumerate(scores)),
        "balances": None if balances is None else dict(enumerate(balances)),
    }


class PontinhoMatch(RuleBasedStateMachine):
    table: Table

    @initialize(setup=match_setups(), seed=st.integers(0, 2**32), dealer=st.integers(0, 4))
    def deal(self, setup: dict[str, Any], seed: int, dealer: int) -> None:
        self.seats = setup["seats"]
        self.table = Table.create(
            GAME,
            TableSetup(
                game="pontinho",
                seats=self.seats,
                seed=seed,
                dealer=dealer % self.seats,
                options=setup["options"],
                scores=setup["scores"],
                balances=setup["balances"],
            ),
        )
        # GEN-6: what the seats held before the entry stakes is all the chips there are
        self.chips = sum((setup["balances"] or {}).values())
        self.stakes = setup["options"]["stakes"]
        self.options = setup["options"]
        self.hands_seen = {self.table.state.hand_number}
        self.commitments: dict[int, str] = {}
        self.snapshot = self.adjudicator  # the full view after the last accepted move
        self.remember_commitment(self.snapshot)
        self.bot_proposals = 0
        if self.stakes:
            event("stakes")

    # --- proposing, with the per-move properties ------------------------------------------
    def propose(self, seat: int, data: dict[str, Any], full_check: bool = True) -> Verdict:
        """Propose and check the verdict: a rejection changes nothing (compared through the
        full view when `full_check`, else by identity of the state), an acceptance adds one to
        the version and changes scores and chips only as the rules say."""
        before, state = self.snapshot, self.table.state
        version = self.table.version
        was_over = self.table.is_over
        verdict = self.table.propose(seat, Move.from_data(data))
        if was_over and 0 <= seat < self.seats:
            assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", "hand_over")], (
                f"after the match, {data} of seat {seat}: {verdict}"
            )
        if not verdict.accepted:
            assert self.table.state is state
            if full_check:
                assert self.adjudicator == before, f"a rejected {data} changed the table"
            assert self.table.version == verdict.version == version
            assert verdict.violations and not verdict.events
            for violation in verdict.violations:
                assert isinstance(violation.rule, str) and violation.rule.strip(), verdict
                assert isinstance(violation.message, str) and violation.message.strip(), verdict
            return verdict
        assert self.table.version == verdict.version == version + 1
        assert self.table.history[-1] == (seat, Move.from_data(data))
        self.snapshot = after = self.adjudicator
        self.check_scores(seat, data["type"], verdict, before, after)
        self.check_transfers(verdict, before, after)
        self.hands_seen.add(after["hand_number"])
        self.remember_commitment(after)
        if after["match_over"]:
            event(f"the match ended after {len(self.hands_seen)} hand(s)")
        return verdict

    def remember_commitment(self, view: dict[str, Any]) -> None:
        """GEN-5: each hand's commitment, published when it is dealt, never changes."""
        number = view["hand_number"]
        assert self.commitments.setdefault(number, view["commitment"]) == view["commitment"]

    def check_scores(
        self, seat: int, kind: str, verdict: Verdict, before: dict[str, Any], after: dict[str, Any]
    ) -> None:
        """Scores go up only when a hand is scored, by its points; a re-entry sets the seat
        that re-enters, and only it, to the highest score still in (PN-24, PN-28)."""
        kinds = [e.kind for e in verdict.events]
        old, new = before["scores"], after["scores"]
        if "hand_over" in kinds:
            assert kinds.count("hand_over") == 1 and kind in ("go_out", "discard"), kinds
            scored = next(e for e in verdict.events if e.kind == "hand_over")
            points = scored.data["points"]
            assert all(p >= 0 for p in points.values())
            assert {s: old[s] + points[s] for s in old} == new, (old, points, new)
            event("a hand was scored")
            return
        if kind == "reenter":
            still_in = [old[str(s)] for s in range(self.seats) if s not in before["blown"]]
            assert new[str(seat)] == max(still_in) < BLOW_AT, (old, new, still_in)
            assert new[str(seat)] <= old[str(seat)]
            assert {s: v for s, v in new.items() if s != str(seat)} == {
                s: v for s, v in old.items() if s != str(seat)
            }
            event("a blown seat re-entered")
            return
        assert new == old, f"`{kind}` changed the scores: {old} -> {new}"

    def check_transfers(
        self, verdict: Verdict, before: dict[str, Any], after: dict[str, Any]
    ) -> None:
        """Chips move only by `transfer` events, and by exactly what they say (GEN-6)."""
        moved = Counter[str]()
        for e in verdict.events:
            if e.kind != "transfer":
                continue
            amount = e.data["amount"]
            assert isinstance(amount, int) and amount > 0, e
            moved[str(e.data["from"])] -= amount
            moved[str(e.data["to"])] += amount
            event(f"chips moved: {e.data['reason']}")
        for s in range(self.seats):
            assert after["balances"][str(s)] - before["balances"][str(s)] == moved[str(s)]
        assert after["pot"] - before["pot"] == moved["pot"]

    def reject(self, seat: int, data: dict[str, Any]) -> Verdict:
        verdict = self.propose(seat, data)
        assert not verdict.accepted, f"seat {seat}: {data} was accepted"
        return verdict

    def actor(self) -> int:
        """The seat to act, or the first seat deciding between hands."""
        view = self.snapshot
        return int(view["to_act"] if view["to_act"] is not None else view["deciding"][0])

    def bot_turn(self, rng: random.Random) -> None:
        """The seat to act (or deciding) plays the bot's first accepted candidate; a seat with
        no legal move at all is a dead end of the rules, a failure."""
        seat = self.actor()
        view = self.table.view(seat)
        if self.discard_what_fits(seat, view, rng):
            return
        for move in itertools.islice(turn_candidates(view, rng), MAX_CANDIDATES):
            self.bot_proposals += 1  # a rejected bot proposal: every 16th fully compared
            if self.propose(seat, move, full_check=self.bot_proposals % 16 == 0).accepted:
                if move["type"] == "discard" and self.in_hand():
                    self.out_seats_try_the_discard()
                return
        for move in self.last_card_layoffs(view):  # beyond the bot: lay off the last card
            if self.propose(seat, move).accepted:
                return
        raise AssertionError(
            f"seat {seat} has no legal move: phase {view['phase']}, hand {view['hand']}, "
            f"options {self.options}, melds {[m['cards'] for m in view['melds']]}"
        )

    def discard_what_fits(self, seat: int, view: dict[str, Any], rng: random.Random) -> bool:
        """While some seats are out of the match, now and then discard a card that would
        extend a table meld (the bot never does: it lays such cards off), and let the seats
        out of the match try to go out with it."""
        if view["phase"] != "play" or not view["blown"] or len(view["hand"]) < 2:
            return False
        fits = [c for c in view["hand"] if any(c in extensions(m) for m in view["melds"])]
        if not fits or rng.random() < 0.5:
            return False
        if not self.propose(seat, {"type": "discard", "card": rng.choice(fits)}).accepted:
            return False
        event("a card that fits a meld was discarded")
        self.out_seats_try_the_discard()
        return True

    @staticmethod
    def last_card_layoffs(view: dict[str, Any]) -> list[dict[str, Any]]:
        if len(view["hand"]) != 1:
            return []
        return [
            {"type": "go_out", "layoffs": [{"meld": m["id"], "cards": view["hand"], "at": at}]}
            for m in view["melds"]
            for at in ("low", "high")
        ]

    @property
    def adjudicator(self) -> dict[str, Any]:
        return self.table.view(ADJUDICATOR)

    def hand(self, seat: int) -> list[str]:
        return list(self.adjudicator["hands"][str(seat)])

    def in_hand(self) -> bool:
        """A hand is in play (not between hands, not after the match)."""
        return self.snapshot["phase"] in HAND_MOVES

    # --- legal play (the bot) -------------------------------------------------------------
    # (every rule also runs between hands and after the match: its moves are then rejected)
    @rule(choices=st.integers(0, 2**32))
    def bot_plays_a_move(self, choices: int) -> None:
        if self.table.is_over:
            self.reject(choices % self.seats, {"type": "draw"})
            return
        self.bot_turn(random.Random(choices))

    @rule(choices=st.integers(0, 2**32), moves=st.integers(20, 200))
    def bot_plays_on(self, choices: int, moves: int) -> None:
        rng = random.Random(choices)
        for _ in range(moves):
            if self.table.is_over:
                return
            self.bot_turn(rng)

    # --- moves that may or may not be legal -----------------------------------------------
    def some_seat(self, data: st.DataObject) -> int:
        """The seat to act, or any seat between hands and once the match is over."""
        if self.in_hand():
            return int(self.adjudicator["to_act"])
        return data.draw(st.integers(0, self.seats - 1))

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
        move = {
            "type": "layoff",
            "meld": data.draw(st.integers(0, melds + 1)),
            "cards": data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=2)),
        }
        if data.draw(st.booleans()):
            move["at"] = data.draw(st.sampled_from(["low", "high"]))
        if self.propose(seat, move).accepted:
            event("a random layoff was accepted")

    @rule(data=st.data())
    def random_swap_joker(self, data: st.DataObject) -> None:
        """PN-10 `substitute`: a natural card for a joker on the table, the joker in a new meld."""
        seat = self.some_seat(data)
        view = self.adjudicator
        hand = self.hand(seat) or ALL_CODES
        wild = [m for m in view["melds"] if m["wild"]]
        meld: dict[str, Any] = (
            data.draw(st.sampled_from(wild)) if wild else {"id": 1, "cards": [], "wild": [0]}
        )
        card = data.draw(st.sampled_from(hand))
        joker = (
            meld["cards"][meld["wild"][0]]
            if meld["cards"]
            else data.draw(st.sampled_from(ALL_CODES))
        )
        others = data.draw(st.lists(st.sampled_from(hand), min_size=2, max_size=2))
        new_meld = sorted([joker, *others], key=lambda c: (c[1], RANKS.find(c[0])))
        if data.draw(st.booleans()):
            new_meld = [others[0], joker, others[1]]
        verdict = self.propose(
            seat, {"type": "swap_joker", "meld": meld["id"], "card": card, "new_meld": new_meld}
        )
        if verdict.accepted:
            assert self.options["joker_recovery"] == "substitute"
            event("a joker was swapped")
        elif self.in_hand() and self.options["joker_recovery"] != "substitute":
            assert "PN-10-substitute" in verdict.rule_ids()

    @rule(data=st.data())
    def random_take_discard(self, data: st.DataObject) -> None:
        seat = data.draw(st.integers(0, self.seats - 1))
        hand, top = self.hand(seat) or ALL_CODES, self.adjudicator["discard_top"] or "AS"
        pair = data.draw(st.lists(st.sampled_from(hand), min_size=2, max_size=2))
        if data.draw(st.booleans()):
            self.propose(seat, {"type": "take_discard", "meld": [top, *pair]})
        else:
            self.propose(seat, {"type": "go_out", "take": "discard", "melds": [[top, *pair]]})

    @rule(seat=st.integers(0, 4), kind=st.sampled_from(["reenter", "decline"]))
    def random_decision(self, seat: int, kind: str) -> None:
        """`reenter` / `decline`: accepted only from a seat asked to decide (PN-29)."""
        seat %= self.seats
        view = self.adjudicator
        verdict = self.propose(seat, {"type": kind})
        asked = view["phase"] == "decide" and seat in view["deciding"]
        if not asked:
            assert not verdict.accepted
            if not view["match_over"]:
                assert "PN-29" in verdict.rule_ids(), verdict
        else:  # a seat is asked exactly when its re-entry would be accepted
            assert verdict.accepted, verdict
        if verdict.accepted:
            event(f"a seat chose to {kind}")

    # --- illegal moves ---------------------------------------------------------------------
    def out_seats_try_the_discard(self) -> None:
        """A seat out of the match (PN-26) takes no part in a hand: not even an out-of-turn
        go-out taking the top discard to lay it off on a table meld (PN-19)."""
        view = self.snapshot
        top = view["discard_top"]
        for seat in view["blown"]:
            for meld in view["melds"]:
                for at in ("low", "high"):
                    move = {
                        "type": "go_out",
                        "take": "discard",
                        "layoffs": [{"meld": meld["id"], "cards": [top], "at": at}],
                    }
                    verdict = self.propose(seat, move)
                    assert not verdict.accepted, (
                        f"seat {seat}, out of the match (blown {view['blown']}), went out of a "
                        f"hand it was not dealt into: {move}; events {verdict.events}"
                    )

    @precondition(lambda self: self.in_hand() and bool(self.adjudicator["blown"]))
    @rule()
    def out_of_the_match(self) -> None:
        view = self.adjudicator
        for seat in view["blown"]:
            self.reject(seat, {"type": "draw"})
            self.reject(seat, {"type": "take_discard", "meld": [view["discard_top"]] * 3})
        self.out_seats_try_the_discard()

    @rule(
        offset=st.integers(0, 40),
        move=st.sampled_from([{"type": "draw"}, {"type": "go_out"}, {"type": "reenter"}]),
        below=st.booleans(),
    )
    def no_such_seat(self, offset: int, move: dict[str, Any], below: bool) -> None:
        seat = -1 - offset if below else self.seats + offset
        verdict = self.reject(seat, move)
        assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", "unknown_seat")]

    @rule(
        offset=st.integers(1, 4),
        data=st.data(),
        kind=st.sampled_from(["draw", "discard", "meld", "layoff", "take_discard"]),
    )
    def out_of_turn(self, offset: int, data: st.DataObject, kind: str) -> None:
        """A seat other than the one to act (a seat out of the match included)."""
        view = self.adjudicator
        if self.in_hand():
            seat = (view["to_act"] + 1 + offset % (self.seats - 1)) % self.seats
        else:
            seat = offset % self.seats
        hand = self.hand(seat) or ALL_CODES
        moves: dict[str, dict[str, Any]] = {
            "draw": {"type": "draw"},
            "discard": {"type": "discard", "card": data.draw(st.sampled_from(hand))},
            "meld": {
                "type": "meld",
                "cards": data.draw(st.lists(st.sampled_from(hand), min_size=3, max_size=3)),
            },
            "layoff": {"type": "layoff", "meld": 1, "cards": [data.draw(st.sampled_from(hand))]},
            "take_discard": {
                "type": "take_discard",
                "meld": [view["discard_top"] or "AS", *hand[:2]],
            },
        }
        verdict = self.reject(seat, moves[kind])
        if self.in_hand():
            assert ("PN-19" if kind == "take_discard" else "GEN-7") in verdict.rule_ids()
        elif view["phase"] == "decide":
            assert "PN-29-wait" in verdict.rule_ids(), verdict

    @rule(data=st.data(), kind=st.sampled_from(["discard", "meld", "layoff", "go_out"]))
    def cards_not_held(self, data: st.DataObject, kind: str) -> None:
        seat = self.some_seat(data)
        held = Counter(self.hand(seat))
        absent = data.draw(st.sampled_from([c for c in ALL_CODES if not held[c]]))
        moves: dict[str, dict[str, Any]] = {
            "discard": {"type": "discard", "card": absent},
            "meld": {"type": "meld", "cards": [absent, *self.hand(seat)[:2]]},
            "layoff": {"type": "layoff", "meld": 1, "cards": [absent]},
            "go_out": {"type": "go_out", "melds": [[absent, *self.hand(seat)[:2]]]},
        }
        verdict = self.reject(seat, moves[kind])
        if self.adjudicator["phase"] == "play" and kind in ("discard", "meld"):
            assert ("GEN-8", "card_not_held") in {(v.rule, v.code) for v in verdict.violations}

    @rule(seat=st.integers(0, 4), move=malformed_moves())
    def malformed(self, seat: int, move: dict[str, Any]) -> None:
        verdict = self.reject(seat % self.seats, move)
        if not self.table.is_over:
            assert [(v.rule, v.code) for v in verdict.violations] == [("GEN-8", "malformed_move")]

    @precondition(lambda self: self.adjudicator["phase"] != "play")
    @rule(data=st.data())
    def discard_before_drawing(self, data: st.DataObject) -> None:
        seat = self.some_seat(data)
        card = data.draw(st.sampled_from(self.hand(seat) or ALL_CODES))
        verdict = self.reject(seat, {"type": "discard", "card": card})
        if self.adjudicator["phase"] == "take":
            assert "PN-16-take-first" in verdict.rule_ids()

    @precondition(lambda self: self.table.is_over)
    @rule(seat=st.integers(0, 4), data=st.data())
    def move_after_the_end(self, seat: int, data: st.DataObject) -> None:
        card = data.draw(st.sampled_from(ALL_CODES))
        move: dict[str, Any] = data.draw(
            st.sampled_from(
                [
                    {"type": "draw"},
                    {"type": "discard", "card": card},
                    {"type": "meld", "cards": [card]},
                    {"type": "go_out", "take": "discard"},
                    {"type": "pass"},
                    {"type": "reenter"},
                    {"type": "decline"},
                    {"type": "swap_joker", "meld": 1, "card": card, "new_meld": [card]},
                ]
            )
        )
        self.reject(seat % self.seats, move)
        event("a move after the end was rejected")

    # --- invariants -----------------------------------------------------------------------
    @invariant()
    def cards_are_conserved(self) -> None:
        """Within each hand (and the finished hand, between hands) the 104 cards are all there."""
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
        for seat in view["blown"]:  # a seat out of the hand holds nothing while a hand is on
            if view["phase"] in HAND_MOVES:
                assert view["hands"][str(seat)] == []

    @invariant()
    def chips_are_conserved(self) -> None:
        view = self.adjudicator
        assert sum(view["balances"].values()) + view["pot"] == self.chips
        assert view["pot"] >= 0
        if view["match_over"]:
            assert view["pot"] == 0 or not self.stakes

    @invariant()
    def who_acts(self) -> None:
        """One seat to act in a hand; somebody deciding between hands; nobody after the end."""
        view = self.adjudicator
        legal = {s: self.table.view(s)["legal_moves"] for s in range(self.seats)}
        out = set(view["blown"])
        assert set(view["out"]) <= out
        if view["phase"] in HAND_MOVES:
            assert isinstance(view["to_act"], int) and 0 <= view["to_act"] < self.seats
            assert view["to_act"] not in out and view["deciding"] == []
            assert not view["match_over"] and view["winner"] is None
            assert len(out) <= self.seats - 2, "a hand is played by at least two seats"
            assert all(view["scores"][str(s)] < BLOW_AT for s in range(self.seats) if s not in out)
            assert view["hand_sizes"][str(view["to_act"])] > 0
            assert legal[view["to_act"]], "the seat to act has no move"
            for seat, moves in legal.items():
                if seat != view["to_act"]:
                    assert set(moves) <= {"go_out"}, (seat, moves)
                if seat in out:
                    assert moves == []
            return
        assert view["to_act"] is None and view["hand_over"]
        if view["phase"] == "decide":
            assert view["deciding"], "between hands, somebody must be deciding"
            assert set(view["deciding"]) <= out - set(view["out"])
            assert len(out) <= self.seats - 2 + len(view["deciding"])
            for seat, moves in legal.items():
                assert moves == (["reenter", "decline"] if seat in view["deciding"] else [])
            return
        assert view["phase"] == "over" and view["match_over"]
        assert view["deciding"] == []
        assert isinstance(view["winner"], int) and view["winner"] not in out
        assert out == set(range(self.seats)) - {view["winner"]}
        assert all(moves == [] for moves in legal.values())

    @invariant()
    def each_seat_sees_only_its_own_hand(self) -> None:
        view = self.adjudicator
        in_hand = view["phase"] in HAND_MOVES
        last = view["last_hand"]
        for seat in [*range(self.seats), None]:
            mine = self.table.view(seat)
            assert "stock" not in mine and "salt" not in mine and "deck" not in mine
            assert mine["last_hand"] == last  # the finished hand is public
            assert mine["hand_sizes"] == {s: len(h) for s, h in view["hands"].items()}
            if seat is None:
                assert "hand" not in mine
            else:
                assert mine["hand"] == view["hands"][str(seat)]
            if in_hand:
                assert "hands" not in mine, f"seat {seat} sees every hand during a hand"
            else:
                assert mine["hands"] == view["hands"]  # the finished hand, revealed
        if last:  # GEN-5: the revealed deck is the one committed to when it was dealt
            text = last["salt"] + ":" + ",".join(last["deck"])
            assert hashlib.sha256(text.encode()).hexdigest() == last["commitment"]
            assert self.commitments[last["hand_number"]] == last["commitment"]
            assert Counter(last["deck"]) == TWO_PACKS

    @invariant()
    def version_counts_the_accepted_moves(self) -> None:
        assert self.table.version == len(self.table.history)
        assert self.adjudicator["version"] == self.table.version
        assert self.snapshot == self.adjudicator  # nothing changed since the last accepted move


# No shrinking: a match is long, and shrinking one takes minutes; a failure prints its steps
# (and the example database replays it on the next run). `make soak` plays three times as many
# matches (`SOAK_SCALE`) as make test's ten.
PontinhoMatch.TestCase.settings = settings(
    max_examples=10 * SOAK_SCALE,
    stateful_step_count=25,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestPontinhoMatch = pytest.mark.slow(PontinhoMatch.TestCase)
