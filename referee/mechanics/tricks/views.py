"""What each seat of a trick-taking table may see (GEN-3, TA issue: partnerships).

A seat sees its own hand only (not its partner's), the trick on the table, the last trick, the
tricks won per team, how many cards each seat holds, the card turned at the deal while it is
face up, and the announced trump count of the dealer's discard, not its cards. The discard, the dealt deck and its salt are revealed when the
deal is over (`last_hand`); the adjudicator sees everything.
"""

from __future__ import annotations

from referee.cards import codes
from referee.mechanics.tricks.state import TrickState
from referee.model import ADJUDICATOR, JSON


def view(state: TrickState, seat: int | None, commitment: str) -> dict[str, JSON]:
    """What `seat` sees; `commitment`: the mechanic's of the deal in play."""
    last = state.tricks[-1] if state.tricks else None
    result: dict[str, JSON] = {
        "seats": state.seats,
        "dealer": state.dealer,
        "phase": state.phase,
        "to_act": state.to_act,
        "leader": state.leader,
        "hand_number": state.deal_number,
        "teams": [list(team) for team in state.teams],
        "trick": [{"seat": s, "card": str(c)} for s, c in state.trick],
        "last_trick": None
        if last is None
        else {"cards": [{"seat": s, "card": str(c)} for s, c in last.plays], "winner": last.winner},
        "tricks": {str(t): n for t, n in enumerate(state.tricks_won())},
        "hand_sizes": {str(s): len(h) for s, h in enumerate(state.hands)},
        "discard_size": len(state.discard),
        "announced_trumps": state.announced,
        "hand_over": state.deal_ended or state.phase == "over",
        "match_over": state.phase == "over",
        "winner": state.winner,
        "points": dict(state.last_hand.get("points", {})),
        "totals": {str(t): n for t, n in enumerate(state.totals)},
        "commitment": commitment,
        "last_hand": dict(state.last_hand),
    }
    if state.turned is not None:  # the spec turns a card: shown while it is face up
        result["turned"] = (
            {"seat": state.turned_seat, "card": str(state.turned)} if state.turned_shown else None
        )
    if state.game_points is not None:
        result["game_points"] = {str(t): n for t, n in enumerate(state.game_points)}
    if seat == ADJUDICATOR:
        result["hands"] = {str(s): codes(h) for s, h in enumerate(state.hands)}
        result["discard"] = codes(state.discard)
        result["deck"] = codes(state.deck)
    if seat is not None and 0 <= seat < state.seats:
        result["seat"] = seat
        result["team"] = state.team_of(seat)
        result["hand"] = codes(state.hands[seat])
        if seat == state.dealer:
            result["discard"] = codes(state.discard)  # the dealer knows its own discard
    return result
