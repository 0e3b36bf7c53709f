"""The moves of a banking table: the move table (`MOVES`) and a handler for each move.

A handler is called once the move's checkpoint has accepted it (`BankingMechanic.judge`): it
applies the move to `s` (the mechanic's working copy of the state), adding the events of what
happened, and carries the hand on (`flow.HandFlow`); a Violation means the move cannot be made
after all, and the copy is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.cards import codes
from referee.engine import chance
from referee.engine.mechanic import Move
from referee.i18n.verdicts import unreadable
from referee.mechanics.banking.flow import HandFlow, deck_commitment, give, shuffle, start_hand
from referee.mechanics.banking.state import BankState, Hand
from referee.mechanics.banking.transfers import transfer, under_the_pack
from referee.model import Event, Sentence, Violation

SPLIT_CARDS = 2  # a split deals one card to each of its two hands

# what a handler is given: the hand's flow, the working state, the proposer, the move's fields
# (`present`: the optional ones given) and the events to add to
Handler = Callable[[HandFlow, BankState, int, dict[str, Any], list[Event]], Violation | None]


def do_bet(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    hand = s.own(seat, 0)
    hand.stake = move["amount"]
    events.append(transfer(s, seat, None, hand.stake, "bet"))
    flow.kitty.bet(s, seat, hand, move, events)
    players = s.players()
    following = players[players.index(seat) + 1 :]
    if following:
        s.to_act = following[0]
    else:
        flow.second_round(s, events)
    return None


def do_split(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    if len(s.pack) < SPLIT_CARDS:  # refused, not stood: the hand may still twist
        return flow.config.split_pack_short
    hand = s.own_hand(seat)
    new = Hand(cards=[hand.cards.pop()], face_up=[hand.face_up.pop()], stake=hand.stake, split=True)
    hand.split = True
    s.hands[seat].insert(s.active + 1, new)
    events.append(transfer(s, seat, None, new.stake, "split"))
    flow.kitty.bet(s, seat, new, move, events)  # a split's shoot bet is the new hand's
    events.append(Event("split", {"seat": seat, "hands": len(s.hands[seat])}))
    for part in (hand, new):
        give(s, seat, part, face_up=False, events=events, visibility=flow.config.visibility)
    flow.advance(s, events)
    return None


def do_buy(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    hand = s.own_hand(seat)
    if not s.pack:  # nothing to buy: no chips move
        _stand_on_empty_pack(flow, s, seat, hand, events)
        return None
    hand.paid.append(move["amount"])
    events.append(transfer(s, seat, None, move["amount"], "buy"))
    flow.kitty.bet(s, seat, hand, move, events)
    give(s, seat, hand, face_up=False, events=events, visibility=flow.config.visibility)
    flow.advance(s, events)
    return None


def do_twist(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    hand = s.own_hand(seat)
    if not s.pack:
        _stand_on_empty_pack(flow, s, seat, hand, events)
        return None
    hand.twisted = True
    flow.kitty.bet(s, seat, hand, move, events)
    give(s, seat, hand, face_up=True, events=events, visibility=flow.config.visibility)
    flow.advance(s, events)
    return None


def _stand_on_empty_pack(
    flow: HandFlow, s: BankState, seat: int, hand: Hand, events: list[Event]
) -> None:
    """No card is left to deal: the hand stands as it is, whatever its total, and play goes
    on (a hand that could neither draw nor stick would hold the table up for ever)."""
    hand.done = True
    events.append(Event("pack_empty", {"seat": seat, "hand": s.active}))
    flow.advance(s, events)


def do_stick(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    s.own_hand(seat).done = True
    events.append(Event("stuck", {"seat": seat, "hand": s.active}))
    flow.advance(s, events)
    return None


def do_burn(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    """The burnt cards go under the pack at once, so the new ones are always there."""
    hand = s.own_hand(seat)
    burnt = hand.cards
    events.append(Event("burnt", {"seat": seat, "cards": codes(burnt)}))
    under_the_pack(s, burnt)
    hand.cards, hand.face_up = [], []
    for _ in burnt:
        give(s, seat, hand, face_up=False, events=events, visibility=flow.config.visibility)
    flow.advance(s, events)
    return None


def do_sit_out(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    """The player sits the hand out (the spec's rules say when: before its bet)."""
    flow.sit_out(s, seat, events)
    return None


def do_next_hand(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    """The cards still in hands go under the pack unshuffled, unless the finished hand has
    the pack shuffled (`banking.reshuffle`)."""
    # from the seat after the banker, the banker last, whoever sat the hand out
    order = [(s.banker + k) % s.seats for k in range(1, s.seats + 1)]
    used = [c for seat_ in order for h in s.hands[seat_] for c in h.cards]
    if s.reshuffle:
        events.append(_reveal_deck(s))
        shuffle(s, s.pack + used, s.hand_number + 1)
        s.shuffle_number += 1
    else:
        under_the_pack(s, used)
    if s.next_banker is not None:
        flow.kitty.leave(s, events)
        events.append(Event("bank_passes", {"from": s.banker, "to": s.next_banker}))
        s.banker = s.next_banker
    s.hand_number += 1
    s.next_banker, s.reshuffle, s.offer = None, False, None
    start_hand(s, flow.config)
    flow.kitty.ask(s)
    events.append(
        Event(
            "hand_dealt",
            {"hand_number": s.hand_number, "banker": s.banker, "commitment": deck_commitment(s)},
        )
    )
    return None


def _reveal_deck(s: BankState) -> Event:
    """GEN-5: the pack about to be shuffled, as it was committed to, with its salt."""
    s.revealed = {
        "shuffle": s.shuffle_number,
        "deck": codes(s.deck),
        "salt": chance.hand_salt(s.salt, s.shuffle_number),
        "keys": dict(s.keys),
        "commitment": deck_commitment(s),
    }
    return Event("deck_revealed", dict(s.revealed))


def do_kitty(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    return flow.kitty.put_up(s, seat, move["amount"], events)


def do_offer_bank(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    s.offer = (move["to"], move["price"])
    events.append(Event("bank_offered", {"to": move["to"], "price": move["price"]}))
    return None


def do_accept_bank(
    flow: HandFlow, s: BankState, seat: int, move: dict[str, Any], events: list[Event]
) -> Violation | None:
    """The price moves from the buyer to the banker, and the bank with it."""
    if s.offer is None:  # the spec's rules say when; this keeps the state whole regardless
        return unreadable(Sentence("table.no_move_now", {"type": "accept_bank"}))
    to, price = s.offer
    events.append(transfer(s, to, s.banker, price, "bank sold"))
    flow.kitty.leave(s, events)
    events.append(Event("bank_passes", {"from": s.banker, "to": to}))
    s.banker, s.offer, s.next_banker = to, None, None
    s.to_act = to  # the new banker deals the next hand
    return None


# the move table: each move's handler, the fields it always reads, the checkpoints whose rules
# judge it. Each move is judged by its own checkpoint's rules alone: the `hand` checkpoint is
# where the `banking.*` expressions are read, and no handler judges rules there (nor `after`)
MOVES: dict[str, Move] = {
    "bet": Move(do_bet, frozenset({"amount"}), ("bet",)),
    "split": Move(do_split, judged=("split",)),
    "buy": Move(do_buy, frozenset({"amount"}), ("buy",)),
    "twist": Move(do_twist, judged=("twist",)),
    "stick": Move(do_stick, judged=("stick",)),
    "burn": Move(do_burn, judged=("burn",)),
    "next_hand": Move(do_next_hand, judged=("next_hand",)),
    "sit_out": Move(do_sit_out, judged=("sit_out",)),
    "kitty": Move(do_kitty, frozenset({"amount"}), ("kitty",)),
    "offer_bank": Move(do_offer_bank, frozenset({"to", "price"}), ("offer_bank",)),
    "accept_bank": Move(do_accept_bank, judged=("accept_bank",)),
}

__all__ = ["MOVES", "SPLIT_CARDS", "Handler"]
