"""Immutable value types shared by the engine, the server, the scenarios and the store.

Everything here converts to and from plain JSON-able data (`to_data` / `from_data`), which is
how moves and verdicts travel over gRPC (as `google.protobuf.Struct`) and how they are stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

JSON = Any  # a value made of dict, list, str, int, float, bool, None
# The largest integer a protobuf Struct (a double) carries exactly: every amount, score and
# option value of a table stays within plus or minus this, so every view and verdict can be sent.
SAFE_INTEGER = 2**53 - 1


@dataclass(frozen=True)
class Move:
    """A proposal: a move type from the game's spec and its raw fields (as sent by the client).

    Fields stay in their JSON form; the game parses them against the move's declared fields
    (`referee.engine.moves`), so a malformed move becomes a rejected verdict, not a crash.
    """

    type: str
    fields: Mapping[str, JSON] = field(default_factory=dict)

    def to_data(self) -> dict[str, JSON]:
        return {"type": self.type, **dict(self.fields)}

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Move:
        body = dict(data)
        kind = body.pop("type", "")
        return cls(type=str(kind) if kind is not None else "", fields=body)


@dataclass(frozen=True)
class Sentence:
    """A sentence of the referee's own (not a spec's): its catalogue key (`move.missing_field`)
    and the values it shows, worded in the caller's language when sent (`referee.i18n`). A value
    may be a sentence itself (`{at}`: where in the move), worded in the same language."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, JSON]:
        return {
            "key": self.key,
            "args": {name: _arg_data(value) for name, value in self.args.items()},
        }

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Sentence:
        args = data.get("args") or {}
        return cls(str(data["key"]), {name: _arg_value(value) for name, value in args.items()})


def _arg_data(value: Any) -> JSON:
    return {"sentence": value.to_data()} if isinstance(value, Sentence) else value


def _arg_value(value: JSON) -> Any:
    if isinstance(value, Mapping) and "sentence" in value:
        return Sentence.from_data(value["sentence"])
    return value


@dataclass(frozen=True)
class Violation:
    """One rule a proposal breaks: the spec rule id, the rulebook ids it cites, the cards, why,
    and how to mend the move where the rules tell (`fix`).

    `message` is in English. To word it in another language: a spec rule's sentence with the
    values it showed (`said`), or the referee's own `sentence`.
    A fix is data, `{"kind": "play_one_of", "cards": ["7C", "KC"]}`: its kinds and their values
    are listed in `referee.spec.fixes`, their sentences in `referee/i18n/fixes.yaml`. Mappings
    are left out of the hash (they have none), so a violation stays usable as a key.
    """

    rule: str
    message: str
    cites: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    code: str = "rule_broken"
    said: Mapping[str, str] = field(default_factory=dict, hash=False)
    sentence: Sentence | None = None
    fix: Mapping[str, JSON] = field(default_factory=dict, hash=False)
    # the fix in words, in the language of the request: given when the verdict is sent, from the
    # fix as the seat may see it (`referee.i18n.verdicts.with_hints`); never recorded
    hint: str = field(default="", compare=False)

    def ids(self) -> set[str]:
        return {self.rule, *self.cites}

    def showing(self, cards: tuple[str, ...]) -> Violation:
        """This violation naming `cards` (as `dataclasses.replace` would make it, faster)."""
        return Violation(
            self.rule,
            self.message,
            self.cites,
            cards,
            self.code,
            self.said,
            self.sentence,
            self.fix,
            self.hint,
        )

    def to_data(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "rule": self.rule,
            "message": self.message,
            "cites": list(self.cites),
            "cards": list(self.cards),
            "code": self.code,
        }
        if self.said:
            data["said"] = dict(self.said)
        if self.sentence is not None:
            data["sentence"] = self.sentence.to_data()
        if self.fix:  # verdicts stored before fixes existed have none: absent means none
            data["fix"] = dict(self.fix)
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Violation:
        sentence = data.get("sentence")
        return cls(
            rule=data["rule"],
            message=data["message"],
            cites=tuple(data.get("cites", ())),
            cards=tuple(data.get("cards", ())),
            code=data.get("code", "rule_broken"),
            said=dict(data.get("said") or {}),
            sentence=Sentence.from_data(sentence) if sentence else None,
            fix=dict(data.get("fix") or {}),
            hint=data.get("hint", ""),  # a report's (Adjudicate's), never a record's
        )


