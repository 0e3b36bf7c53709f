"""The rummy contexts a `referee diff` situation must be consistent with: one place, named.

A diff asks z3 for a situation (values of a checkpoint's context names) in which one side accepts
and the other rejects. Left free, the names could take values no table ever shows (`seat` 7 at a
4-seat table, `in_turn` while `seat != to_act`), and the difference found would be one no game can
reach. The facts below tie the names together. Each one holds in every context the rummy mechanic
builds (`referee/mechanics/rummy/turn.py`: `Turn.env` and the places that extend it), so a
fact can only remove unreachable situations: it never hides a difference a real table could show.
A fact we are not sure of is left out rather than guessed: a missing one can only let an
unreachable difference through, and the scenario replay then fails to confirm it.

The mechanic should own these facts, next to the code that builds the contexts; until it offers
them, they live here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import InvalidArgument
from referee.mechanics.rummy import RummyMechanic
from referee.spec.expr.symbolic import (
    BoolLike,
    SymList,
    s_and,
    s_eq,
    s_implies,
    s_member,
    s_not,
    s_occurrences,
    s_or,
)
from referee.spec.registry import Game
from referee.spec.schema import FieldSpec

Path = tuple[str, ...]
Env = Mapping[str, Any]

TURNED = -1  # the discarder of the turned card (mechanics/rummy/state.py), and `to_act` between hands
PHASES = ("take", "play", "decide", "over")  # RummyState.phase
TAKE, MELD_MOVE, LAYOFF, TAKE_DISCARD, GO_OUT, DISCARD = (
    "take", "meld", "layoff", "take_discard", "go_out", "discard")


@dataclass(frozen=True)
class Check:
    """One thing a diff compares: the rules judged at `checkpoint`, before or after the move."""

    checkpoint: str
    role: str                 # move (a move type) | take | meld (a meld kind)
    at: str                   # before | after (only moves have `after` rules)
    seats: tuple[int, int]    # the seat counts both sides allow
    moves: tuple[str, ...]    # the move types of both sides
    laying: tuple[str, ...]   # those that name cards to lay (`laying_moves`)

    @property
    def label(self) -> str:
        return self.checkpoint if self.at == "before" else f"{self.checkpoint} (after its effects)"


def mechanic(game: Game) -> RummyMechanic:
    """The game's rummy mechanic: what the facts here are about."""
    if not isinstance(game.mechanic, RummyMechanic):
        raise InvalidArgument(f"game `{game.name}` uses the `{game.spec.mechanics}` mechanics: "
                              f"`referee diff` knows rummy games only")
    return game.mechanic


def role_of(game: Game, checkpoint: str) -> str | None:
    """What a checkpoint judges; None for those outside any move (`card`, `scoring`)."""
    if checkpoint in game.spec.moves:
        return "move"
    if checkpoint == TAKE:
        return "take"
    if checkpoint in (game.spec.sections.get("meld_kinds") or {}):
        return "meld"
    return None


def laying_moves(game: Game) -> list[str]:
    """Move types with a field naming cards to lay (`cards`, `list_of_cards`, or a record or list
    holding one): only those lay melds, lay off, or take the discard (which must be used)."""
    def names_cards(spec: FieldSpec) -> bool:
        return spec.type in ("cards", "list_of_cards") or any(names_cards(f) for f in spec.fields)

    return [name for name, move in game.spec.moves.items() if any(names_cards(f) for f in move.fields)]


def checkpoints(game: Game) -> list[str]:
    """The checkpoints of a game that judge moves, in the game's own order."""
    return [c for c in mechanic(game).rules.programs if role_of(game, c) is not None]


# --- values fixed by the checkpoint, and the strings a name ranges over -------------------------

def fixed(check: Check) -> dict[str, Any]:
    """Names whose value the checkpoint itself decides."""
    if check.role == "meld":
        return {"kind": check.checkpoint, "place": 0}  # rules see `place` 0 (melds.py `meld_env`)
    if check.role == "move":
        return {"move_type": check.checkpoint}
    return {}


def choices(check: Check) -> dict[Path, tuple[str, ...]]:
    """The values a free string name can take."""
    moves = check.moves if check.role == "move" else check.laying
    return {("phase",): PHASES, ("move_type",): moves}


# --- the facts ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fact:
    text: str                                  # how the report states it
    needs: tuple[Path, ...]                    # the names it reads; skipped where one is absent
    holds: Callable[[Env, Check], BoolLike]
    roles: tuple[str, ...] = ("move", "take", "meld")
    at: tuple[str, ...] = ("before", "after")
    reads_extra: bool = False                  # it also reads `EXTRA_NEEDS` where present

    def applies(self, check: Check, names: set[Path]) -> bool:
        return (check.role in self.roles and check.at in self.at
                and all(p in names for p in self.needs))


def _seat_of_table(name: str, lowest: int = 0) -> Fact:
    return Fact(f"`{name}` is {'-1 or ' if lowest < 0 else ''}a seat of the table",
                ((name,), ("seats",)),
                lambda e, c: s_and(e[name] >= lowest, e[name] < e["seats"]))


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
    return s_and(s_implies(_moves_with(check, env, (MELD_MOVE, LAYOFF)), s_not(taken)),
                 s_implies(_moves_with(check, env, (TAKE_DISCARD,)), taken))


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


