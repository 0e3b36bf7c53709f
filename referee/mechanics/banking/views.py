"""What each seat of a banking table may see (GEN-3).

Face-down cards are seen only by their holder; the banker does not see its own first card until
its turn (nor while it puts up a kitty); hands shown (pontoons, busts, the banker's at its turn,
all at the end) are public. The view is built from the state alone and what the mechanic passes
in (its commitment, its kitty part), so this module needs nothing of the mechanic's. What the
kitty part keeps (the kitty, a hand's shoot bets) is shown by the part: a game without it shows
none of it.
"""

from __future__ import annotations

from referee.cards import codes
from referee.mechanics.banking.kitty import KITTY_PHASE, KittyPart
from referee.mechanics.banking.state import BankState, Hand
from referee.mechanics.banking.visibility import DEFAULT, Visibility
from referee.model import ADJUDICATOR, JSON

HIDDEN = "??"
BANKER_BLIND = (KITTY_PHASE, "bet", "play")  # the phases the banker does not see its first card in


def view(
    state: BankState,
    seat: int | None,
    commitment: str,
    kitty: KittyPart,
    visibility: Visibility = DEFAULT,
) -> dict[str, JSON]:
    """`seat`'s view, with what the game's kitty part shows (nothing without the part), the
    cards as the spec's `banking.visibility` deals them."""
    hidden = visibility.hidden_places
    result: dict[str, JSON] = {
        "seats": state.seats,
        "banker": state.banker,
        "phase": state.phase,
        "to_act": state.to_act,
        "active_hand": state.active,
        "hand_number": state.hand_number,
        "hand_over": state.phase == "between",
        "match_over": state.phase == "over",  # fewer than two seats left at the table
        "out": [s for s in range(state.seats) if state.out[s]],
        "out_of_hand": [s for s in range(state.seats) if state.out_of_hand[s]],
        "balances": {str(s): b for s, b in enumerate(state.balances)},
        "on_table": state.on_table,
        "stock_size": len(state.pack),
        "offer": {"to": state.offer[0], "price": state.offer[1]} if state.offer else None,
        "commitment": commitment,
        "last_hand": dict(state.last_hand),
        "revealed_deck": state.revealed,
        "hands": {
            str(s): [_hand(state, s, h, seat, kitty, hidden) for h in hands]
            for s, hands in enumerate(state.hands)
        },
        **kitty.shown(state),
    }
    if seat == ADJUDICATOR:
        result["pack"] = codes(reversed(state.pack))  # what is left, top first
        result["deck"] = codes(state.deck)  # as last shuffled (committed to)
    if seat is not None and 0 <= seat < state.seats:
        result["seat"] = seat
        result["hand"] = result["hands"][str(seat)]  # its own hands, as it sees them
    return result


def banker_blind(state: BankState, seat: int, hidden: tuple[int, ...] = (0,)) -> bool:
    """Does `seat` hold a card it does not see: a banker's `hidden` one (by place; Pontoon's
    first), until its turn?"""
    return (
        seat == state.banker
        and state.phase in BANKER_BLIND
        and bool(state.hands[seat])
        and any(place < len(state.hands[seat][0].cards) for place in hidden)
    )


def seen_cards(
    state: BankState, holder: int, hand: Hand, viewer: int | None, hidden: tuple[int, ...] = (0,)
) -> list[str]:
    """The hand's cards as `viewer` sees them: a card it may not see is `??` (the banker's
    `hidden` places are seen by nobody until its turn)."""
    cards = []
    for place, (card, up) in enumerate(zip(hand.cards, hand.face_up)):
        hidden_from_banker = (
            holder == state.banker and place in hidden and state.phase in BANKER_BLIND
        )
        own = viewer == holder and not hidden_from_banker
        cards.append(str(card) if up or own or viewer == ADJUDICATOR else HIDDEN)
    return cards


def _hand(
    state: BankState,
    holder: int,
    hand: Hand,
    viewer: int | None,
    kitty: KittyPart,
    hidden: tuple[int, ...],
) -> dict[str, JSON]:
    cards = seen_cards(state, holder, hand, viewer, hidden)
    return {
        "cards": cards,
        "stake": hand.stake,
        "paid": list(hand.paid),
        **kitty.shown_hand(hand),  # its shoot bets, with the kitty part
        "twisted": hand.twisted,
        "split": hand.split,
        "done": hand.done,
        "settled": hand.settled,
    }
