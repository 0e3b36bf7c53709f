"""What each seat of a rummy table may see (GEN-3).

A seat sees its own hand, the sizes of the others', the melds, the top discard and the stock's
size; a spectator sees only the public part; the adjudicator sees everything. Once the hand is
over every hand and the dealt deck are revealed (so the commitment can be checked).
"""

from __future__ import annotations

from referee.cards import codes
from referee.mechanics.rummy.state import RummyState
from referee.model import ADJUDICATOR, JSON


def view(state: RummyState, seat: int | None) -> dict[str, JSON]:
    result = public_view(state)
    if seat == ADJUDICATOR or state.hand_over:
        result["hands"] = {str(s): codes(h) for s, h in enumerate(state.hands)}
    if seat == ADJUDICATOR:
        result["stock"] = codes(reversed(state.stock))
    if seat is not None and 0 <= seat < state.seats:
        result["seat"] = seat
        result["hand"] = codes(state.hands[seat])
        result["legal_moves"] = legal_move_types(state, seat)
    return result


def public_view(state: RummyState) -> dict[str, JSON]:
    result: dict[str, JSON] = {
        "seats": state.seats, "dealer": state.dealer, "mao": state.mao,
        "to_act": state.to_act, "phase": state.phase,
        "hand_over": state.hand_over, "match_over": False, "went_out": state.went_out,
        "winner": None,
        "hand_sizes": {str(s): len(h) for s, h in enumerate(state.hands)},
        "discard_top": str(state.discard[-1]) if state.discard else None,
        "discard_size": len(state.discard), "stock_size": len(state.stock),
        "turned": str(state.turned), "jokers": codes(sorted(state.jokers)),
        "melds": [{"id": m.id, "kind": m.kind, "owner": m.owner, "cards": codes(m.cards),
                   "wild": [i for i, w in enumerate(m.wild) if w]} for m in state.melds],
        "scores": {str(s): p for s, p in enumerate(state.scores)}, "blown": [],
    }
    if state.hand_over:
        result["points"] = {str(s): p for s, p in enumerate(state.hand_points)}
        result["deck"] = codes(state.deck)
    return result


def legal_move_types(state: RummyState, seat: int) -> list[str]:
    """A hint for clients: the move types that may be legal now (each is still judged)."""
    if state.hand_over:
        return []
    can_take = bool(state.discard) and state.discarder != seat and len(state.hands[seat]) != 1
    if seat != state.to_act:
        return ["go_out"] if can_take else []
    if state.phase == "take":
        return ["draw"] + (["take_discard", "go_out"] if can_take else [])
    return ["meld", "layoff", "discard", "go_out"]