@dataclass(frozen=True, init=False)  # its `__init__` is written out: one is made per event
class Event:
    """Something that happened at the table.

    `data` is public. `secret` holds the fields only the seats in `audience` may see (the card a
    seat drew, for instance); everyone else receives the event without them.
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    secret: Mapping[str, JSON] = field(default_factory=dict)
    audience: frozenset[int] = frozenset()

    def __init__(
        self,
        kind: str,
        data: Mapping[str, JSON] | None = None,
        secret: Mapping[str, JSON] | None = None,
        audience: frozenset[int] = frozenset(),
    ) -> None:
        data = {} if data is None else data
        secret = {} if secret is None else secret
        if "kind" in data or "kind" in secret:  # it would hide the event's own kind
            raise ValueError(f"event `{kind}`: `kind` is reserved for the event's kind")
        # a frozen dataclass's fields, set as its generated `__init__` would, only faster
        fields = self.__dict__
        fields["kind"], fields["data"], fields["secret"] = kind, data, secret
        fields["audience"] = audience

    def seen_by(self, seat: int | None) -> dict[str, JSON]:
        """The event as `seat` may see it (None: a spectator; -1: the adjudicator sees all)."""
        body: dict[str, JSON] = {"kind": self.kind, **dict(self.data)}
        if seat == -1 or (seat is not None and seat in self.audience):
            body.update(self.secret)
        return body

    def to_data(self) -> dict[str, JSON]:
        return {
            "kind": self.kind,
            "data": dict(self.data),
            "secret": dict(self.secret),
            "audience": sorted(self.audience),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Event:
        return cls(
            kind=data["kind"],
            data=data.get("data", {}),
            secret=data.get("secret", {}),
            audience=frozenset(data.get("audience", ())),
        )


ADJUDICATOR = -1  # the pseudo-seat that sees everything (checks, replays, disputes)
# the operator ruling on disputes (`referee.engine.rulings`), who sees everything too; a record
# names it `director`
DIRECTOR = ADJUDICATOR
DIRECTOR_NAME = "director"


class Outcome(str, Enum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    PENDING = "pending"


@dataclass(frozen=True, init=False)  # its `__init__` is written out: one is made per proposal
class Verdict:
    """The referee's answer to one proposal."""

    outcome: Outcome
    violations: tuple[Violation, ...] = ()
    events: tuple[Event, ...] = ()
    version: int = 0  # the table's version after this verdict (number of accepted moves)

    def __init__(
        self,
        outcome: Outcome,
        violations: tuple[Violation, ...] = (),
        events: tuple[Event, ...] = (),
        version: int = 0,
    ) -> None:
        # a frozen dataclass's fields, set as its generated `__init__` would, only faster
        fields = self.__dict__
        fields["outcome"], fields["violations"] = outcome, violations
        fields["events"], fields["version"] = events, version

    @property
    def accepted(self) -> bool:
        return self.outcome is Outcome.ACCEPTED

    def rule_ids(self) -> set[str]:
        return {i for v in self.violations for i in v.ids()}

    def to_data(self) -> dict[str, JSON]:
        return {
            "outcome": self.outcome.value,
            "violations": [v.to_data() for v in self.violations],
            "events": [e.to_data() for e in self.events],
            "version": self.version,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Verdict:
        return cls(
            outcome=Outcome(data["outcome"]),
            violations=tuple(Violation.from_data(v) for v in data.get("violations", ())),
            events=tuple(Event.from_data(e) for e in data.get("events", ())),
            version=int(data.get("version", 0)),
        )

    @classmethod
    def reject(cls, *violations: Violation, version: int = 0) -> Verdict:
        return cls(Outcome.REJECTED, tuple(violations), (), version)
