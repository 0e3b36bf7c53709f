"""Re-adjudication: an archived game record judged again under other rules (a corrected rule, a
house rule), beside the rules it is compared with.

Two questions per record. Does its outcome change: each rule set replays the record as
Adjudicate does (`replay`: its first illegal move, or its final full view), and the two answers
are compared. And which move is judged differently first: the record's moves are proposed to a
table of each rule set side by side, and the first whose verdicts differ (the outcome, the rules
broken, or the events) is reported with both verdicts; after it the tables may hold different
states, so the side-by-side walk stops there.

A record gives no salt for its deck commitments (the table draws one): both sides get the same,
so that what they commit to differs only when their rules do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from referee.adjudication.replay import replay
from referee.engine import chance
from referee.engine.table import Table
from referee.model import JSON, Outcome, Verdict
from referee.scenario.format import CloseWindowStep, MoveStep, Scenario, ScenarioError, Setup
from referee.scenario.target import InProcessTarget, game_named, table_setup


class Change(Enum):
    UNCHANGED = "unchanged"  # the same first illegal move, or the same result
    CHANGED = "changed"  # another result, or another first illegal move
    NO_LONGER_LEGAL = "no longer legal"  # legal under the rules before, not under the others


@dataclass(frozen=True)
class Difference:
    """The first move whose verdicts differ: its step (counted from 0, as Adjudicate's), seat
    and move, and the verdict under each rule set."""

    step: int
    seat: int
    move: Mapping[str, JSON]
    before: Mapping[str, JSON]
    after: Mapping[str, JSON]


@dataclass(frozen=True)
class Readjudication:
    change: Change
    before: Mapping[str, JSON]  # Adjudicate's answer under the rules before
    after: Mapping[str, JSON]  # ... and under the others
    difference: Difference | None  # None: every move judged alike

    def to_data(self) -> dict[str, JSON]:
        return {
            "change": self.change.value,
            "before": dict(self.before),
            "after": dict(self.after),
            "difference": None if self.difference is None else vars(self.difference),
        }


def readjudicate(
    before: Mapping[str, Any], after: Mapping[str, Any], scenario: Scenario
) -> Readjudication:
    """`scenario` (a game record) under the games `before` and the games `after`. A record that
    the rules before cannot set up raises ScenarioError; one that only the others cannot set up
    is no longer legal."""
    salt = chance.new_salt()
    sides = SaltedTarget(before, salt), SaltedTarget(after, salt)
    judged_before = replay(before, scenario, sides[0])
    try:
        judged_after = replay(after, scenario, sides[1])
    except ScenarioError as refused:  # the other rules refuse its setup (an option gone, say)
        judged_after = {"legal": False, "setup": refused.message}
        return Readjudication(
            _change(judged_before, judged_after), judged_before, judged_after, None
        )
    return Readjudication(
        _change(judged_before, judged_after),
        judged_before,
        judged_after,
        first_difference(*sides, scenario),
    )


class SaltedTarget(InProcessTarget):
    """Tables made with `salt` where their setup has none."""

    def __init__(self, games: Mapping[str, Any], salt: str) -> None:
        super().__init__(games)
        self.salt = salt

    def create_table(self, setup: Setup) -> Any:
        made = table_setup(setup)
        salted = made if made.salt else replace(made, salt=self.salt)
        return Table.create(game_named(self.games, setup.game), salted)


def _change(before: Mapping[str, JSON], after: Mapping[str, JSON]) -> Change:
    if before == after:
        return Change.UNCHANGED
    if before["legal"] and not after["legal"]:
        return Change.NO_LONGER_LEGAL
    return Change.CHANGED


def first_difference(
    before: InProcessTarget, after: InProcessTarget, scenario: Scenario
) -> Difference | None:
    """The first move of `scenario` judged differently on the two targets, if any."""
    targets = (before, after)
    tables = [target.create_table(scenario.setup) for target in targets]
    for step in scenario.steps:
        if isinstance(step, CloseWindowStep):
            for target, table in zip(targets, tables, strict=True):
                target.close_window(table)
        if not isinstance(step, MoveStep):
            continue
        verdicts = [
            target.propose(table, step.seat, step.move)
            for target, table in zip(targets, tables, strict=True)
        ]
        if _judged(verdicts[0]) != _judged(verdicts[1]):
            return Difference(
                step.where.step - 1,
                step.seat,
                step.move.to_data(),
                verdicts[0].to_data(),
                verdicts[1].to_data(),
            )
        if verdicts[0].outcome is Outcome.REJECTED:  # both: the record ends there for both
            return None
    return None


def _judged(verdict: Verdict) -> tuple[JSON, ...]:
    """What a verdict says of the move: its outcome, the rules it broke (their ids: a message
    worded otherwise is the same judgement), and the events."""
    data = verdict.to_data()
    broken = [(v["rule"], v.get("code")) for v in data["violations"]]
    return data["outcome"], broken, data["events"]
