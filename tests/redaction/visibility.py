"""The leak oracle: which cards a recipient may know, written from the rules, not from the views.

It reads the full state of a shadow table (the adjudicator's) and says, from the games' visibility
rules alone (GEN-3, PO-3, TA partnerships), which card codes a seat, or a spectator (None), may
see: its own hand, the cards face up on the table, and, once a hand is over, the record of the
finished hand. Nothing here calls a view or the referee's redaction: what it says is what they
are checked against.

Card codes are found in any text by splitting it at every character that is not a letter, a digit,
`_` or `-` and keeping the pieces that are codes of the game's pack (so `TD-4`, a rule id, is
not the ten of diamonds, and `5H5S` is no card).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, pack
from referee.engine.game import Game
from referee.mechanics.banking.state import BankState
from referee.mechanics.rummy.state import RummyState
from referee.mechanics.tricks.state import TrickState
from tests.oracles.pontoon import sees_own_card

Recipient = int | None  # a seat, or None: a spectator
# what is kept of a finished hand: its cards may be back in play (a new deal of the same pack)
HISTORY_KEYS = frozenset({"last_hand", "revealed_deck"})
HISTORY_EVENTS = frozenset({"hand_over", "deck_revealed", "deal_over"})
_PIECES = re.compile(r"[^0-9A-Za-z_-]+")


class CardFinder:
    """The card codes of one game's pack found in texts."""

    def __init__(self, game: Game) -> None:
        spec = game.spec
        self.codes = frozenset(str(c) for c in pack(spec.pack_kind))

    def __call__(self, text: str) -> set[str]:
        return {piece for piece in _PIECES.split(text) if piece in self.codes}

    def in_value(self, value: Any) -> set[str]:
        return {code for text in strings(value) for code in self(text)}


def strings(value: Any) -> Iterator[str]:
    """Every string anywhere in a value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Card):
        yield str(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from strings(item)


# --- what the rules show ------------------------------------------------------------------------


def visible(state: Any, who: Recipient, before: Any = None) -> set[str]:
    """The cards `who` sees at this state of the hand being played (`before`: the state before
    the move that led here, for the cards a move shows on their way back to the pack)."""
    if isinstance(state, RummyState):
        return _rummy(state, who)
    if isinstance(state, BankState):
        return _banking(state, who, before)
    if isinstance(state, TrickState):
        return _tricks(state, who)
    raise AssertionError(f"no visibility oracle for {type(state).__name__}")


def hand_of(state: Any) -> int:
    """Which hand (deal) of the table is being played."""
    return int(state.deal_number if isinstance(state, TrickState) else state.hand_number)


def history(state: Any) -> Any:
    """The finished hand's record the rules reveal (GEN-5): its hands, its deck."""
    return [getattr(state, "last_hand", None), getattr(state, "revealed", None)]


def _seat(state: Any, who: Recipient) -> int | None:
    """`who` if it is one of the table's seats, else None."""
    return who if who is not None and 0 <= who < state.seats else None


def _rummy(state: RummyState, who: Recipient) -> set[str]:
    """Own hand; the melds, the top discard, the turned card and the jokers it makes; every hand
    between hands (PN-24: the hand is scored face up)."""
    seen = {str(c) for meld in state.melds for c in meld.cards}
    seen |= {str(state.turned), *(str(c) for c in state.jokers)}
    if state.discard:
        seen.add(str(state.discard[-1]))
    if (seat := _seat(state, who)) is not None:
        seen |= {str(c) for c in state.hands[seat]}
    if state.phase in ("decide", "over"):
        seen |= {str(c) for hand in state.hands for c in hand}
    return seen


