"""The names (and their types) that rules can read at each rummy checkpoint."""

from __future__ import annotations

from referee.engine.moves import move_record_type
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, Scope, Type
from referee.spec.option_types import options_type
from referee.spec.schema import GameSpec

# what the turned card adds to every context, where the spec's deal turns one
TURNED_NAMES = frozenset({"turned", "top_is_turned", "turned_covered"})


def turns_a_card(spec: GameSpec) -> bool:
    """Does the spec's deal turn a card (`rummy.turned_card`)? Read raw: the scopes come first."""
    section = spec.sections.get("rummy")
    return isinstance(section, dict) and section.get("turned_card") is True


def common_names(spec: GameSpec) -> dict[str, Type]:
    """What every move-judging checkpoint knows about the table and the proposer."""
    names: dict[str, Type] = {
        "options": options_type(spec), "turned": CARD, "seat": INT, "to_act": INT, "mao": INT,
        "seats": INT, "in_turn": BOOL, "phase": STR, "hand": ListType(CARD), "discard_top": CARD,
        "has_discard": BOOL, "top_is_turned": BOOL, "discarder": INT,
        "turned_covered": BOOL,  # the hand's first discard has covered the turned card
        "going_out": BOOL, "move_type": STR, "has_taken": BOOL, "taken_card": CARD,
        # the match: the proposer's total, re-entry state, players still in
        "score": INT, "deciding": BOOL, "reentries": INT, "blows": INT, "under": INT,
        "playing": BOOL,  # the proposer is dealt in: in the match and not blown
        "stolen": ListType(CARD),  # the jokers this move took back from the table
        "laid": ListType(CARD),  # every card this move laid, in melds and lay-offs
        "laid_wild": ListType(CARD),  # the jokers this move laid as jokers (not as themselves)
        # a claim window is open on the last discard; the proposer already answered it
        "window_open": BOOL, "responded": BOOL, "claims_closed": BOOL,
    }
    return _without_turned(spec, names)


def _without_turned(spec: GameSpec, names: dict[str, Type]) -> dict[str, Type]:
    """A spec whose deal turns no card has no turned card to name."""
    if turns_a_card(spec):
        return names
    return {name: type_ for name, type_ in names.items() if name not in TURNED_NAMES}


def checkpoint_scopes(spec: GameSpec) -> dict[str, Scope]:
    common = common_names(spec)
    scopes = {name: Scope({**common, "move": move_record_type(move)})
              for name, move in spec.moves.items()}
    scopes["take"] = Scope({**common, "taken": CARD, "used": ListType(CARD)})
    meld = {**common, "cards": ListType(CARD), "place": INT, "new": BOOL, "kind": STR}
    for kind in spec.sections.get("meld_kinds", {}) or {}:
        scopes[str(kind)] = Scope(meld)
    # outside any move: which cards are jokers, and what a hand left at the end scores
    table = _without_turned(spec, {"options": options_type(spec), "turned": CARD})
    scopes["card"] = Scope({**table, "c": CARD})
    scopes["scoring"] = Scope({**table, "hand": ListType(CARD), "score": INT})
    return scopes
