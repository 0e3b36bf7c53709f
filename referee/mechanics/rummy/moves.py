"""The rummy move table: each move type's handler (a `Turn`'s), the fields it always reads, and
the checkpoints whose rules judge it.

Every move is judged at its own checkpoint, before its effects and after them
(`RummyMechanic.apply`). The handlers judge more on the way: a move taking the top discard, the
`take` checkpoint (`Turn._check_take`); a move laying cards, the checkpoint of each meld kind the
cards may be read as (`MeldReader.read_new`, `read_layoff`), and a steal, the kind of the meld it
takes the joker from (`MeldReader.wild_places`). A meld kind's checkpoint is named by the spec
(`trio`, `sequence`): the table says `MELD_KINDS` for all of them. A claim (`take_discard` or
`go_out` while a claim window is open) is judged as the same move is, its `before` rules once
more when it is recorded; a `pass` is judged at its own checkpoint only.

Not listed, as they judge no proposal but what an accepted one sets off: the `reenter` rules a
hand's end asks of each blown seat (`match.end_hand`), and the moves the take search tries when
the seat next in turn has nothing to draw (`search.void_if_stuck`); each is judged as
its own move, with the checkpoints its row lists.
"""

from __future__ import annotations

from referee.engine.mechanic import Move
from referee.mechanics.rummy.contexts import TAKE
from referee.mechanics.rummy.turn import Turn

# every meld kind's checkpoint (`meld_kinds.*`, named by the spec's kinds)
MELD_KINDS = "meld_kinds.*"

# `pass` answers a claim window and is served there (`claims.answer`), by no turn
MOVES: dict[str, Move] = {
    "draw": Move(Turn.do_draw, judged=("draw",)),
    "take_discard": Move(Turn.do_take_discard, judged=("take_discard", TAKE, MELD_KINDS)),
    "meld": Move(Turn.do_meld, frozenset({"cards"}), ("meld", MELD_KINDS)),
    "layoff": Move(Turn.do_layoff, frozenset({"meld", "cards", "at"}), ("layoff", MELD_KINDS)),
    "discard": Move(Turn.do_discard, frozenset({"card"}), ("discard",)),
    # its fields are all optional: a spec declares the parts of going out its game has
    "go_out": Move(Turn.do_go_out, judged=("go_out", TAKE, MELD_KINDS)),
    "swap_joker": Move(
        Turn.do_swap_joker, frozenset({"meld", "card", "new_meld"}), ("swap_joker", MELD_KINDS)
    ),
    "pass": Move(None, judged=("pass",)),
    "reenter": Move(Turn.do_reenter, judged=("reenter",)),
    "decline": Move(Turn.do_decline, judged=("decline",)),
}
