"""A banking seat leaving the hand, or the table, when its time runs out (the play clock, issue 16).

- A player out of the hand (`on_timeout: forfeit`) loses what it has on the table, as a bust
  hand does: each of its hands' stakes goes to the banker, its shoot bets to the kitty, its
  cards under the pack. Before it bets it has seen its first card all the same: it pays the
  banker what the spec says (`banking.forfeit_before_bet`, GEN-10: Pontoon's minimum bet), so
  that a look at that card never buys a free way out of the hand. Play goes on with the next
  player; a hand no player is left in ends there. It is dealt in again with the next hand.
- The banker cannot leave a hand it banks: in its turn it stands as it is. Between hands (or
  before its first kitty) a banker out of the hand gives up the bank: it passes to the next
  seat at the table, who deals the next hand.
- Out of the table (its time ran out `max_timeouts` times): out of the hand, and dealt no hand
  again; a banker hands the bank on once its hand is over. Fewer than two seats left at the
  table end it, and the kitty goes back to the banker then (no chip is left on a finished
  table, GEN-6).
"""

from __future__ import annotations

from typing import Protocol

from referee.engine.mechanic import Judgement
from referee.mechanics.banking.kitty import KITTY_PHASE, KittyPart
from referee.mechanics.banking.state import BankState
from referee.mechanics.banking.transfers import transfer, under_the_pack
from referee.model import Event

OVER = "over"  # the phase of a table fewer than two seats are left at


class Flow(Protocol):
    """What leaving asks of the flow of a hand (`flow.HandFlow`): its kitty part and its steps."""

    kitty: KittyPart

    def second_round(self, s: BankState, events: list[Event]) -> None: ...
    def advance(self, s: BankState, events: list[Event]) -> None: ...
    def bankers_turn(self, s: BankState, events: list[Event]) -> None: ...
    def end_hand(self, s: BankState, events: list[Event], played: bool = True) -> None: ...
    def forfeit_before_bet(self, state: BankState, seat: int) -> int: ...


def forfeit(flow: Flow, state: BankState, seat: int) -> Judgement[BankState]:
    work = state.clone()
    events = [Event("out_of_hand", {"seat": seat})]
    if seat == work.banker:
        _banker_leaves_the_hand(flow, work, events)
    else:
        _player_leaves_the_hand(flow, work, seat, events)
    return Judgement([], work, events)


def retire(flow: Flow, state: BankState, seat: int) -> Judgement[BankState]:
    left = forfeit(flow, state, seat)
    work = left.state
    assert work is not None  # a forfeit is always accepted
    work.out[seat] = True
    left.events.insert(0, Event("out_of_match", {"seat": seat}))
    if work.phase in ("between", KITTY_PHASE):  # between hands: the table goes on without it
        after_hand(work, flow.kitty, left.events)
    return left


def after_hand(s: BankState, kitty: KittyPart, events: list[Event]) -> None:
    """Between hands: a banker out of the table hands the bank on; a table fewer than two
    seats are left at is over."""
    seated = s.seated()
    if len(seated) < 2:
        kitty.leave(s, events)  # back to the banker, as when it leaves the bank
        s.phase, s.to_act = OVER, None
        events.append(Event("table_over", {"seats": seated}))
    elif s.out[s.banker]:
        _pass_the_bank(s, kitty, events)


def _player_leaves_the_hand(flow: Flow, s: BankState, seat: int, events: list[Event]) -> None:
    order = s.players()
    if _before_its_bet(s, seat):
        cost = flow.forfeit_before_bet(s, seat)
        if cost:
            events.append(transfer(s, seat, s.banker, cost, "forfeit before the bet"))
    s.out_of_hand[seat] = True
    for hand in s.hands[seat]:
        if hand.on_table:
            events.append(transfer(s, None, s.banker, hand.on_table, "forfeit", hand=hand))
        hand.settled = True
        flow.kitty.takes(s, hand, "forfeit", events)
        under_the_pack(s, hand.cards)
        hand.cards, hand.face_up, hand.done = [], [], True
    if s.to_act != seat:
        return
    following = order[order.index(seat) + 1 :] if seat in order else []
    if not s.players():  # nobody is left to play the hand against the bank
        flow.end_hand(s, events, played=False)
    elif s.phase == "bet":
        if following:
            s.to_act = following[0]
        else:
            flow.second_round(s, events)
    elif following:
        s.to_act, s.active = following[0], 0
        flow.advance(s, events)
    else:
        flow.bankers_turn(s, events)
        flow.advance(s, events)


def _before_its_bet(s: BankState, seat: int) -> bool:
    """Is `seat` a player of the hand being bet on that has its first card and no bet yet?"""
    first = s.hands[seat][0]
    return s.phase == "bet" and bool(first.cards) and not first.stake and not first.settled


def _banker_leaves_the_hand(flow: Flow, s: BankState, events: list[Event]) -> None:
    if s.phase == "banker":  # its turn: it stands
        s.hands[s.banker][0].done = True
        flow.advance(s, events)
    elif s.phase in ("between", KITTY_PHASE):
        _pass_the_bank(s, flow.kitty, events)


def _pass_the_bank(s: BankState, kitty: KittyPart, events: list[Event]) -> None:
    """The bank goes to the next seat at the table, who deals the next hand (the cards of a
    hand not played go under the pack then)."""
    after = [(s.banker + k) % s.seats for k in range(1, s.seats)]
    taker = next(seat for seat in after if not s.out[seat])
    kitty.leave(s, events)
    events.append(Event("bank_passes", {"from": s.banker, "to": taker}))
    s.banker, s.next_banker, s.offer = taker, None, None
    s.phase, s.to_act = "between", taker
