"""The moves a trick-taking table serves, in one table (`MOVES`), and their handlers: the
dealer's discard, and a card played to the trick (what follows it: `flow`).

A handler changes a copy of the state, already judged by the rules of its move's checkpoint:
the rules decide which card may be played; the handlers add no condition of their own. The
expressions a move's effect computes with (`tricks.winner` at `trick_end`, `tricks.owner` and
`tricks.points` at `count`, `tricks.packet` and `tricks.deals` at `setup`) are values, not rules:
no checkpoint but the move's own judges it."""

from __future__ import annotations

from typing import Any

from referee.cards import codes, remove_cards
from referee.engine.mechanic import Move
from referee.mechanics.tricks import flow
from referee.mechanics.tricks.deal import Dealing
from referee.mechanics.tricks.state import TrickState
from referee.model import JSON, Event


def discard(
    table: Dealing,
    s: TrickState,
    seat: int,
    move: dict[str, Any],
    env: dict[str, Any],
    events: list[Event],
) -> None:
    """The dealer's cards go face down; how many are trumps is announced."""
    remove_cards(s.hands[seat], move["cards"])
    s.discard = list(move["cards"])
    announce = table.config.announce
    s.announced = announce(env) if announce is not None else None
    public: dict[str, JSON] = {"seat": seat, "count": len(s.discard)}
    if s.announced is not None:
        public["trumps"] = s.announced
    events.append(Event("discarded", public, {"cards": codes(s.discard)}, frozenset({seat})))
    s.phase, s.to_act = "play", s.leader


def play(
    table: Dealing,
    s: TrickState,
    seat: int,
    move: dict[str, Any],
    env: dict[str, Any],
    events: list[Event],
) -> None:
    """The card to the trick; the next seat plays, or the trick is complete."""
    card = move["card"]
    s.hands[seat].remove(card)
    s.trick.append((seat, card))
    if s.turned_shown and seat == s.turned_seat and card == s.turned:
        turned = table.config.turned
        s.turned_shown = turned is not None and turned.until != "played"
    events.append(Event("played", {"seat": seat, "card": str(card)}))
    if len(s.trick) < s.seats:
        s.to_act = (seat + 1) % s.seats
        return
    flow.end_trick(table, s, events)


# the move table: each move's handler, the fields it reads, the checkpoints that judge it
MOVES: dict[str, Move] = {
    "discard": Move(discard, frozenset({"cards"}), ("discard",)),
    "play": Move(play, frozenset({"card"}), ("play",)),
}
