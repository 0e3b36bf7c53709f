"""What each seat of a rummy table may see (GEN-3).

A seat sees its own hand, the sizes of the others', the melds, the top discard and the stock's
size; a spectator sees only the public part; the adjudicator sees everything. Once the hand is
over every hand and the dealt deck are revealed (so the commitment can be checked).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from referee.cards import codes
from referee.engine import chance
from referee.mechanics.rummy.state import RummyState
from referee.model import ADJUDICATOR, JSON

# seat, checkpoint (a move type, or `take`) -> does a rule reading nothing of the move refuse
# every move there now (the spec's rules)?
Refused = Callable[[int, str], bool]
# what a seat in turn may do once it has taken a card
PLAY = ("meld", "layoff", "discard", "go_out", "swap_joker")


def view(
    state: RummyState, seat: int | None, moves: Collection[str], refused: Refused
) -> dict[str, JSON]:
    """`moves`: the spec's move types; `refused` asks its rules (for the legal moves' hint)."""
    result = public_view(state)
    between = state.phase in ("decide", "over")  # the finished hand is still on the table
    if seat == ADJUDICATOR or between:
        result["hands"] = {str(s): codes(h) for s, h in enumerate(state.hands)}
    if seat == ADJUDICATOR:
        result["stock"] = codes(reversed(state.stock))
    if seat is not None and 0 <= seat < state.seats:
        result["seat"] = seat
        result["hand"] = codes(state.hands[seat])
        result["legal_moves"] = [m for m in legal_move_types(state, seat, refused) if m in moves]
    return result


def public_view(state: RummyState) -> dict[str, JSON]:
    last = state.last_hand
    return {
        "seats": state.seats,
        "dealer": state.dealer,
        "mao": state.mao,
        "commitment": chance.hand_commitment(state.salt, state.hand_number, state.deck),
        "to_act": state.to_act,
        "phase": state.phase,
        "hand_number": state.hand_number,
        "hand_over": state.hand_ended or state.phase in ("decide", "over"),
        "match_over": state.match_over,
        "winner": state.winner,
        "went_out": state.went_out if state.went_out is not None else last.get("went_out"),
        "hand_sizes": {str(s): len(h) for s, h in enumerate(state.hands)},
        "discard_top": str(state.discard[-1]) if state.discard else None,
        "discard_size": len(state.discard),
        "stock_size": len(state.stock),
        "turned": None if state.turned is None else str(state.turned),
        "jokers": codes(sorted(state.jokers)),
        "melds": [
            {
                "id": m.id,
                "kind": m.kind,
                "owner": m.owner,
                "cards": codes(m.cards),
                "wild": [i for i, w in enumerate(m.wild) if w],
            }
            for m in state.melds
        ],
        "scores": _per_seat(state.scores),
        "blown": [s for s in range(state.seats) if state.blown[s] or not state.in_match[s]],
        "out": [s for s in range(state.seats) if not state.in_match[s]],
        "out_of_hand": [s for s in range(state.seats) if state.out_of_hand[s]],
        "deciding": list(state.deciding),
        "balances": _per_seat(state.balances),
        "pot": state.pot,
        "points": last.get("points", {}),
        "last_hand": dict(last),
        "claim_window": _window(state),
    }


def _window(state: RummyState) -> dict[str, JSON] | None:
    """The open claim window: who discarded, who may still answer (claims stay secret)."""
    window = state.window
    if window is None:
        return None
    waiting = [s for s in state.in_hand if s != window.discarder and not window.answered(s)]
    return {"number": window.number, "discarder": window.discarder, "waiting": waiting}


def _per_seat(values: list[int]) -> dict[str, int]:
    return {str(s): v for s, v in enumerate(values)}


def legal_move_types(state: RummyState, seat: int, refused: Refused) -> list[str]:
    """A hint for clients: the move types that may be legal now (each is still judged). Taking
    the top discard where no `take` rule refuses it outright; in a turn's play, the moves no
    rule refuses outright (a move an option forbids: a joker swap)."""
    if state.phase == "decide":
        return ["reenter", "decline"] if seat in state.deciding else []
    if state.phase == "over" or seat not in state.in_hand:
        return []
    can_take = not refused(seat, "take")
    if state.window is not None:
        if seat == state.window.discarder or state.window.answered(seat):
            return []
        return ["pass", "take_discard", "go_out"] if can_take else ["pass"]
    # going out where no rule refuses it outright (one that must wait for a draw, say)
    go_out = [] if refused(seat, "go_out") else ["go_out"]
    if seat != state.to_act:
        return go_out if can_take else []
    if state.phase == "take":
        return ["draw"] + (["take_discard", *go_out] if can_take else [])
    return [move_type for move_type in PLAY if not refused(seat, move_type)]
