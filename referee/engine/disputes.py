"""A dispute: a seat calls the director on a past verdict of its table (issue 16).

`dispute {version: N, reason}` disputes the accepted move that made version N; `dispute {proposal: ID,
reason}` the proposal sent with move id ID, accepted or not (the table keeps no move ids: the
service checks that one exists). Any seat may raise one, the game over or not. It is a move of the
table, as `contribute` is, so it is in the log, the record and every replay; it changes nothing
of the game. Every seat is told it was raised (the event `disputed`); its reason, the seat's own
words, goes to that seat and the director alone (the record keeps it), as a word in the
director's ear: free text may name any card.

Disputes are bounded (issue 25): a seat may have `Bounds.per_seat` open at once (not yet ruled
on), a table `Bounds.per_table`, and a move disputed and still open is not disputed again; each
refused as GEN-8, changing nothing. A view lists the open disputes and counts the ruled ones:
a seat sending disputes in a loop cannot grow the table's views, nor its log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.i18n.catalogue import CATALOGUE
from referee.i18n.verdicts import unreadable
from referee.model import JSON, Event, Move, Sentence, Violation

DISPUTE = "dispute"
MAX_REASON_CHARS = 500
MAX_MOVE_ID_CHARS = 128  # as a proposal's (`referee.service`)
FIELDS = ("version", "proposal", "reason")


@dataclass(frozen=True)
class Bounds:
    """How many disputes may be open at once (raised, not yet ruled on): a seat's, a table's."""

    per_seat: int = 3
    per_table: int = 16


BOUNDS = Bounds()
DISPUTE_TEXT = Sentence("move.dispute", {"most": MAX_REASON_CHARS, "open": BOUNDS.per_seat})


@dataclass(frozen=True)
class Dispute:
    """A dispute a table keeps: its number (the version its move made), the seat that raised
    it, what it disputes (an accepted move's `version`, or a proposal's move id), and the
    version of the director's ruling on it once there is one. Its reason stays in the log."""

    number: int
    seat: int
    version: int | None = None
    proposal: str | None = None
    ruling: int | None = None

    def seen(self) -> dict[str, JSON]:
        """As every view shows it while it is open (the reason is not in it)."""
        shown: dict[str, JSON] = {"dispute": self.number, "seat": self.seat}
        if self.version is not None:
            shown["version"] = self.version
        if self.proposal is not None:
            shown["proposal"] = self.proposal
        return shown


def dispute_move(language: str) -> dict[str, JSON]:
    """The move as DescribeGame lists it beside the game's own."""
    text = {lang: CATALOGUE.render(DISPUTE_TEXT, lang) for lang in CATALOGUE.languages}
    return {
        "type": DISPUTE,
        "fields": list(FIELDS),
        "typed_fields": [
            {"name": "version", "type": "int", "optional": True},
            {"name": "proposal", "type": "text", "optional": True},
            {"name": "reason", "type": "text", "optional": False},
        ],
        "text": text,
        "sentence": CATALOGUE.render(DISPUTE_TEXT, language),
    }


def read_dispute(move: Move, version: int) -> dict[str, Any] | Violation:
    """What `move` disputes (`{"version": N}` or `{"proposal": ID}`, a move id) and why (`reason`), or why
    it cannot be read (GEN-8). `version`: the table's now."""
    at = Sentence("move.at", {"type": DISPUTE})
    extra = sorted(set(move.fields) - set(FIELDS))
    if extra:
        allowed = ", ".join(f"`{f}`" for f in FIELDS)
        return unreadable(
            Sentence("move.unknown_field", {"at": at, "field": extra[0], "allowed": allowed})
        )
    reason = move.fields.get("reason")
    if reason is None:
        return unreadable(Sentence("move.missing_field", {"at": at, "field": "reason"}))
    if not _text(reason, MAX_REASON_CHARS):
        return unreadable(Sentence("dispute.bad_reason", {"at": at, "most": MAX_REASON_CHARS}))
    named = [f for f in ("version", "proposal") if f in move.fields]
    if len(named) != 1:
        return unreadable(Sentence("dispute.one_of", {"at": at}))
    if named == ["proposal"]:
        move_id = move.fields["proposal"]
        if not _text(move_id, MAX_MOVE_ID_CHARS):
            return unreadable(
                Sentence("dispute.bad_move_id", {"at": at, "most": MAX_MOVE_ID_CHARS})
            )
        return {"proposal": move_id, "reason": reason}
    disputed = move.fields["version"]
    if isinstance(disputed, bool) or not isinstance(disputed, int) or not 1 <= disputed <= version:
        return unreadable(
            Sentence("dispute.bad_version", {"at": at, "given": str(disputed), "latest": version})
        )
    return {"version": disputed, "reason": reason}


def refused(
    seat: int, read: dict[str, Any], open_now: Sequence[Dispute], bounds: Bounds
) -> Violation | None:
    """Why the dispute `read` may not be raised now, with the disputes `open_now`: what it
    disputes is disputed already, or the seat, or the table, has as many open as `bounds` let."""
    for dispute in open_now:
        if _same_move(dispute, read):
            sentence = Sentence("dispute.already_open", {"dispute": dispute.number})
            return unreadable(sentence, code="already_disputed")
    if sum(dispute.seat == seat for dispute in open_now) >= bounds.per_seat:
        sentence = Sentence("dispute.seat_bound", {"most": bounds.per_seat})
        return unreadable(sentence, code="too_many_disputes")
    if len(open_now) >= bounds.per_table:
        sentence = Sentence("dispute.table_bound", {"most": bounds.per_table})
        return unreadable(sentence, code="too_many_disputes")
    return None


def _same_move(dispute: Dispute, read: dict[str, Any]) -> bool:
    if dispute.version is not None:
        return dispute.version == read.get("version")
    return dispute.proposal == read.get("proposal")


def kept(seat: int, number: int, read: dict[str, Any]) -> Dispute:
    """The dispute `read_dispute` read, as the table keeps it."""
    return Dispute(number, seat, read.get("version"), read.get("proposal"))


def disputed(seat: int, number: int, read: dict[str, Any]) -> Event:
    """The event every seat gets: that `seat` raised dispute `number` (the version it made),
    and on what; the reason for the seat itself alone."""
    about = {k: v for k, v in read.items() if k != "reason"}
    return Event(
        "disputed",
        {"seat": seat, "dispute": number, **about},
        secret={"reason": read["reason"]},
        audience=frozenset({seat}),
    )


def _text(value: Any, most: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= most and value.isprintable()
