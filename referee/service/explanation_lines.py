"""An explanation in the caller's language: one line for the proposal, then each checkpoint judged
and each of its rules, with the values it read (`referee.service.explanations`)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.i18n.catalogue import CATALOGUE
from referee.model import DIRECTOR, JSON, Outcome, Sentence, Verdict
from referee.spec.explaining import BLIND, BROKEN, HELD, TRIED, Judged

_HEADINGS = {TRIED: "explain.tried", BLIND: "explain.blind"}
_OUTCOMES = {HELD: "explain.held", BROKEN: "explain.broken"}


def _heading(seat: int) -> str:
    """Who made the move: a seat, the director (a ruling, a token reissued), or the table itself
    (a deadline passing)."""
    if seat == DIRECTOR:
        return "explain.director"
    return "explain.system" if seat < 0 else "explain.proposal"


def explanation_lines(
    seat: int,
    move_type: str,
    version: int,
    verdict: Verdict,
    judgements: list[Judged],
    language: str,
) -> list[str]:
    """`verdict` (worded in `language` already) and the judgements it rests on, as text."""

    def say(key: str, **args: object) -> str:
        return CATALOGUE.render(Sentence(key, args), language)

    outcome = say(f"explain.{verdict.outcome.value}")
    heading = _heading(seat)
    lines = [say(heading, seat=seat, move=move_type, version=version, outcome=outcome)]
    messages = {v.rule: v.message for v in verdict.violations}
    for judged in judgements:
        if not judged.rules:  # a checkpoint with no rule at this time: nothing to say
            continue
        at = say(f"explain.{judged.at}")
        lines.append(
            say(
                _HEADINGS.get(judged.role, "explain.checkpoint"),
                checkpoint=judged.checkpoint,
                at=at,
            )
        )
        for rule in judged.rules:
            reads = say("explain.reads", values=_values(rule.reads)) if rule.reads else ""
            if rule.outcome == BROKEN and rule.rule in messages and judged.role != TRIED:
                lines.append(
                    "  "
                    + say(
                        "explain.broken_said",
                        rule=rule.rule,
                        message=messages[rule.rule],
                        reads=reads,
                    )
                )
            else:
                key = _OUTCOMES.get(rule.outcome, "explain.not_applicable")
                lines.append("  " + say(key, rule=rule.rule, reads=reads))
    if not judgements:
        reason = "; ".join(messages.values()) or say("explain.no_reason")
        lines.append(say("explain.no_rules", reason=reason))
    if verdict.outcome is Outcome.REJECTED:
        judged_rules = {r.rule for j in judgements for r in j.rules}
        lines += [
            f"{v.rule}: {v.message}"
            for v in verdict.violations
            if v.rule not in judged_rules and judgements
        ]
    return lines


def _values(reads: Mapping[str, JSON]) -> str:
    return "; ".join(f"{name} = {_value(value)}" for name, value in reads.items())


def _value(value: JSON) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)
