"""A seat's token reissued (issue 27): the operator gave the seat a new secret token, its old
one refused from then on.

`reissue {seat}` is a move of the director (seat `DIRECTOR` in the log), as a ruling is, so that
the act is in the record and every replay, and every process sharing the store learns of it as
it learns of any move (the tokens themselves are the store's: no token, nor its hash, is in the
move). It changes nothing of the game: no clock restarts, a rewind never voids it. Every seat is
told (the event `reissued`): a seat whose token stops working knows why.
"""

from __future__ import annotations

from referee.i18n.verdicts import unreadable
from referee.model import JSON, Event, Move, Sentence, Violation

REISSUE = "reissue"
FIELDS = ("seat",)


def read_reissue(move: Move, seats: int) -> int | Violation:
    """The seat whose token `move` reissues, or why it cannot be read (GEN-8)."""
    extra = sorted(set(move.fields) - set(FIELDS))
    if extra:
        at = Sentence("move.at", {"type": REISSUE})
        allowed = ", ".join(f"`{f}`" for f in FIELDS)
        return unreadable(
            Sentence("move.unknown_field", {"at": at, "field": extra[0], "allowed": allowed})
        )
    seat: JSON = move.fields.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        return unreadable(
            Sentence("table.unknown_seat", {"seat": str(seat)[:40]}), code="unknown_seat"
        )
    return seat


def reissued(seat: int) -> Event:
    """The event every seat gets."""
    return Event("reissued", {"seat": seat})


def director_only() -> Violation:
    return unreadable(Sentence("reissue.director_only"), code="director_only")
