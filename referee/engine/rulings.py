"""The director's rulings on disputes (issue 16): uphold, rewind, or adjust.

`ruling {dispute: N, decision, note, ...}` is a move of the director (the operator, seat
`DIRECTOR` in the log), handled by the table as a dispute is: logged, in the record and every
replay, signed with the rest. It rules once on dispute N (the version the dispute's move made):
- `uphold`: the verdict stands; nothing changes;
- `rewind {to: V}`: the table is put back as it was at version V, before the move disputed
  (V < the disputed version; for a disputed proposal, V < N). The moves after V stay in the log,
  voided by the ruling: the `rewound` event lists their versions, and versions keep rising. A
  rewind restores everything the moves after V changed: cards, scores, chips, the seed chain (a
  `contribute` after V is void too), an adjustment after V. Not once the game is over: its
  deal's secret is then out, and every shuffle to come would be known;
- `adjust {seat, amount, tally}`: the seat's tally (what the mechanic keeps per seat: a
  `score`, `chips`) changes by `amount`, outside the chip count of GEN-6.
`note`, the director's words, is shown to every seat: the director writes for the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.engine.disputes import MAX_REASON_CHARS, Dispute
from referee.i18n.catalogue import CATALOGUE
from referee.i18n.verdicts import unreadable
from referee.model import JSON, SAFE_INTEGER, Event, Move, Sentence, Violation

RULING = "ruling"
UPHOLD, REWIND, ADJUST = "uphold", "rewind", "adjust"
# the fields each decision takes besides `dispute`, `decision` and `note`
DECISIONS: Mapping[str, tuple[str, ...]] = {
    UPHOLD: (),
    REWIND: ("to",),
    ADJUST: ("seat", "amount", "tally"),
}
COMMON = ("dispute", "decision", "note")
MAX_NOTE_CHARS = MAX_REASON_CHARS
AT = Sentence("move.at", {"type": RULING})
RULING_TEXT = Sentence("move.ruling", {"most": MAX_NOTE_CHARS})


def ruling_text(language: str) -> str:
    """What the move is, for the rulebook."""
    return CATALOGUE.render(RULING_TEXT, language)


@dataclass(frozen=True)
class Decision:
    """A ruling read: on which dispute, what, why, and the decision's own fields."""

    dispute: int
    decision: str
    note: str
    to: int = 0  # rewind
    seat: int = 0  # adjust
    amount: int = 0
    tally: str = ""

    def shown(self) -> dict[str, JSON]:
        """What every seat is told of it."""
        told: dict[str, JSON] = {"dispute": self.dispute, "decision": self.decision}
        told.update({name: getattr(self, name) for name in DECISIONS[self.decision]})
        told["note"] = self.note
        return told


@dataclass(frozen=True)
class Ruled:
    """What a table offers a ruling to rule on: its disputes, its version, its seats, the
    tallies its mechanic keeps, whether its game is over."""

    disputes: Mapping[int, Dispute]
    version: int
    seats: int
    tallies: Sequence[str]
    over: bool


def read_ruling(move: Move, table: Ruled) -> Decision | Violation:
    """The ruling `move` makes, or why it cannot be made (GEN-8)."""
    fields = move.fields
    decision = fields.get("decision")
    if not isinstance(decision, str) or decision not in DECISIONS:
        allowed = ", ".join(f"`{d}`" for d in DECISIONS)
        return _wrong("move.not_one_of", "decision", given=str(decision)[:40], allowed=allowed)
    allowed_fields = (*COMMON, *DECISIONS[decision])
    extra = sorted(set(fields) - set(allowed_fields))
    if extra:
        allowed = ", ".join(f"`{f}`" for f in allowed_fields)
        return unreadable(
            Sentence("move.unknown_field", {"at": AT, "field": extra[0], "allowed": allowed})
        )
    missing = [name for name in allowed_fields if fields.get(name) is None]
    if missing:
        return unreadable(Sentence("move.missing_field", {"at": AT, "field": missing[0]}))
    note = fields["note"]
    if not (isinstance(note, str) and 0 < len(note) <= MAX_NOTE_CHARS and note.isprintable()):
        return unreadable(Sentence("ruling.bad_note", {"at": AT, "most": MAX_NOTE_CHARS}))
    dispute = _dispute(fields["dispute"], table)
    if isinstance(dispute, Violation):
        return dispute
    read = Decision(dispute.number, decision, note)
    if decision == REWIND:
        return _rewind(read, fields["to"], dispute, table)
    if decision == ADJUST:
        return _adjust(read, fields, table)
    return read


def _dispute(number: JSON, table: Ruled) -> Dispute | Violation:
    dispute = table.disputes.get(int(number)) if _integer(number) else None
    if dispute is None:
        return _wrong("ruling.no_dispute", "dispute", given=str(number)[:40])
    if dispute.ruling is not None:
        return unreadable(
            Sentence("ruling.already_ruled", {"dispute": dispute.number, "ruling": dispute.ruling})
        )
    return dispute


def _rewind(read: Decision, to: JSON, dispute: Dispute, table: Ruled) -> Decision | Violation:
    if table.over:
        return unreadable(Sentence("ruling.game_over"), code="game_over")
    before = dispute.version if dispute.version is not None else dispute.number
    if not _integer(to) or not 0 <= to < before:
        return _wrong("ruling.bad_to", "to", given=str(to)[:40], before=before)
    return Decision(read.dispute, read.decision, read.note, to=int(to))


def _adjust(read: Decision, fields: Mapping[str, JSON], table: Ruled) -> Decision | Violation:
    seat, amount, tally = fields["seat"], fields["amount"], fields["tally"]
    if not _integer(seat) or not 0 <= seat < table.seats:
        return unreadable(Sentence("table.unknown_seat", {"seat": str(seat)[:40]}))
    if not _integer(amount) or amount == 0 or abs(amount) > SAFE_INTEGER:
        return _wrong("ruling.bad_amount", "amount", given=str(amount)[:40], most=SAFE_INTEGER)
    if tally not in table.tallies:
        allowed = ", ".join(f"`{t}`" for t in table.tallies) or "none"
        return _wrong("move.not_one_of", "tally", given=str(tally)[:40], allowed=allowed)
    return Decision(
        read.dispute, read.decision, read.note, seat=int(seat), amount=int(amount), tally=tally
    )


def too_much(total: int) -> Violation:
    """An adjustment that would take a tally beyond what a message carries exactly."""
    return _wrong("ruling.bad_amount", "amount", given=str(total)[:40], most=SAFE_INTEGER)


def _integer(value: JSON) -> bool:
    """An integer as a client sends one (a Struct's number is a double: 3.0 is 3)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _wrong(key: str, field: str, **values: JSON) -> Violation:
    at = Sentence("move.at_field", {"at": AT, "field": field})
    return unreadable(Sentence(key, {"at": at, **values}))


# the event each decision makes, which every seat gets
EVENTS = {UPHOLD: "upheld", REWIND: "rewound", ADJUST: "adjusted"}


def ruled(decision: Decision, **more: JSON) -> Event:
    """The event every seat gets: the ruling, with what it did (`more`)."""
    return Event(EVENTS[decision.decision], {**decision.shown(), **more})
