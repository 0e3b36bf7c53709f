"""`referee play --bot legal`: the bot of last resort (`legal_bot`) plays every seat of any spec,
knowing no mechanic: the seat to move is one whose view lists a legal move of the game (the
public view's `to_act` first), and the table is played to its end, or `--hands` hands for a
game that goes on (a banking table). It is also the driver of a mechanic whose plugin has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.plugins.legal_bot import game_moves
from referee.plugins.play_turns import (
    MAX_PROPOSALS,
    GaveUp,
    PlayContext,
    Referee,
    give_up,
    play_turn,
)
from referee.plugins.transcript import hands_over

# what the closing line shows of the public view, where it has them
SUMMARY_KEYS = ("winner", "scores", "totals", "balances", "on_table")


def play(context: PlayContext) -> int:
    """The table played to its end, or `--hands` hands; 0 when it got there."""
    args = context.args
    chips = {seat: args.chips for seat in range(args.bots)}
    referee = context.open_table(balances=chips)
    print(
        f"{context.game}: {args.bots} bots (legal moves), seed {args.seed}, "
        f"commitment {referee.commitment[:16]}…"
    )
    proposals, over = 0, False
    try:
        while proposals < MAX_PROPOSALS and not _enough(referee.view(None), args.hands):
            seat = _to_move(referee, args.bots)
            if seat is None:
                over = True
                break
            proposals += play_turn(referee, seat, iter(()), args.quiet)
        public = referee.view(None)
    finally:
        referee.close()
    enough = _enough(public, args.hands)
    hands = f"after {hands_over(public) if 'hand_over' in public else '?'} hand(s)"
    ending = "game over" if over else hands if enough else f"stopped {hands}"
    shown = "; ".join(f"{k} {public[k]}" for k in SUMMARY_KEYS if k in public)
    print(f"{ending}: {shown}; proposals {proposals}")
    return 0 if over or enough else 1


def _to_move(referee: Referee, seats: int) -> int | None:
    """A seat with a legal move of the game: the seat to act if it has one, else the first that
    has. None when no seat may move at all: the game is over. When seats may only make the
    table's own moves (`contribute`), nobody can go on: the seat to act, whose turn says why,
    or GaveUp."""
    legal = {seat: referee.legal(seat) for seat in range(seats)}
    movers = [seat for seat, moves in legal.items() if game_moves(moves, referee.moves)]
    public = referee.view(None)
    to_act = public.get("to_act")
    if movers:
        return to_act if to_act in movers else movers[0]
    if not any(legal.values()):
        return None
    if isinstance(to_act, int):  # its turn tells why it cannot move
        return to_act
    raise GaveUp(give_up(None, "has a legal move", public, None))


def _enough(public: Mapping[str, Any], hands: int) -> bool:
    """`hands` hands are over (a table that goes on; a game that ends does so by itself)."""
    return "hand_over" in public and hands_over(public) >= hands
