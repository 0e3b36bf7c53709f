"""What the parts of the rummy mechanic (a turn, the take search, claims, the legal moves) need
of the mechanic: its compiled spec and its judging. `RummyMechanic` is one; the parts name this
protocol, never the mechanic, so none of them imports the module that assembles them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from referee.cards import Card
from referee.engine.mechanic import Judgement
from referee.mechanics.context import Builder
from referee.mechanics.rummy.config import RummyConfig
from referee.mechanics.rummy.contexts import Judging
from referee.mechanics.rummy.melds import MeldReader
from referee.mechanics.rummy.state import RummyState
from referee.spec.rules import RuleBook
from referee.spec.schema import GameSpec


class RummyTable(Protocol):
    spec: GameSpec
    rules: RuleBook
    move_context: Builder[Judging]  # what every move's rules read (`contexts.COMMON`)
    config: RummyConfig
    reader: MeldReader
    pack: list[Card]
    distinct: list[Card]  # the cards a fix may offer

    def apply(
        self,
        work: RummyState,
        seat: int,
        move_type: str,
        move: dict[str, Any],
        mend: bool = False,
        kept: Any = None,
    ) -> Judgement[RummyState]:
        """Judge a move and apply it to `work`, a copy the caller may throw away."""

    def judge(
        self, state: RummyState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> Judgement[RummyState]:
        """Judge a proposal on a copy of `state`."""

    def accepts(
        self, state: RummyState, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> bool:
        """Would `judge` accept the move?"""

    def context(self, state: RummyState, seat: int, move_type: str) -> dict[str, Any]:
        """What the rules of `move_type` read of the table and `seat`."""
