"""A rummy seat leaving the hand, or the match, when its time runs out (the play clock, issue 16).

- Out of the hand (`on_timeout: forfeit`): the seat plays no more of it. Play passes over it (a
  turn it began ends there, its drawn card kept), it answers no claim window, and when the hand
  ends it is scored as every seat that did not go out is: the spec's `scoring.hand_points` of
  the cards it holds. A hand left to one seat is that seat's, as if it went out. It is dealt
  in again with the next hand.
- Out of the match (its time ran out `max_timeouts` times): out of the hand, and of every hand
  to come, as a seat that declines re-entry is; a match left to one seat is that seat's.
- Between hands, a seat deciding on re-entry declines, in both cases.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.cards import Card
from referee.engine.mechanic import Judgement
from referee.mechanics.rummy import match
from referee.mechanics.rummy.state import RummyState
from referee.mechanics.rummy.table import RummyTable
from referee.model import Event

MayReenter = Callable[[RummyState, int], bool]
Finish = Callable[
    [Judgement[RummyState]], Judgement[RummyState]
]  # the mechanic's end of a move (a stuck hand is void)


def forfeit(
    mechanic: RummyTable, state: RummyState, seat: int, reenter: MayReenter, finish: Finish
) -> Judgement[RummyState]:
    work = state.clone()
    work.hand_ended = False
    if work.phase == "decide":
        return _decline(mechanic, work, seat)
    work.out_of_hand[seat] = True
    events = [Event("out_of_hand", {"seat": seat}), *_play_on(mechanic, work, seat, reenter)]
    return finish(Judgement([], work, events))


def retire(
    mechanic: RummyTable, state: RummyState, seat: int, reenter: MayReenter, finish: Finish
) -> Judgement[RummyState]:
    """Out of the hand (a decision between hands: declined), and out of the match with it."""
    if state.phase == "decide":
        left = forfeit(mechanic, state, seat, reenter, finish)  # it declines: out for good
    else:
        out = state.clone()
        out.in_match[seat] = False
        left = forfeit(mechanic, out, seat, reenter, finish)
    left.events.insert(0, Event("out_of_match", {"seat": seat}))
    return left


def _play_on(mechanic: RummyTable, work: RummyState, seat: int, reenter: MayReenter) -> list[Event]:
    """The hand goes on without `seat`: with the next seat in it, or, left to one seat, ends
    as that seat going out."""
    left = work.in_hand
    if len(left) == 1:
        work.went_out, work.to_act, work.hand_ended = left[0], None, True
        pack: list[Card] = mechanic.pack
        ended = match.end_hand(work, mechanic.config, reenter, pack)
        return [Event("went_out", {"seat": left[0]}), *ended]
    if work.to_act == seat:
        work.to_act, work.phase = work.next_seat(seat), "take"
    return []


def _decline(mechanic: RummyTable, work: RummyState, seat: int) -> Judgement[RummyState]:
    """A seat deciding on re-entry declines, as its own `decline` would (the spec's rules
    judge it, where the spec has the move)."""
    if "decline" in mechanic.spec.moves:
        declined = mechanic.apply(work, seat, "decline", {"present": []})
        if not declined.violations:
            return declined
    work.deciding.remove(seat)
    events = match.decline(work, seat)
    return Judgement([], work, events + match.after_decision(work, mechanic.config, mechanic.pack))
