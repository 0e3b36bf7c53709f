"""Which of several claims on one discard wins: the orders a spec's `rummy.claims.priority` lists.

Each order ranks a claimant, lowest first. The claims are compared by the orders in the spec's
sequence, and the seat nearest after the discarder in play order breaks any tie left, so exactly
one claim wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.mechanics.rummy.state import RummyState
from referee.mechanics.rummy.window import Window

Order = Callable[[RummyState, Window, int], int]


def _nearest_after_discarder(state: RummyState, window: Window, seat: int) -> int:
    """How many seats after the discarder `seat` sits in play order (the seat in turn: 0)."""
    return (seat - window.discarder - 1) % state.seats


def _goes_out(state: RummyState, window: Window, seat: int) -> int:
    """A claim that goes out before one that does not."""
    return 0 if window.claims[seat][0] == "go_out" else 1


ORDERS: dict[str, Order] = {
    "goes_out": _goes_out,
    "nearest_after_discarder": _nearest_after_discarder,
}


def winning_claim(state: RummyState, window: Window, priority: Sequence[str]) -> int:
    """The seat whose claim wins, by the orders of `priority` (names of `ORDERS`)."""

    def rank(seat: int) -> tuple[int, ...]:
        return (
            *(ORDERS[name](state, window, seat) for name in priority),
            _nearest_after_discarder(state, window, seat),
        )

    return min(window.claims, key=rank)