def _banking(state: BankState, who: Recipient, before: BankState | None) -> set[str]:
    """Face-up cards; a seat's own face-down cards, but the banker's first, which it sees only
    from its turn on (PO-3); cards shown on their way under the pack (busts, burns, PO-5)."""
    seen: set[str] = set()
    for holder, hands in enumerate(state.hands):
        for index, hand in enumerate(hands):
            for place, (card, up) in enumerate(zip(hand.cards, hand.face_up)):
                banker_first = holder == state.banker and index == 0 and place == 0
                own = who == holder and sees_own_card(state.phase, banker_first)
                if up or own:
                    seen.add(str(card))
    if before is not None:  # what went under the pack was shown first (a bust, a burn)
        seen |= {str(c) for c in _put_under(before.pack, state.pack)}
    return seen


def _put_under(before: list[Any], after: list[Any]) -> list[Any]:
    """The cards a move put under the pack: it takes cards from the top (the end of the list)
    and slides cards under it (at the start), so what is left of `before` ends `after`."""
    for kept in range(len(before), -1, -1):
        if after[len(after) - kept :] == before[:kept]:
            return after[: len(after) - kept]
    return list(after)


def _tricks(state: TrickState, who: Recipient) -> set[str]:
    """Own hand (not the partner's); every card played this deal; the card turned at the deal
    while face up; the dealer's own discard."""
    seen = {str(c) for _, c in state.trick}
    if state.turned is not None and state.turned_shown:
        seen.add(str(state.turned))
    seen |= {str(c) for trick in state.tricks for _, c in trick.plays}
    if (seat := _seat(state, who)) is not None:
        seen |= {str(c) for c in state.hands[seat]}
        if who == state.dealer:
            seen |= {str(c) for c in state.discard}
    return seen


# --- what a recipient knows, version by version ---------------------------------------------------


@dataclass
class Knowledge:
    """For one recipient: the cards it may know at each version of the table.

    Within a hand what was once seen stays known (a covered discard, a bust hand). A new hand
    starts afresh: its cards are the same codes dealt again. The move that ends a hand may still
    name the finished hand's cards; a finished hand's record (`history`) may name its own.
    """

    who: Recipient
    finder: CardFinder
    live: list[set[str]] = field(default_factory=list)  # version -> cards of the hand in play
    allowed: list[set[str]] = field(default_factory=list)  # version -> what a message may name
    revealed: list[set[str]] = field(default_factory=list)  # version -> the finished hands' record
    hands: list[int] = field(default_factory=list)

    def advance(self, state: Any, before: Any = None) -> None:
        """Note the state reached by the next accepted move (or the deal: version 0)."""
        seen = visible(state, self.who, before)
        record = self.finder.in_value(history(state))
        if self.live and hand_of(state) == self.hands[-1]:
            live = self.live[-1] | seen
            allowed = live
        else:
            live = seen
            allowed = live | (self.live[-1] if self.live else set())
        self.live.append(live)
        self.allowed.append(allowed)
        self.revealed.append(record | (self.revealed[-1] if self.revealed else set()))
        self.hands.append(hand_of(state))

    def leaks(
        self, message: Iterable[tuple[bool, str]], version: int, named: Iterable[str] = ()
    ) -> set[str]:
        """The cards a message (its texts, each flagged as part of a finished hand's record or
        not) names that this recipient may not know at `version`."""
        allowed = self.allowed[version] | set(named)
        found: set[str] = set()
        for in_history, text in message:
            may = allowed | self.revealed[version] if in_history else allowed
            found |= self.finder(text) - may
        return found


def texts(value: Any, in_history: bool = False) -> Iterator[tuple[bool, str]]:
    """Every text of a message turned into data (`MessageToDict`), flagged when it is part of a
    finished hand's record (a view's `last_hand`, an event that reveals the hand just ended)."""
    if isinstance(value, str):
        yield in_history, value
    elif isinstance(value, dict):
        if value.get("kind") in HISTORY_EVENTS:
            in_history = True
        for key, item in value.items():
            yield in_history, str(key)
            yield from texts(item, in_history or key in HISTORY_KEYS)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item, in_history)
