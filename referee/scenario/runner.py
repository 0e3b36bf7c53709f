"""Run scenarios against a `Target` and report every step that did not get the expected answer.

A run never stops at the first failure: each step is judged, so one report shows every wrong
verdict and every failed check, each with its file, line and step. A setup the engine refuses
(a card dealt more often than the pack holds, a wrong number of cards, an unknown option) is an
error in the scenario and is reported as such, with the file name, and so is a `rule:` the game
has no such id for (given the game's known ids, `rule_ids.RuleIndex`). A step the target cannot
run at all (`CannotRun`: a remote server's clock) skips the rest of the scenario, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import InvalidArgument, NotFound, RefereeError
from referee.model import ADJUDICATOR, Outcome, Verdict
from referee.scenario import checks
from referee.scenario.format import (
    CheckStep,
    Expect,
    MoveStep,
    Scenario,
    ScenarioError,
    Step,
    Where,
    load_file,
)
from referee.scenario.target import CannotRun, Target, Unsupported

RuleIds = Callable[[str], "frozenset[str] | None"]  # a game's known rule ids (None: unknown)
SCENARIO_ERROR = "error in the scenario"

OUTCOME_OF = {
    Expect.ACCEPT: Outcome.ACCEPTED,
    Expect.REJECT: Outcome.REJECTED,
    Expect.PENDING: Outcome.PENDING,
}


@dataclass(frozen=True)
class Failure:
    """One step that went wrong (`where` is None for the file or its setup)."""

    source: str
    message: str
    where: Where | None = None
    step: str = ""
    error: bool = False  # an error in the scenario itself, not a wrong answer of the target

    def __str__(self) -> str:
        if self.where is None:
            return f"{self.source}: {self.message}"
        what = f" ({self.step})" if self.step else ""
        return f"{self.where}{what}: {self.message}"


@dataclass
class Report:
    source: str
    name: str = ""
    failures: list[Failure] = field(default_factory=list)
    steps: int = 0
    skipped: str = ""  # why the target could not run it (a remote server's clock), if it could not

    @property
    def passed(self) -> bool:
        return not self.failures and not self.skipped

    @property
    def status(self) -> str:
        """`error` (in the scenario), `failed`, `skipped` or `passed`."""
        if any(f.error for f in self.failures):
            return "error"
        if self.failures:
            return "failed"
        return "skipped" if self.skipped else "passed"


def describe_verdict(verdict: Verdict) -> str:
    """`rejected: PN-12: a trio is ...; GEN-8: ...`, or `accepted`."""
    if not verdict.violations:
        return verdict.outcome.value
    reasons = "; ".join(reason(v.rule, v.cites, v.message) for v in verdict.violations)
    return f"{verdict.outcome.value}: {reasons}"


def reason(rule: str, cites: Iterable[str], message: str) -> str:
    """`PN-13-shape (PN-12, PN-13): these cards are ...`: the rule, then the ids it cites."""
    others = [c for c in dict.fromkeys(cites) if c != rule]
    return f"{rule} ({', '.join(others)}): {message}" if others else f"{rule}: {message}"


def judge_move(step: MoveStep, verdict: Verdict) -> str | None:
    """Why `verdict` is not what `step` expects, or None."""
    if step.expect is None:
        return None
    if verdict.outcome is not OUTCOME_OF[step.expect]:
        return f"expected {step.expect.value}, got {describe_verdict(verdict)}"
    if step.rule is not None and step.rule not in verdict.rule_ids():
        return f"expected a rejection citing `{step.rule}`, got {describe_verdict(verdict)}"
    return None


class Run:
    """One scenario on one table of a target."""

    def __init__(self, scenario: Scenario, target: Target, rule_ids: RuleIds | None = None) -> None:
        self.scenario, self.target, self.rule_ids = scenario, target, rule_ids
        self.report = Report(scenario.source, scenario.name)
        self.table: Any = None

    def execute(self) -> Report:
        if self._unknown_rules():
            return self.report
        try:
            self.table = self.target.create_table(self.scenario.setup)
        except CannotRun as exc:
            self.report.skipped = exc.message
            return self.report
        except (InvalidArgument, NotFound) as exc:  # the setup (deal, options, game) is wrong
            self._fail(
                None, f"{SCENARIO_ERROR}: the table cannot be set up: {exc.message}", error=True
            )
            return self.report
        except RefereeError as exc:
            self._fail(None, f"error from the referee: {exc.code}: {exc.message}")
            return self.report
        for step in self.scenario.steps:
            self.report.steps += 1
            try:
                self._step(step)
            except CannotRun as exc:  # what follows depends on this step: skip the rest
                self.report.skipped = f"step {step.where.step}: {exc.message}"
                break
        return self.report

    def _unknown_rules(self) -> bool:
        """Report each `rule:` the game has no such id for; were there any?"""
        game = self.scenario.setup.game
        known = self.rule_ids(game) if self.rule_ids is not None else None
        if known is None:  # not checked, or an unknown game (the setup says so)
            return False
        for step in self.scenario.steps:
            if isinstance(step, MoveStep) and step.rule is not None and step.rule not in known:
                self._fail(
                    step,
                    f"{SCENARIO_ERROR}: unknown rule id `{step.rule}`: game "
                    f"`{game}` has no such rule (neither in its spec nor cited "
                    "from RULES.md by it)",
                    error=True,
                )
        return bool(self.report.failures)

    def _step(self, step: Step) -> None:
        try:
            problems = self._problems(step)
        except CannotRun:
            raise
        except Unsupported as exc:
            problems = [exc.message]
        except RefereeError as exc:
            problems = [f"error from the referee: {exc.code}: {exc.message}"]
        for problem in problems:
            self._fail(step, problem)

    def _problems(self, step: Step) -> list[str]:
        if isinstance(step, MoveStep):
            verdict = self.target.propose(self.table, step.seat, step.move)
            problem = judge_move(step, verdict)
            return [problem] if problem else []
        if isinstance(step, CheckStep):
            return checks.compare(step.checks, self.target.view(self.table, ADJUDICATOR))
        self.target.close_window(self.table)  # a CloseWindowStep
        return []

    def _fail(self, step: Step | None, message: str, *, error: bool = False) -> None:
        where = step.where if step is not None else None
        what = step.describe() if step is not None else ""
        self.report.failures.append(Failure(self.scenario.source, message, where, what, error))


def run_scenario(scenario: Scenario, target: Target, rule_ids: RuleIds | None = None) -> Report:
    return Run(scenario, target, rule_ids).execute()


def run_file(path: str | Path, target: Target, rule_ids: RuleIds | None = None) -> Report:
    """Load and run one file; a file that cannot be loaded is one error, not an exception."""
    try:
        scenario = load_file(path)
    except ScenarioError as exc:
        return Report(
            str(path),
            failures=[Failure(str(path), f"{SCENARIO_ERROR}: {_located(exc)}", error=True)],
        )
    return run_scenario(scenario, target, rule_ids)


def _located(exc: ScenarioError) -> str:
    where = f"line {exc.line}: " if exc.line else ""
    step = f"step {exc.step}: " if exc.step else ""
    return f"{where}{step}{exc.detail}"


def scenario_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Every file named, and every `*.yaml` under each folder named (sorted, recursively)."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(path.rglob("*.yaml"))
        else:
            yield path
