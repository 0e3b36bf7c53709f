"""The rummy contexts a `referee diff` situation must be consistent with.

A diff asks z3 for a situation (values of a checkpoint's context names) in which one side accepts
and the other rejects. Left free, the names could take values no table ever shows, and the
difference found would be one no game can reach. The facts that tie the names together are the
mechanic's, declared beside each name (`referee/mechanics/rummy/contexts.py`); here are what a
diff adds: which checkpoints it compares, the values a checkpoint fixes, the strings a name ranges
over, and the context of a scenario that confirms a difference.
"""

from __future__ import annotations

from typing import Any

from referee.engine.game import Game
from referee.errors import InvalidArgument
from referee.mechanics.context import Check, Fact, Path
from referee.mechanics.rummy import RummyMechanic
from referee.mechanics.rummy.contexts import EXTRA_NEEDS, FACTS, GO_OUT, MELD_MOVE, TAKE
from referee.mechanics.rummy.state import TURNED
from referee.spec.expr.symbolic import SymList
from referee.spec.schema import FieldSpec

PHASES = ("take", "play", "decide", "over")  # RummyState.phase


def mechanic(game: Game) -> RummyMechanic:
    """The game's rummy mechanic: what the facts here are about."""
    if not isinstance(game.mechanic, RummyMechanic):
        raise InvalidArgument(
            f"game `{game.name}` uses the `{game.spec.mechanics}` mechanics: "
            f"`referee diff` knows rummy games only"
        )
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

    return [
        name for name, move in game.spec.moves.items() if any(names_cards(f) for f in move.fields)
    ]


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


# --- the facts: the mechanic's (`mechanics/rummy/contexts.py`, beside each name) -------------


def facts_for(check: Check, names: set[Path]) -> list[Fact]:
    return [f for f in FACTS if f.applies(check, names)]


def describe() -> list[str]:
    """Every fact, as the report lists them."""
    return [f.text for f in FACTS] + [
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
        "seats": seats,
        "seat": MAO,
        "to_act": MAO,
        "mao": MAO,
        "in_turn": True,
        "phase": "play",
        "has_discard": True,
        "top_is_turned": True,
        "discarder": TURNED,
        "discard_top": turned,
        "going_out": going_out,
        "move_type": GO_OUT if going_out else MELD_MOVE,
        "has_taken": False,
        "taken_card": turned,
        "new": True,
        "place": 0,
        "hand": hand,
        # the match: nobody has scored, blown or re-entered yet; nothing stolen
        "score": 0,
        "deciding": False,
        "reentries": 0,
        "blows": 0,
        "under": seats,
        "stolen": SymList.of([]),
    }


__all__ = ["EXTRA_NEEDS", "FACTS", "Check", "Path", "describe", "facts_for", "first_turn_context"]
