"""What a mechanic is: the generic, reusable part of a family of games that a spec selects.

A mechanic owns its state type, the checkpoints its rules can judge (with their scopes), the
effects of moves, and the views. Everything game-specific comes from the spec.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from referee.model import JSON, Event, Violation
from referee.spec.schema import GameSpec


@dataclass
class Judgement:
    """The result of judging one move: violations (then `state` is None) or the new state."""

    violations: list[Violation] = field(default_factory=list)
    state: Any = None
    events: list[Event] = field(default_factory=list)
    pending: bool = False  # accepted into the log, its effect awaiting others (a claim, TD-4)

    @property
    def accepted(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class Deal:
    """How a table starts: seats, dealer, options, and either a seed or a stacked deal."""

    seats: int
    dealer: int
    options: Mapping[str, Any]
    seed: str  # the seed chain's first link (hex, secret): `chance.shuffle` keys every shuffle by it
    stacked: Mapping[str, Any] | None
    scores: Mapping[int, int] | None = None
    balances: Mapping[int, int] | None = None
    salt: str = ""  # the table's secret salt for the deck commitments (GEN-5)


class Mechanic(ABC):
    name: ClassVar[str]
    sections: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    @abstractmethod
    def new_state(self, deal: Deal) -> Any:
        """The state after the deal; raises SetupError for a stacked deal that does not fit."""

    @abstractmethod
    def judge(self, state: Any, seat: int, move_type: str, move: Mapping[str, Any]) -> Judgement:
        """Judge a parsed move on a copy of `state`; never changes `state` itself."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, JSON]:
        """What `seat` may see (None: a spectator, ADJUDICATOR: everything)."""

    def legal(self, state: Any, seat: int) -> dict[str, JSON]:
        """The concrete moves `seat` may make now, where they are few: move type -> its choices
        (`{}`: the move without fields). Each is judged as if proposed; nothing is applied."""
        return {}

    @abstractmethod
    def is_over(self, state: Any) -> bool:
        """True when no move can be accepted any more."""

    @abstractmethod
    def commitment(self, state: Any) -> str:
        """The commitment (hash) of the deck being played, revealed when its hand ends."""

    def link(self, state: Any) -> str:
        """The seed chain's current link, which the state's shuffles are keyed by."""
        link: str = state.seed
        return link

    def reseed(self, state: Any, link: str) -> Any:
        """A copy of `state` whose later shuffles are keyed by `link` (entropy was mixed in)."""
        copy = state.clone()
        copy.seed = link
        return copy

    def close_window(self, state: Any) -> Judgement | None:
        """Close an open claim window (its deadline passed); None when none is open."""
        return None

    def open_window(self, state: Any) -> tuple[int, int] | None:
        """The open claim window's number and length in milliseconds, if one is open."""
        return None

    def has_windows(self, options: Mapping[str, Any]) -> bool:
        """Can a table with these options open claim windows at all?"""
        return False

    def describe(self) -> dict[str, JSON]:
        return {}
