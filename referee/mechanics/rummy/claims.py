"""Claim windows: several seats may claim one discard; the claim the spec's priority puts first wins.

At a table whose options select windows (`rummy.claims`), a discard opens a window. While it
is open every seat but the discarder may claim the discard (`take_discard`, or `go_out` taking
it) or `pass`; a valid claim is answered *pending* and recorded, an invalid one is rejected. The
window closes when every seat has answered, or at its deadline (the server's clock: `close`),
and the orders of `rummy.claims.priority` pick the winner (`priority.py`). The winner's move is
then applied; the others are void. Judging stays deterministic: the deadline is an explicit move in
the table's log, never a clock reading.
"""

from __future__ import annotations

from typing import Any

from referee.engine.mechanic import Judgement
from referee.mechanics.rummy.priority import winning_claim
from referee.mechanics.rummy.state import RummyState
from referee.mechanics.rummy.table import RummyTable
from referee.mechanics.rummy.turn import Turn, unique
from referee.mechanics.rummy.window import Window
from referee.model import Event

CLAIMS = ("take_discard", "go_out")


def open_window(state: RummyState) -> Event:
    number = state.window_count = state.window_count + 1
    state.window = Window(number, state.discarder)
    return Event(
        "claim_window",
        {"window": number, "discarder": state.discarder, "card": str(state.discard[-1])},
    )


def eligible(state: RummyState) -> list[int]:
    """Who may answer the open window: every seat playing but the discarder."""
    assert state.window is not None
    return [s for s in state.in_hand if s != state.window.discarder]


def answer(
    mechanic: RummyTable,
    work: RummyState,
    seat: int,
    move_type: str,
    move: dict[str, Any],
    mend: bool = False,
) -> Judgement[RummyState]:
    """A claim (or a pass) while the window is open: judged as if applied now (`mend`: a
    rejection offers its fixes), and recorded, pending, if valid."""
    turn = Turn(mechanic, work, seat, move_type, move)
    turn.check_rules(at="before")
    if not turn.violations and move_type != "pass":
        turn.violations += mechanic.apply(work.clone(), seat, move_type, move, mend).violations
    if turn.violations:
        return Judgement(unique(turn.violations))
    return record(mechanic, work, seat, move_type, move)


def record(
    mechanic: RummyTable, state: RummyState, seat: int, move_type: str, move: dict[str, Any]
) -> Judgement[RummyState]:
    """A valid claim or a pass, while the window is open (the caller judged the rules)."""
    window = state.window
    assert window is not None
    if move_type == "pass":
        window.passed.append(seat)
    else:
        window.claims[seat] = (move_type, move)
    pending = move_type != "pass"
    # who answered is public; how stays with the seat until the window closes (no one may
    # shape a claim on another's)
    events = [
        Event(
            "answered",
            {"seat": seat, "window": window.number},
            {"answer": move_type},
            frozenset({seat}),
        )
    ]
    if all(window.answered(s) for s in eligible(state)):
        closing = close(mechanic, state)
        closing.events[:0] = events
        closing.pending = pending
        return closing
    return Judgement([], state, events, pending=pending)


def close(mechanic: RummyTable, state: RummyState) -> Judgement[RummyState]:
    """Close the window: apply the winning claim, or let play go on if nobody claimed."""
    window = state.window
    assert window is not None
    state.window = None
    closed = Event("window_closed", {"window": window.number, "claims": sorted(window.claims)})
    if not window.claims:
        state.closed_windows = window.number  # its discard is now only the seat in turn's
        return Judgement([], state, [closed])
    winner = winning_claim(state, window, mechanic.config.claims.priority)
    move_type, move = window.claims[winner]
    outcome = mechanic.apply(state, winner, move_type, move)
    if outcome.violations:  # the table has not changed since the claim was judged: a bug
        raise RuntimeError(
            f"claim of seat {winner} judged valid, then rejected: {outcome.violations}"
        )
    state.closed_windows = window.number  # what lies under the taken card was claimable before
    lost = [
        Event("claim_lost", {"seat": s, "winner": winner, "reason": f"claim lost to seat {winner}"})
        for s in sorted(window.claims)
        if s != winner
    ]
    outcome.events[:0] = [closed, Event("claim_won", {"seat": winner, "move": move_type}), *lost]
    return outcome
