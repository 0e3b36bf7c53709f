"""Every name a trick-taking rule (or `tricks.*` expression) may read, checkpoint by checkpoint,
declared once: its type, its meaning and, for a move's names, how it is computed from the state.
The steps outside any move (`setup`, `trick_end`, `count`, `deal_end`, `match_end`) are given
their names by the mechanic's code that evaluates their expressions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.engine.moves import move_record_type
from referee.mechanics.context import Context, Name
from referee.mechanics.tricks.state import TrickState
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, Scope
from referee.spec.option_types import options_type
from referee.spec.schema import GameSpec


def _states(key: str) -> Callable[[GameSpec], bool]:
    """Is `tricks.<key>` in the spec? (A name only such specs have.)"""

    def present(spec: GameSpec) -> bool:
        section = spec.sections.get("tricks")
        return isinstance(section, dict) and key in section

    return present


TURNED_MEANING = "the card turned at the deal (`tricks.turned`), face up or not"


@dataclass(slots=True)  # not frozen: one is made per environment, and frozen ones start slower
class Seen:
    """What a move's names are computed from: the table and the seat asking."""

    state: TrickState
    seat: int


OPTIONS: Name[Any] = Name(
    options_type, "the table's options (`options:` of the spec)", lambda v: v.state.options
)
SEATS: Name[Any] = Name(INT, "the number of seats at the table", lambda v: v.state.seats)

# what every move's rules read of the table and the proposer
MOVE: Context[Seen] = Context(
    {
        "options": OPTIONS,
        "seat": Name(INT, "the proposer's seat", lambda v: v.seat),
        "seats": SEATS,
        "dealer": Name(INT, "the dealer's seat", lambda v: v.state.dealer),
        "is_dealer": Name(BOOL, "the proposer is the dealer", lambda v: v.seat == v.state.dealer),
        "in_turn": Name(
            BOOL, "the proposer is the seat in turn", lambda v: v.seat == v.state.to_act
        ),
        "phase": Name(
            STR,
            "the step of the deal: `discard` (the dealer's), `play` or `over`",
            lambda v: v.state.phase,
        ),
        "hand": Name(ListType(CARD), "the proposer's hand", lambda v: v.state.hands[v.seat]),
        "trick": Name(
            ListType(CARD),
            "the cards played to the trick so far, in order",
            lambda v: [card for _, card in v.state.trick],
        ),
        "team": Name(INT, "the proposer's team", lambda v: v.state.team_of(v.seat)),
        "tricks_played": Name(
            INT, "how many tricks of the deal are complete", lambda v: len(v.state.tricks)
        ),
        "turned": Name(CARD, TURNED_MEANING, lambda v: v.state.turned, present=_states("turned")),
    }
)

# the card turned at the deal, as the steps outside a move read it
TURNED: Name[Any] = Name(CARD, TURNED_MEANING, present=_states("turned"))

# before a deal: how it is dealt (`tricks.packet`, `tricks.deals`)
SETUP: Context[Any] = Context({"options": OPTIONS, "seats": SEATS})

# a trick complete: who wins it (`tricks.winner`)
TRICK_END: Context[Any] = Context(
    {
        "options": OPTIONS,
        "trick": Name(ListType(CARD), "the trick's cards, in the order played"),
        "leader": Name(INT, "the seat that led the trick"),
        "turned": TURNED,
    }
)

# the count: who owns each card and what it is worth (`tricks.owner`, `tricks.points`)
COUNT: Context[Any] = Context(
    {
        "options": OPTIONS,
        "card": Name(CARD, "the card counted"),
        "taker": Name(INT, "the team whose trick took the card (-1: in the dealer's discard)"),
        "player_team": Name(
            INT, "the team of the seat that played the card (the dealer's for the discard)"
        ),
        "in_discard": Name(BOOL, "the card is in the dealer's discard"),
        "dealer_team": Name(INT, "the dealer's team"),
        "tricks": Name(ListType(INT), "the tricks each team won in the deal"),
        "turned": TURNED,
    }
)

# a deal counted: the game points each team scores for it (`tricks.game_points`)
DEAL_END: Context[Any] = Context(
    {
        "options": OPTIONS,
        "team": Name(INT, "the team whose game points are asked"),
        "points": Name(ListType(INT), "each team's card points for the deal, by team number"),
        "tricks": Name(ListType(INT), "the tricks each team won in the deal"),
        "dealer_team": Name(INT, "the dealer's team"),
        "hand_number": Name(INT, "the deal's number in the game, from 1"),
        "turned": TURNED,
    }
)

# after each deal's count: is the game over (`tricks.game_over`)
MATCH_END: Context[Any] = Context(
    {
        "options": OPTIONS,
        "seats": SEATS,
        "totals": Name(ListType(INT), "each team's card points, deals added"),
        "deals": Name(INT, "the deals played"),
        "game_points": Name(
            ListType(INT),
            "each team's game points, deals added (`tricks.game_points`)",
            present=_states("game_points"),
        ),
    }
)


def checkpoint_scopes(spec: GameSpec) -> dict[str, Scope]:
    result = {
        name: MOVE.scope(spec, {"move": move_record_type(move)})
        for name, move in spec.moves.items()
    }
    result["setup"] = SETUP.scope(spec)
    result["trick_end"] = TRICK_END.scope(spec)
    result["count"] = COUNT.scope(spec)
    if _states("game_points")(spec):  # the steps only some specs have
        result["deal_end"] = DEAL_END.scope(spec)
    if _states("game_over")(spec):
        result["match_end"] = MATCH_END.scope(spec)
    return result
