"""Every name a rummy rule may read, checkpoint by checkpoint, declared once: its type, its
meaning, how a turn computes it, and the facts `referee diff` may assume of it.

The facts tie the names together so that a diff's symbolic situation is one a table can show
(`seat` 7 at a 4-seat table, `in_turn` while `seat != to_act` are not). Each holds in every
context the mechanic builds (`Turn.env` and the places that extend it: `take_env`, the meld
reader's `meld_env`), so a fact can only remove unreachable situations. A fact we are not sure of
is left out rather than guessed: a missing one can only let an unreachable difference through,
and the scenario replay then fails to confirm it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from referee.cards import Card
from referee.engine.moves import move_record_type
from referee.mechanics.context import Check, Context, Env, Fact, Name, Path, facts_of
from referee.mechanics.rummy.state import TURNED, RummyState
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, Scope
from referee.spec.expr.symbolic import (
    BoolLike,
    s_and,
    s_eq,
    s_implies,
    s_member,
    s_not,
    s_occurrences,
    s_or,
)
from referee.spec.option_types import options_type
from referee.spec.schema import GameSpec

TAKE, MELD_MOVE, LAYOFF, TAKE_DISCARD, GO_OUT, DISCARD = (
    "take",
    "meld",
    "layoff",
    "take_discard",
    "go_out",
    "discard",
)


class Judging(Protocol):
    """What the context is computed from: one move being judged (a `Turn`)."""

    s: RummyState
    seat: int
    move_type: str
    hand: list[Card]
    taken: Card | None
    going_out: bool
    stolen: list[Card]
    laid: list[Card]
    laid_wild: list[Card]

    @property
    def blank(self) -> Card:
        """A card name where there is no card (the turned card, or the pack's first)."""


# The optional parts a spec selects (config.py), read raw: the scopes come before the config.
def turns_a_card(spec: GameSpec) -> bool:
    """Does the spec's deal turn a card (`rummy.turned_card`)?"""
    return _rummy_part(spec, "turned_card") is True


def plays_a_match(spec: GameSpec) -> bool:
    """Is the game an elimination match (`rummy.match`), not a single hand?"""
    return _rummy_part(spec, "match") is not None


def opens_claims(spec: GameSpec) -> bool:
    """Can a discard open a claim window (`rummy.claims`)?"""
    return _rummy_part(spec, "claims") is not None


def _rummy_part(spec: GameSpec, key: str) -> Any:
    section = spec.sections.get("rummy")
    return section.get(key) if isinstance(section, dict) else None


# --- the facts ---------------------------------------------------------------------------------


def _seat_of_table(name: str, lowest: int = 0) -> Fact:
    return Fact(
        f"`{name}` is {'-1 or ' if lowest < 0 else ''}a seat of the table",
        ((name,), ("seats",)),
        lambda e, c: s_and(e[name] >= lowest, e[name] < e["seats"]),
    )


def _moves_with(check: Check, env: Env, moves: tuple[str, ...]) -> BoolLike:
    return s_or(*(s_eq(env["move_type"], m) for m in moves if m in check.moves))


def _has_taken(env: Env, check: Check) -> BoolLike:
    """Only `_take` sets `has_taken`; it runs in `take_discard` (before the meld is read)."""
    taken = env["has_taken"]
    if check.role == "move":
        if check.at == "before" or check.checkpoint in (MELD_MOVE, LAYOFF, DISCARD, "draw"):
            return s_not(taken)
        return taken if check.checkpoint == TAKE_DISCARD else True
    if check.role == "take":
        return taken
    return s_and(
        s_implies(_moves_with(check, env, (MELD_MOVE, LAYOFF)), s_not(taken)),
        s_implies(_moves_with(check, env, (TAKE_DISCARD,)), taken),
    )


def _going_out(env: Env, check: Check) -> BoolLike:
    """`Turn.going_out`: a `go_out` move, or a `discard` of the last card held."""
    going = env["going_out"]
    if check.role != "move":  # takes and melds happen in take_discard, meld, layoff, go_out ...
        return s_eq(going, s_eq(env["move_type"], GO_OUT))
    if check.checkpoint == GO_OUT:
        return going
    if check.checkpoint != DISCARD:
        return s_not(going)
    if check.at == "after" or "move" not in env or "card" not in env["move"] or "hand" not in env:
        return True  # after the discard the card has left the hand: not stated
    hand = env["hand"]
    return s_eq(going, s_and(s_eq(hand.size(), 1), s_member(env["move"]["card"], hand)))


# names a fact may read besides its `needs` (the `discard` fact's card and hand)
EXTRA_NEEDS: tuple[Path, ...] = (("move", "card"), ("hand",))


# --- the names ---------------------------------------------------------------------------------


def _claims_closed(t: Judging) -> bool:
    """The top discard's claim window has closed: out of turn it is no longer claimable."""
    s = t.s
    return (
        s.window_count > 0
        and s.closed_windows == s.window_count
        and s.discarder != TURNED
        and s.window is None
    )


OPTIONS: Name[Any] = Name(
    options_type, "the table's options (`options:` of the spec)", lambda t: t.s.options
)
TURNED_CARD: Name[Any] = Name(CARD, "the card turned face up at the deal", present=turns_a_card)

# what every move-judging checkpoint knows about the table and the proposer
COMMON: Context[Judging] = Context(
    {
        "options": OPTIONS,
        "turned": replace(TURNED_CARD, compute=lambda t: t.s.turned),
        "seat": Name(INT, "the proposer's seat", lambda t: t.seat, (_seat_of_table("seat"),)),
        "to_act": Name(
            INT,
            "the seat in turn (-1 between hands)",
            lambda t: -1 if t.s.to_act is None else t.s.to_act,
            (
                _seat_of_table("to_act", TURNED),
                Fact(
                    "`to_act` is -1 exactly between hands (`phase` `decide` or `over`)",
                    (("to_act",), ("phase",)),
                    lambda e, c: s_eq(
                        s_eq(e["to_act"], TURNED),
                        s_or(s_eq(e["phase"], "decide"), s_eq(e["phase"], "over")),
                    ),
                    at=("before",),
                ),
            ),
        ),  # a move that goes out ends the hand: `after`, -1
        "mao": Name(
            INT,
            "the seat after the dealer, who plays first",
            lambda t: t.s.mao,
            (_seat_of_table("mao"),),
        ),
        "seats": Name(
            INT,
            "the number of seats at the table",
            lambda t: t.s.seats,
            (
                Fact(
                    "`seats` is a seat count both sides allow",
                    (("seats",),),
                    lambda e, c: s_and(e["seats"] >= c.seats[0], e["seats"] <= c.seats[1]),
                ),
            ),
        ),
        "in_turn": Name(
            BOOL,
            "the proposer is the seat in turn (`seat == to_act`)",
            lambda t: t.seat == t.s.to_act,
            (
                Fact(
                    "`in_turn` is `seat == to_act`",
                    (("in_turn",), ("seat",), ("to_act",)),
                    lambda e, c: s_eq(e["in_turn"], s_eq(e["seat"], e["to_act"])),
                ),
            ),
        ),
        "phase": Name(
            STR,
            "the step of the hand: `take`, `play`, `decide` (between hands) or `over`",
            lambda t: t.s.phase,
        ),
        "hand": Name(
            ListType(CARD),
            "the proposer's hand (at `take`: before the card taken)",
            lambda t: t.hand,
        ),
        "discard_top": Name(
            CARD,
            "the top card of the discard pile (the turned card's name when empty)",
            lambda t: t.s.discard[-1] if t.s.discard else t.blank,
        ),
        "has_discard": Name(BOOL, "the discard pile is not empty", lambda t: bool(t.s.discard)),
        "top_is_turned": Name(
            BOOL,
            "the turned card is on top of the discard pile (at `take`: the card taken is it)",
            lambda t: t.s.top_is_turned,
            (
                Fact(
                    "`top_is_turned` only when `discarder` is -1",
                    (("top_is_turned",), ("discarder",)),
                    lambda e, c: s_implies(e["top_is_turned"], s_eq(e["discarder"], TURNED)),
                ),
                Fact(
                    "a discard pile whose top nobody discarded has the turned card on top",
                    (("top_is_turned",), ("discarder",), ("has_discard",)),
                    lambda e, c: s_implies(
                        s_and(e["has_discard"], s_eq(e["discarder"], TURNED)), e["top_is_turned"]
                    ),
                ),
                Fact(
                    "`discard_top` is the turned card while that is on top",
                    (("top_is_turned",), ("discard_top",), ("turned",)),
                    lambda e, c: s_implies(e["top_is_turned"], s_eq(e["discard_top"], e["turned"])),
                ),
            ),
            present=turns_a_card,
        ),
        "discarder": Name(
            INT,
            "who discarded the top discard (-1: the turned card; at `take`: who "
            "discarded the card taken)",
            lambda t: t.s.discarder,
            (
                _seat_of_table("discarder", TURNED),
                Fact(
                    "a discard pile whose top has a discarder is not empty",
                    (("discarder",), ("has_discard",)),
                    lambda e, c: s_implies(s_not(s_eq(e["discarder"], TURNED)), e["has_discard"]),
                    roles=("move", "meld"),
                ),
            ),
        ),  # at `take`, the taken card's: the pile may be empty
        "turned_covered": Name(
            BOOL,
            "the hand's first discard has covered the turned card",
            lambda t: t.s.turned_covered,
            present=turns_a_card,
        ),
        "going_out": Name(
            BOOL,
            "the move goes out: a `go_out`, or a `discard` of the last card held",
            lambda t: t.going_out,
            (
                Fact(
                    "`going_out` in a `go_out` move, or a `discard` of the last card held",
                    (("going_out",), ("move_type",)),
                    _going_out,
                    reads_extra=True,
                ),
            ),
        ),
        "move_type": Name(STR, "the type of the move judged", lambda t: t.move_type),
        "has_taken": Name(
            BOOL,
            "the move has taken the top discard",
            lambda t: t.taken is not None,
            (
                Fact(
                    "`taken_card` is the turned card until a card is taken",
                    (("has_taken",), ("taken_card",), ("turned",)),
                    lambda e, c: s_implies(
                        s_not(e["has_taken"]), s_eq(e["taken_card"], e["turned"])
                    ),
                ),
                Fact(
                    "`has_taken` only once the move took the top discard",
                    (("has_taken",), ("move_type",)),
                    _has_taken,
                ),
            ),
        ),
        "taken_card": Name(
            CARD,
            "the card the move took from the discard pile (until one is taken: "
            "the turned card's name)",
            lambda t: t.blank if t.taken is None else t.taken,
            (
                Fact(
                    "at `take`, `taken_card` is `taken`",
                    (("taken_card",), ("taken",)),
                    lambda e, c: s_eq(e["taken_card"], e["taken"]),
                    roles=("take",),
                ),
            ),
        ),
        # the match (`rummy.match` only): the proposer's total, re-entry state, players still in
        "score": Name(
            INT,
            "the proposer's match total",
            lambda t: t.s.scores[t.seat],
            present=plays_a_match,
        ),
        "deciding": Name(
            BOOL,
            "the proposer, blown, is deciding whether to re-enter",
            lambda t: t.seat in t.s.deciding,
            present=plays_a_match,
        ),
        "reentries": Name(
            INT,
            "how often the proposer has re-entered the match",
            lambda t: t.s.reentries[t.seat],
            (Fact("`reentries` is a count", (("reentries",),), lambda e, c: e["reentries"] >= 0),),
            present=plays_a_match,
        ),
        "blows": Name(
            INT,
            "how often the proposer has blown",
            lambda t: t.s.blows[t.seat],
            (Fact("`blows` is a count", (("blows",),), lambda e, c: e["blows"] >= 0),),
            present=plays_a_match,
        ),
        "under": Name(
            INT,
            "how many seats still play the match",
            lambda t: len(t.s.playing),
            (
                Fact(
                    "`under` counts the seats still playing the match (0..seats)",
                    (("under",), ("seats",)),
                    lambda e, c: s_and(e["under"] >= 0, e["under"] <= e["seats"]),
                ),
            ),
            present=plays_a_match,
        ),
        "playing": Name(
            BOOL,
            "the proposer is dealt in: in the match and not blown",
            lambda t: t.seat in t.s.playing,
            present=plays_a_match,
        ),
        "stolen": Name(
            ListType(CARD), "the jokers this move took back from the table", lambda t: t.stolen
        ),
        "laid": Name(
            ListType(CARD), "every card this move laid, in melds and lay-offs", lambda t: t.laid
        ),
        "laid_wild": Name(
            ListType(CARD),
            "the jokers this move laid as jokers (not as themselves)",
            lambda t: t.laid_wild,
        ),
        # claim windows (`rummy.claims` only): one is open on the last discard; the proposer
        # already answered it
        "window_open": Name(
            BOOL,
            "a claim window is open on the last discard",
            lambda t: t.s.window is not None,
            present=opens_claims,
        ),
        "responded": Name(
            BOOL,
            "the proposer has answered the open claim window",
            lambda t: t.s.window is not None and t.s.window.answered(t.seat),
            present=opens_claims,
        ),
        "claims_closed": Name(
            BOOL,
            "the top discard's claim window has closed: out of turn it is no longer claimable",
            _claims_closed,
            present=opens_claims,
        ),
    }
)

# `take`: the card taken from the discard pile and what the move uses it with (`Turn.take_env`)
TAKE_CONTEXT = COMMON | {
    "taken": Name(CARD, "the card taken from the discard pile"),
    "used": Name(ListType(CARD), "the cards the move names to use the taken card in"),
}

# a meld kind's checkpoint: the cards read as one meld (`MeldReader.meld_env`)
MELD_CONTEXT = COMMON | {
    "cards": Name(ListType(CARD), "the cards read as one meld"),
    "place": Name(INT, "where the cards go in the meld (0: as read)"),
    "new": Name(
        BOOL,
        "a new meld (not a lay-off onto one on the table)",
        facts=(
            Fact(
                "a new meld's cards are in the hand (the mechanic checks that before reading it)",
                (("new",), ("cards",), ("hand",)),
                lambda e, c: s_implies(
                    e["new"],
                    s_and(
                        *(
                            s_occurrences(card, e["cards"]) <= s_occurrences(card, e["hand"])
                            for card in e["cards"].items
                        )
                    ),
                ),
                roles=("meld",),
            ),
            Fact(
                "a `meld` move lays new melds, a `layoff` adds to one",
                (("new",), ("move_type",)),
                lambda e, c: s_and(
                    s_implies(_moves_with(c, e, (MELD_MOVE,)), e["new"]),
                    s_implies(_moves_with(c, e, (LAYOFF,)), s_not(e["new"])),
                ),
                roles=("meld",),
            ),
        ),
    ),
    "kind": Name(STR, "the meld kind the cards are read as"),
}

# outside any move (`RummyConfig`): which cards are jokers, and what a hand left at the end scores
TABLE: Context[Any] = Context({"options": OPTIONS, "turned": TURNED_CARD})
CARD_CONTEXT = TABLE | {"c": Name(CARD, "the card asked about: is it a joker?")}
SCORING_CONTEXT = TABLE | {
    "hand": Name(ListType(CARD), "the hand a seat is left with at the end"),
    "score": Name(INT, "the seat's match total before this hand", present=plays_a_match),
}

# every fact, for `referee diff`
FACTS: tuple[Fact, ...] = facts_of([COMMON, TAKE_CONTEXT, MELD_CONTEXT])


def checkpoint_scopes(spec: GameSpec) -> dict[str, Scope]:
    """The scope of every checkpoint of `spec`: each move's, `take`, each meld kind's, `card`
    and `scoring`."""
    scopes = {
        name: COMMON.scope(spec, {"move": move_record_type(move)})
        for name, move in spec.moves.items()
    }
    scopes[TAKE] = TAKE_CONTEXT.scope(spec)
    for kind in spec.sections.get("meld_kinds", {}) or {}:
        scopes[str(kind)] = MELD_CONTEXT.scope(spec)
    scopes["card"] = CARD_CONTEXT.scope(spec)
    scopes["scoring"] = SCORING_CONTEXT.scope(spec)
    return scopes
