"""Adjudication: replay a game record and find its first illegal move, or confirm its result.

A record is a scenario file without expectations (SCENARIOS.md): a setup and the moves in the
order they were made. Its moves are proposed one by one to a fresh table; the first one rejected
is the answer, with the rules it breaks. If every move is accepted, the answer is the final
state in the adjudicator's full view. `expect`, `rule` and `check` in a record are ignored, so
a scenario file can be replayed as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.errors import RefereeError
from referee.model import ADJUDICATOR, JSON, Outcome, Verdict, Violation
from referee.scenario.fields import integral
from referee.scenario.format import (
    CloseWindowStep,
    MoveStep,
    Scenario,
    ScenarioError,
    load_data,
    load_text,
)
from referee.scenario.target import InProcessTarget, Unsupported

# how a rejection is worded for the caller (`RefereeService`: its language, cards as players
# write them); by default as judged
Wording = Callable[[Any, Verdict], Verdict]


def adjudicate(
    games: Mapping[str, Any],
    record: Mapping[str, JSON],
    source: str = "<record>",
    wording: Wording | None = None,
) -> dict[str, JSON]:
    """The first illegal move of `record` (data, as a JSON object), or its confirmed result.

    Illegal: `{"legal": False, "step": i, "seat", "move", "violations": [...], "moves": n}`,
    where `i` is the move's index in `steps` counted from 0 (as `AdjudicateResponse.step`; the
    messages of `referee replay` and `conformance` say "step i+1") and `n` the moves accepted
    before it. Legal: `{"legal": True, "moves": n, "result": the final full view}`. A record that
    cannot be read or set up raises `ScenarioError` (an InvalidArgument) naming `source`.
    """
    return replay(games, load_data(integral(record), source), wording=wording)


def adjudicate_yaml(
    games: Mapping[str, Any], text: str, source: str = "<record>", wording: Wording | None = None
) -> dict[str, JSON]:
    """`adjudicate` for a record given as the YAML text of SCENARIOS.md."""
    return replay(games, load_text(text, source), wording=wording)


def replay(
    games: Mapping[str, Any],
    scenario: Scenario,
    target: InProcessTarget | None = None,
    wording: Wording | None = None,
) -> dict[str, JSON]:
    """Adjudicate's answer for `scenario` (see `adjudicate`), on `target` if given (its tables
    made its way: re-adjudication gives both sides one salt)."""
    target = target if target is not None else InProcessTarget(games)
    try:
        table = target.create_table(scenario.setup)
    except RefereeError as exc:
        raise ScenarioError(
            f"the table cannot be set up: {exc.message}", source=scenario.source
        ) from exc
    accepted = 0
    for step in scenario.steps:
        if isinstance(step, CloseWindowStep):
            _close_window(target, table, step)
        if not isinstance(step, MoveStep):
            continue
        verdict = target.propose(table, step.seat, step.move)
        if verdict.outcome is Outcome.REJECTED:
            if wording is not None:
                verdict = wording(games[scenario.setup.game], verdict)
            return {
                "legal": False,
                "step": step.where.step - 1,
                "seat": step.seat,
                "move": step.move.to_data(),
                "moves": accepted,
                "violations": [_reported(v) for v in verdict.violations],
            }
        accepted += verdict.outcome is Outcome.ACCEPTED
    return {"legal": True, "moves": accepted, "result": target.view(table, ADJUDICATOR)}


def _close_window(target: InProcessTarget, table: Any, step: CloseWindowStep) -> None:
    try:
        target.close_window(table)
    except Unsupported as exc:
        raise ScenarioError(
            exc.message, source=step.where.source, line=step.where.line, step=step.where.step
        ) from exc


def _reported(violation: Violation) -> dict[str, JSON]:
    """A violation as the report gives it: its data, and its fix in words once worded."""
    data = violation.to_data()
    if violation.hint:
        data["hint"] = violation.hint
    return data