RUMMY_FACTS: tuple[Fact, ...] = (
    Fact("`seats` is a seat count both sides allow", (("seats",),),
         lambda e, c: s_and(e["seats"] >= c.seats[0], e["seats"] <= c.seats[1])),
    _seat_of_table("seat"),
    _seat_of_table("mao"),
    _seat_of_table("to_act", TURNED),       # -1 between hands
    _seat_of_table("discarder", TURNED),    # -1: the turned card, nobody's discard
    Fact("`to_act` is -1 exactly between hands (`phase` `decide` or `over`)",
         (("to_act",), ("phase",)),
         lambda e, c: s_eq(s_eq(e["to_act"], TURNED),
                           s_or(s_eq(e["phase"], "decide"), s_eq(e["phase"], "over"))),
         at=("before",)),  # a move that goes out ends the hand: its `after` rules see -1
    Fact("`under` counts the seats still playing the match (0..seats)", (("under",), ("seats",)),
         lambda e, c: s_and(e["under"] >= 0, e["under"] <= e["seats"])),
    Fact("`blows` is a count", (("blows",),), lambda e, c: e["blows"] >= 0),
    Fact("`reentries` is a count", (("reentries",),), lambda e, c: e["reentries"] >= 0),
    Fact("`in_turn` is `seat == to_act`", (("in_turn",), ("seat",), ("to_act",)),
         lambda e, c: s_eq(e["in_turn"], s_eq(e["seat"], e["to_act"]))),
    Fact("`top_is_turned` only when `discarder` is -1", (("top_is_turned",), ("discarder",)),
         lambda e, c: s_implies(e["top_is_turned"], s_eq(e["discarder"], TURNED))),
    Fact("a discard pile whose top nobody discarded has the turned card on top",
         (("top_is_turned",), ("discarder",), ("has_discard",)),
         lambda e, c: s_implies(s_and(e["has_discard"], s_eq(e["discarder"], TURNED)),
                                e["top_is_turned"])),
    Fact("a discard pile whose top has a discarder is not empty", (("discarder",), ("has_discard",)),
         lambda e, c: s_implies(s_not(s_eq(e["discarder"], TURNED)), e["has_discard"]),
         roles=("move", "meld")),  # at `take`, `discarder` is the taken card's: the pile may be empty
    Fact("`discard_top` is the turned card while that is on top",
         (("top_is_turned",), ("discard_top",), ("turned",)),
         lambda e, c: s_implies(e["top_is_turned"], s_eq(e["discard_top"], e["turned"]))),
    Fact("`taken_card` is the turned card until a card is taken",
         (("has_taken",), ("taken_card",), ("turned",)),
         lambda e, c: s_implies(s_not(e["has_taken"]), s_eq(e["taken_card"], e["turned"]))),
    Fact("`has_taken` only once the move took the top discard", (("has_taken",), ("move_type",)),
         _has_taken),
    Fact("at `take`, `taken_card` is `taken`", (("taken_card",), ("taken",)),
         lambda e, c: s_eq(e["taken_card"], e["taken"]), roles=("take",)),
    Fact("`going_out` in a `go_out` move, or a `discard` of the last card held",
         (("going_out",), ("move_type",)), _going_out, reads_extra=True),
    Fact("a new meld's cards are in the hand (the mechanic checks that before reading it)",
         (("new",), ("cards",), ("hand",)),
         lambda e, c: s_implies(e["new"], s_and(*(
             s_occurrences(card, e["cards"]) <= s_occurrences(card, e["hand"])
             for card in e["cards"].items))),
         roles=("meld",)),
    Fact("a `meld` move lays new melds, a `layoff` adds to one", (("new",), ("move_type",)),
         lambda e, c: s_and(s_implies(_moves_with(c, e, (MELD_MOVE,)), e["new"]),
                            s_implies(_moves_with(c, e, (LAYOFF,)), s_not(e["new"]))),
         roles=("meld",)),
)

# names a fact may read besides its `needs` (the `discard` fact's card and hand)
EXTRA_NEEDS: tuple[Path, ...] = (("move", "card"), ("hand",))


def facts_for(check: Check, names: set[Path]) -> list[Fact]:
    return [f for f in RUMMY_FACTS if f.applies(check, names)]


def describe() -> list[str]:
    """Every fact, as the report lists them."""
    return [f.text for f in RUMMY_FACTS] + [
        "`phase` is one of " + ", ".join(f"`{p}`" for p in PHASES),
        "`move_type`, where a meld or a take is judged, is a move type that names cards to lay",
        "no card list holds a card more often than the pack (a card list's copies)",
    ]


# --- the context of a scenario ---------------------------------------------------------------

DEALER, MAO = 0, 1  # a scenario's dealer, and the seat after it, who plays first


def first_turn_context(seats: int, turned: Any, hand: Any, going_out: bool) -> dict[str, Any]:
    """The context in which the mão, having drawn from the stock at the first turn of the first
    hand, lays a new meld: in a `meld` move, or as the first meld of a `go_out`. A scenario
    reproduces it exactly (the hand given is the one held when the meld is read)."""
    return {
        "seats": seats, "seat": MAO, "to_act": MAO, "mao": MAO, "in_turn": True, "phase": "play",
        "has_discard": True, "top_is_turned": True, "discarder": TURNED, "discard_top": turned,
        "going_out": going_out, "move_type": GO_OUT if going_out else MELD_MOVE,
        "has_taken": False, "taken_card": turned, "new": True, "place": 0, "hand": hand,
        # the match: nobody has scored, blown or re-entered yet; nothing stolen
        "score": 0, "deciding": False, "reentries": 0, "blows": 0, "under": seats,
        "stolen": SymList.of([]),
    }
