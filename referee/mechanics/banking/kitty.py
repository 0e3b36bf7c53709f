"""The kitty, an optional part of a banking game that its spec selects (`banking.kitty`).

With it, the banker puts up a kitty before anyone bets, players may lay shoot bets against it
on top of their stakes, and the kitty pays or takes each one when its hand is settled
(`banking.kitty.shoot_settle`). Without it (`NoKitty`) every step is a no-op: there is no
kitty phase, no kitty in the view and no shoot bet to settle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from referee.i18n.verdicts import unreadable
from referee.mechanics.banking.state import BankState, Hand
from referee.model import JSON, Event, Sentence, Violation
from referee.spec.rules import SpecExpression

KITTY_PHASE = "kitty"  # the banker puts the kitty up before the first bet
# the names a game with a kitty gives its rules (`kitty`, `shoot_total`, `shoot`) are declared
# with the mechanic's others, in `contexts.py`


class KittyPart(Protocol):
    """What the mechanic asks of its kitty at each step of a hand."""

    def expressions(self) -> list[SpecExpression]: ...
    def ask(self, state: BankState) -> None: ...
    def put_up(
        self, state: BankState, seat: int, amount: int, events: list[Event]
    ) -> Violation | None: ...
    def bet(
        self, state: BankState, seat: int, hand: Hand, move: Mapping[str, Any], events: list[Event]
    ) -> None: ...
    def takes(self, state: BankState, hand: Hand, reason: str, events: list[Event]) -> None: ...
    def settle(
        self,
        state: BankState,
        seat: int,
        hand: Hand,
        env: Callable[[], Mapping[str, Any]],
        events: list[Event],
    ) -> None: ...
    def leave(self, state: BankState, events: list[Event]) -> None: ...
    def shown(self, state: BankState) -> dict[str, JSON]: ...
    def shown_hand(self, hand: Hand) -> dict[str, JSON]: ...


class NoKitty:
    """A banking game without a kitty: every step does nothing."""

    def expressions(self) -> list[SpecExpression]:
        return []

    def ask(self, state: BankState) -> None:
        pass

    def put_up(
        self, state: BankState, seat: int, amount: int, events: list[Event]
    ) -> Violation | None:
        # the spec is refused if it declares the move without the part; kept whole regardless
        return unreadable(Sentence("table.no_move_now", {"type": "kitty"}))

    def bet(
        self, state: BankState, seat: int, hand: Hand, move: Mapping[str, Any], events: list[Event]
    ) -> None:
        pass

    def takes(self, state: BankState, hand: Hand, reason: str, events: list[Event]) -> None:
        pass

    def settle(
        self,
        state: BankState,
        seat: int,
        hand: Hand,
        env: Callable[[], Mapping[str, Any]],
        events: list[Event],
    ) -> None:
        pass

    def leave(self, state: BankState, events: list[Event]) -> None:
        pass

    def shown(self, state: BankState) -> dict[str, JSON]:
        return {}

    def shown_hand(self, hand: Hand) -> dict[str, JSON]:
        return {}


class Kitty:
    """The banker's kitty and the shoot bets laid against it; `shoot_settle` is what the kitty
    pays a hand's shoot bet (negative: the kitty takes it)."""

    def __init__(self, shoot_settle: SpecExpression) -> None:
        self.shoot_settle = shoot_settle

    def expressions(self) -> list[SpecExpression]:
        return [self.shoot_settle]

    def ask(self, state: BankState) -> None:
        """Nobody bets before the banker has put up a kitty (an empty one is renewed)."""
        if state.kitty == 0:
            state.phase, state.to_act = KITTY_PHASE, state.banker

    def put_up(
        self, state: BankState, seat: int, amount: int, events: list[Event]
    ) -> Violation | None:
        """The banker puts up (or tops up) the kitty from its balance; then the bets begin."""
        state.balances[seat] -= amount
        state.kitty += amount
        events.append(
            Event("transfer", {"from": seat, "to": "kitty", "amount": amount, "reason": "kitty"})
        )
        if state.phase == KITTY_PHASE:
            state.phase, state.to_act = "bet", state.players()[0]
        return None

    def bet(
        self, state: BankState, seat: int, hand: Hand, move: Mapping[str, Any], events: list[Event]
    ) -> None:
        """A move's shoot bet, when it has one, goes on the table for `hand`."""
        if "shoot" in move.get("present", ()):
            hand.shoot += move["shoot"]
            state.balances[seat] -= move["shoot"]
            events.append(
                Event(
                    "transfer",
                    {"from": seat, "to": "table", "amount": move["shoot"], "reason": "shoot bet"},
                )
            )

    def takes(self, state: BankState, hand: Hand, reason: str, events: list[Event]) -> None:
        """A hand's shoot bet goes into the kitty (a bust hand, a banker winning at once)."""
        if hand.shoot_on_table:
            state.kitty += hand.shoot_on_table
            events.append(
                Event(
                    "transfer",
                    {
                        "from": "table",
                        "to": "kitty",
                        "amount": hand.shoot_on_table,
                        "reason": reason,
                    },
                )
            )
        hand.shoot_settled = True

    def settle(
        self,
        state: BankState,
        seat: int,
        hand: Hand,
        env: Callable[[], Mapping[str, Any]],
        events: list[Event],
    ) -> None:
        """The kitty pays or takes the shoot bet of a hand settled against the banker (`env`:
        what its expression reads, worked out only when there is a shoot bet to settle)."""
        if not hand.shoot_on_table:
            return
        amount = self.shoot_settle(env())
        state.balances[seat] += hand.shoot_on_table + amount
        state.kitty -= amount
        hand.shoot_settled = True
        events.append(Event("shoot_settled", {"seat": seat, "paid": amount, "kitty": state.kitty}))

    def leave(self, state: BankState, events: list[Event]) -> None:
        """A banker who leaves the bank takes the kitty; the next one puts up a new one."""
        if state.kitty:
            events.append(
                Event(
                    "transfer",
                    {
                        "from": "kitty",
                        "to": state.banker,
                        "amount": state.kitty,
                        "reason": "kitty back to the banker",
                    },
                )
            )
            state.balances[state.banker] += state.kitty
            state.kitty = 0

    def shown(self, state: BankState) -> dict[str, JSON]:
        return {"kitty": state.kitty}

    def shown_hand(self, hand: Hand) -> dict[str, JSON]:
        return {"shoot": hand.shoot}


__all__ = ["KITTY_PHASE", "Kitty", "KittyPart", "NoKitty"]
