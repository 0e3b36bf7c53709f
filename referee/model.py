"""Immutable value types shared by the engine, the server, the scenarios and the store.

Everything here converts to and from plain JSON-able data (`to_data` / `from_data`), which is
how moves and verdicts travel over gRPC (as `google.protobuf.Struct`) and how they are stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

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
class Violation:
    """One rule a proposal breaks: the spec rule id, the rulebook ids it cites, the cards, why,
    and how to mend the move where the rules tell (`fix`).

    A fix is data, `{"kind": "play_one_of", "cards": ["7C", "KC"]}`: its kinds and their values
    are listed in `referee.spec.fixes`, their sentences in `referee/i18n/fixes.yaml`. It is left
    out of the hash (a mapping has none), so a violation stays usable as a key.
    """

    rule: str
    message: str
    cites: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    code: str = "rule_broken"
    fix: Mapping[str, JSON] = field(default_factory=dict, hash=False)

    def ids(self) -> set[str]:
        return {self.rule, *self.cites}

    def to_data(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"rule": self.rule, "message": self.message,
                                 "cites": list(self.cites), "cards": list(self.cards),
                                 "code": self.code}
        if self.fix:  # verdicts stored before fixes existed have none: absent means none
            data["fix"] = dict(self.fix)
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Violation:
        return cls(rule=data["rule"], message=data["message"], cites=tuple(data.get("cites", ())),
                   cards=tuple(data.get("cards", ())), code=data.get("code", "rule_broken"),
                   fix=dict(data.get("fix") or {}))


@dataclass(frozen=True)
class Event:
    """Something that happened at the table.

    `data` is public. `secret` holds the fields only the seats in `audience` may see (the card a
    seat drew, for instance); everyone else receives the event without them.
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    secret: Mapping[str, JSON] = field(default_factory=dict)
    audience: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if "kind" in self.data or "kind" in self.secret:  # it would hide the event's own kind
            raise ValueError(f"event `{self.kind}`: `kind` is reserved for the event's kind")

    def seen_by(self, seat: int | None) -> dict[str, JSON]:
        """The event as `seat` may see it (None: a spectator; -1: the adjudicator sees all)."""
        body: dict[str, JSON] = {"kind": self.kind, **dict(self.data)}
        if seat == -1 or (seat is not None and seat in self.audience):
            body.update(self.secret)
        return body

    def to_data(self) -> dict[str, JSON]:
        return {"kind": self.kind, "data": dict(self.data), "secret": dict(self.secret),
                "audience": sorted(self.audience)}

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Event:
        return cls(kind=data["kind"], data=data.get("data", {}), secret=data.get("secret", {}),
                   audience=frozenset(data.get("audience", ())))


ADJUDICATOR = -1  # the pseudo-seat that sees everything (checks, replays, disputes)


class Outcome(str, Enum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    PENDING = "pending"


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to one proposal."""

    outcome: Outcome
    violations: tuple[Violation, ...] = ()
    events: tuple[Event, ...] = ()
    version: int = 0  # the table's version after this verdict (number of accepted moves)

    @property
    def accepted(self) -> bool:
        return self.outcome is Outcome.ACCEPTED

    def rule_ids(self) -> set[str]:
        return {i for v in self.violations for i in v.ids()}

    def to_data(self) -> dict[str, JSON]:
        return {"outcome": self.outcome.value,
                "violations": [v.to_data() for v in self.violations],
                "events": [e.to_data() for e in self.events], "version": self.version}

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> Verdict:
        return cls(outcome=Outcome(data["outcome"]),
                   violations=tuple(Violation.from_data(v) for v in data.get("violations", ())),
                   events=tuple(Event.from_data(e) for e in data.get("events", ())),
                   version=int(data.get("version", 0)))

    @classmethod
    def reject(cls, *violations: Violation, version: int = 0) -> Verdict:
        return cls(Outcome.REJECTED, tuple(violations), (), version)
