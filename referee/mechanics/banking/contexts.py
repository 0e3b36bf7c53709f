"""Every name a banking rule (or `banking.*` expression) may read, declared once: its type, its
meaning and how it is computed from the state. Each move's checkpoint reads them and `move`;
`hand`, where the `banking.*` expressions are checked, reads them alone."""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.moves import move_record_type
from referee.mechanics.banking.config import kitty_selected
from referee.mechanics.banking.state import BankState, Hand
from referee.mechanics.context import Context, Name
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, Scope
from referee.spec.option_types import options_type
from referee.spec.schema import GameSpec


@dataclass(slots=True)  # not frozen: one is made per environment, and frozen ones start slower
class Seen:
    """What the names are computed from: the table, the seat asking, its hand, the banker's."""

    state: BankState
    seat: int
    hand: Hand
    banker: Hand  # the banker's first hand (empty before the deal)


NAMES: Context[Seen] = Context(
    {
        "options": Name(
            options_type, "the table's options (`options:` of the spec)", lambda v: v.state.options
        ),
        "seat": Name(INT, "the proposer's seat", lambda v: v.seat),
        "seats": Name(INT, "the number of seats at the table", lambda v: v.state.seats),
        "banker": Name(INT, "the banker's seat", lambda v: v.state.banker),
        "is_banker": Name(BOOL, "the proposer is the banker", lambda v: v.seat == v.state.banker),
        "in_turn": Name(
            BOOL, "the proposer is the seat in turn", lambda v: v.seat == v.state.to_act
        ),
        "phase": Name(
            STR,
            "the step of the hand: `bet`, `play`, `banker`, `between` (or `kitty`, "
            "the kitty part's)",
            lambda v: v.state.phase,
        ),
        "cards": Name(
            ListType(CARD),
            "the cards of the hand judged (the proposer's hand in play)",
            lambda v: v.hand.cards,
        ),
        "stake": Name(INT, "the hand's stake", lambda v: v.hand.stake),
        "paid": Name(
            ListType(INT), "what each card bought for the hand cost", lambda v: v.hand.paid
        ),
        "twisted": Name(
            BOOL, "the hand has twisted a card (dealt face up, unpaid)", lambda v: v.hand.twisted
        ),
        "hands": Name(
            INT,
            "how many hands the proposer plays (a split makes two)",
            lambda v: len(v.state.hands[v.seat]),
        ),
        "split_hand": Name(BOOL, "the hand was made by a split", lambda v: v.hand.split),
        "banker_cards": Name(
            ListType(CARD), "the cards of the banker's hand", lambda v: v.banker.cards
        ),
        "offered_to": Name(
            INT,
            "the seat the bank is offered to (-1: none)",
            lambda v: v.state.offer[0] if v.state.offer else -1,
        ),
        "bank_won": Name(
            BOOL,
            "someone has taken the bank for the next hand",
            lambda v: v.state.next_banker is not None,
        ),
        "chips": Name(
            INT,
            "the proposer's balance: its chips off the table (GEN-6)",
            lambda v: v.state.balances[v.seat],
        ),
        "shoe_size": Name(
            INT,
            "the cards of the whole shoe (`banking.packs` packs)",
            lambda v: v.state.shoe or len(v.state.deck),
        ),
        "dealt": Name(
            INT, "the cards dealt since the shoe was last shuffled", lambda v: v.state.dealt
        ),
        "pack_left": Name(INT, "the cards left to deal", lambda v: len(v.state.pack)),
        # the kitty part's (`banking.kitty`): a spec without it has none of these names
        "kitty": Name(
            INT, "the chips in the kitty", lambda v: v.state.kitty, present=kitty_selected
        ),
        "shoot_total": Name(
            INT,
            "the shoot bets laid against the kitty this hand",
            lambda v: v.state.shoot_total,
            present=kitty_selected,
        ),
        "shoot": Name(
            INT,
            "the shoot bets laid on the hand judged",
            lambda v: v.hand.shoot,
            present=kitty_selected,
        ),
    }
)


def checkpoint_scopes(spec: GameSpec) -> dict[str, Scope]:
    """Each move's scope (the names and `move`), and `hand`'s (the names alone)."""
    result = {
        name: NAMES.scope(spec, {"move": move_record_type(move)})
        for name, move in spec.moves.items()
    }
    result["hand"] = NAMES.scope(spec)
    return result
