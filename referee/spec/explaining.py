"""What judging one proposal looked at: each checkpoint whose rules were judged, each rule's
outcome and the context values its condition read (what `Explain` shows, issue 16).

Judging records nothing unless asked. `recording()` opens a record for the judging done inside
it, on this thread or task (a context variable), and `RuleBook.judge` adds each checkpoint it
judges to it. `RuleBook.accepts` is never recorded: it only asks whether rules would hold (a
fix's search, the legal moves), which is not the proposal's judgement.

A mechanic may judge a checkpoint more than once for one proposal; each judgement says its part
(`role`):
- `judged`: the verdict rests on it;
- `tried`: one reading of several the mechanic tried (a meld as each kind it might be), not the
  one it chose (`alternatives`);
- `blind`: judged with a card the proposer may not see replaced by each card it could be, so
  that the rejection does not depend on it (a banker's hidden card, GEN-3): the verdict is the
  union of these (`blind()`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card

JSON = Any

HELD, BROKEN, NOT_APPLICABLE = "held", "broken", "not_applicable"  # a rule's outcome
JUDGED, TRIED, BLIND = "judged", "tried", "blind"  # a judgement's part in the verdict


@dataclass(frozen=True)
class RuleOutcome:
    rule: str
    outcome: str  # HELD, BROKEN, or NOT_APPLICABLE (its `when` did not hold)
    reads: Mapping[str, JSON]  # the context values its condition read, by name, as JSON


@dataclass(frozen=True)
class Judged:
    checkpoint: str
    at: str  # before / after
    rules: tuple[RuleOutcome, ...]
    role: str = JUDGED

    @property
    def broken(self) -> list[str]:
        return [r.rule for r in self.rules if r.outcome == BROKEN]

    def to_data(self) -> dict[str, JSON]:
        return {
            "checkpoint": self.checkpoint,
            "at": self.at,
            "role": self.role,
            "rules": [
                {"rule": r.rule, "outcome": r.outcome, "reads": dict(r.reads)} for r in self.rules
            ],
        }


@dataclass
class Record:
    """The judgements of one proposal, in the order they were made."""

    judgements: list[Judged] = field(default_factory=list)
    _role: str = JUDGED

    def add(self, checkpoint: str, at: str, rules: Iterable[Any], env: Any) -> None:
        """The outcome of each of `rules` (`CompiledRule`s) in `env`."""
        self.judgements.append(
            Judged(checkpoint, at, tuple(_outcome(r, env) for r in rules), self._role)
        )

    def deciding(self) -> list[Judged]:
        """The judgements the verdict rests on: every one but the readings not chosen."""
        return [j for j in self.judgements if j.role != TRIED]


_OPEN: ContextVar[Record | None] = ContextVar("referee_explaining", default=None)


def open_record() -> Record | None:
    """The record judging adds to now, if one is open (the hot path: one lookup)."""
    return _OPEN.get()


@contextmanager
def recording() -> Iterator[Record]:
    record = Record()
    token = _OPEN.set(record)
    try:
        yield record
    finally:
        _OPEN.reset(token)


class Alternatives:
    """Readings tried one after another (`alternatives()`); `choose(i)` names the i-th
    judgement made inside as the one the verdict rests on, the others are `tried`."""

    def __init__(self, record: Record | None) -> None:
        self._record = record
        self._start = len(record.judgements) if record else 0
        self._chosen: int | None = None

    def choose(self, index: int) -> None:
        self._chosen = index

    def __enter__(self) -> Alternatives:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._record is None:
            return
        made = self._record.judgements
        for i in range(self._start, len(made)):
            if i - self._start != self._chosen:
                j = made[i]
                made[i] = Judged(j.checkpoint, j.at, j.rules, TRIED)


def alternatives() -> Alternatives:
    """Readings about to be tried, as a context (`with alternatives() as tried:`); closed, each
    judgement made inside but the chosen one is marked `tried`. (A class, not a generator: the
    meld reader opens one for every reading, explained or not.)"""
    return Alternatives(_OPEN.get())


@contextmanager
def blind() -> Iterator[None]:
    """Judgements made inside are `blind`: with a hidden card replaced by each it could be."""
    record = _OPEN.get()
    if record is None:
        yield
        return
    record._role = BLIND
    try:
        yield
    finally:
        record._role = JUDGED


def _outcome(rule: Any, env: Any) -> RuleOutcome:
    reads = {
        name: plain(_read(env[name], rule.fields_read.get(name)))
        for name in sorted(rule.reads)
        if name in env
    }
    if rule.when is not None and not rule.when(env):
        return RuleOutcome(rule.spec.id, NOT_APPLICABLE, reads)
    return RuleOutcome(rule.spec.id, HELD if rule.require(env) else BROKEN, reads)


def _read(value: Any, fields: frozenset[str] | None) -> Any:
    """`value` as read: only the fields read of a record read field by field."""
    if fields is None or not isinstance(value, Mapping):
        return value
    return {name: value[name] for name in sorted(fields) if name in value}


def plain(value: Any) -> JSON:
    """A context value as JSON: a card as its code, lists as lists, records as objects."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)
