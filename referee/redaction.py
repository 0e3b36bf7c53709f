"""What a seat is sent: the one redaction point between a table and the seats (issue 10).

A table's view for a seat (`Table.view(seat)`, each mechanic's `views`, GEN-3) defines what that
seat may see; the mechanic says the cards in it (`Mechanic.knowable`). Everything else the
referee sends a seat is cut to it here:
- an event shows its secret fields only to its audience (`events_for`): a Propose verdict's
  events, a Watch stream's moves;
- a rejection names only cards the seat may know in the hand being played or named in its own
  move (`verdict_for`): a violation's `cards` lose every other card, its message shows them as
  `??`, and so does its `fix` (a list of cards loses them, a text shows them as `??`).
  The mechanics already name only such cards; this is the guarantee, whatever a rule says;
- an explanation of a seat's own proposal shows the values its rules read with every card the
  seat did not know then as `??` (`cut_cards`, `referee.service.explanations`).

The cards a seat may know are the mechanic's answer from the state (`Mechanic.knowable`: its
hand, the public cards, what it was shown), kept once a state (`Table.per_state`). Until issue 28
they were read off the seat's whole rendered view (every card code in it, the finished hand's
record aside), which cost a view a state and a walk of it on a rejection's path, and counted as
known any card code a client wrote into the table's labels (a seat's name, a disputed move id).
tests/redaction/test_knowable.py keeps that reading as the oracle the mechanics' answers must
equal on every shipped game.

Two answers need no cut: an error status carries only the request's own words (its quotes are
shortened, `calls/status.py`); an Adjudicate report goes to whoever sent the record, which
holds its deal or seed: the author already knows every card of it.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from dataclasses import replace
from functools import lru_cache

from referee.cards import CODE_IN_TEXT, Card, PackKind, codes_in
from referee.engine.table import Table
from referee.errors import CardError
from referee.model import JSON, Event, Move, Verdict, Violation

HIDDEN = "??"


def events_for(events: Iterable[Event], seat: int | None) -> list[dict[str, JSON]]:
    """The events as `seat` may see them (None: a spectator)."""
    return [event.seen_by(seat) for event in events]


def verdict_for(table: Table, seat: int, move: Move, verdict: Verdict) -> Verdict:
    """`verdict` as the proposing `seat` may see it: its violations name no card hidden from it."""
    if not any(v.cards or v.message or v.fix for v in verdict.violations):
        return verdict
    kind = PackKind(table.game.spec.pack_kind)
    shown = _Shown(knowable(table, seat), move, kind)
    violations = tuple(_violation_for(v, shown, kind) for v in verdict.violations)
    if violations == verdict.violations:
        return verdict
    return Verdict(verdict.outcome, violations, verdict.events, verdict.version)


def cards_seen(table: Table, seat: int, kind: PackKind, move: Move) -> frozenset[str]:
    """The cards `seat` sees at `table` as it is, and those its own `move` names: all that an
    answer to that move may name (its verdict, its explanation: `referee.service.explanations`)."""
    return knowable(table, seat) | cards_in(move.to_data(), kind)


class _Shown:
    """`cards_seen`, asked card by card: the move's cards are read only when a card the seat
    does not know is asked of (a rejection most often names cards of the seat's own hand)."""

    def __init__(self, known: frozenset[str], move: Move, kind: PackKind) -> None:
        self.known, self.move, self.kind = known, move, kind
        self.named: set[str] | None = None

    def __contains__(self, card: object) -> bool:
        if card in self.known:
            return True
        if self.named is None:
            self.named = cards_in(self.move.to_data(), self.kind)
        return card in self.named


def cut_cards(value: JSON, shown: Container[str], kind: PackKind) -> JSON:
    """`value` (a value a rule read, as JSON) with every card not `shown` as `??`, in place:
    a list keeps its length, a text its words."""
    if isinstance(value, Mapping):
        return {key: cut_cards(item, shown, kind) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [cut_cards(item, shown, kind) for item in value]
    if isinstance(value, str):
        canonical = _canonical(value, kind)
        if canonical is not None:
            return value if canonical in shown else HIDDEN
        return _cut_text(value, shown, kind)
    return value


def _violation_for(violation: Violation, shown: Container[str], kind: PackKind) -> Violation:
    cards = tuple(c for c in violation.cards if _may_name(c, shown, kind))
    message = _cut_text(violation.message, shown, kind)
    fix = _cut_fix(violation.fix, shown, kind)
    if any(isinstance(v, list) and not v for v in fix.values()):
        fix = {}  # every card it offered is hidden: it offers nothing
    if cards == violation.cards and message == violation.message and fix == violation.fix:
        return violation
    return replace(violation, message=message, cards=cards, fix=fix)


def _may_name(text: str, shown: Container[str], kind: PackKind) -> bool:
    """Is `text` a card `shown`, or no card at all?"""
    code = _canonical(text, kind)
    return code is None or code in shown


def _cut_text(text: str, shown: Container[str], kind: PackKind) -> str:
    """`text` with every card code it quotes that is not `shown` as `??`."""
    return CODE_IN_TEXT[kind].sub(
        lambda m: m.group(0) if _canonical(m.group(0), kind) in shown else HIDDEN, text
    )


def _cut_fix(value: JSON, shown: Container[str], kind: PackKind) -> JSON:
    """A fix (or a value in it) naming only `shown` cards: a list loses the others, a text
    shows them as `??` (a card code is a text quoting itself)."""
    if isinstance(value, Mapping):
        return {key: _cut_fix(item, shown, kind) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [
            _cut_fix(item, shown, kind)
            for item in value
            if not isinstance(item, str) or _may_name(item, shown, kind)
        ]
    if isinstance(value, str):
        return _cut_text(value, shown, kind)
    return value


def knowable(table: Table, seat: int | None) -> frozenset[str]:
    """The cards `seat` may know at `table` as it is (None: a spectator), as its mechanic says,
    once a state (a seat's rejections in a row are all cut to the same cards)."""
    return table.per_state(
        ("knowable", seat), lambda: table.game.mechanic.knowable(table.state, seat)
    )


def cards_in(value: JSON, kind: PackKind, skip: frozenset[str] = frozenset()) -> set[str]:
    """The canonical code of every card a value names: a card code, or a text that quotes one."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(_quoted(item, kind))
            found.add(_canonical(item, kind) or HIDDEN)
        elif isinstance(item, Mapping):
            stack.extend(v for k, v in item.items() if k not in skip)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _quoted(text: str, kind: PackKind) -> tuple[str, ...]:
    """The canonical codes of the cards `text` quotes."""
    if len(text) > CACHED_TEXT:
        return tuple(codes_in(text, kind))
    return _quoted_short(text, kind)


def _canonical(text: str, kind: PackKind) -> str | None:
    """The card `text` is the code of, canonical, or None when it is none."""
    code = text.strip()
    return _canonical_short(code, kind) if len(code) <= LONGEST_CODE else None


LONGEST_CODE = 3  # `10H`


# Both are pure and a view repeats its texts, so short ones are answered from bounded caches
# (a long text, which a client could send to fill them, is read each time)
CACHED_TEXT = 200


@lru_cache(maxsize=4096)
def _quoted_short(text: str, kind: PackKind) -> tuple[str, ...]:
    return tuple(codes_in(text, kind))


@lru_cache(maxsize=4096)
def _canonical_short(text: str, kind: PackKind) -> str | None:
    try:
        return str(Card.parse(text, kind))
    except CardError:
        return None
