"""An explanation in the caller's language, in sentences: one line for the proposal, then each
checkpoint judged and each of its rules: the rule's own sentence (the spec's), whether it held,
and the values it read, in words (`referee.service.explanations`). The expression and the raw
values stay in the structured answer (`judged`), for the expert's view."""

from __future__ import annotations

from collections.abc import Mapping

from referee.cards import spoken
from referee.i18n.catalogue import CATALOGUE, PLACEHOLDER
from referee.i18n.verdicts import Texts
from referee.model import DIRECTOR, JSON, Outcome, Sentence, Verdict
from referee.spec.explaining import BLIND, BROKEN, HELD, TRIED, Judged, RuleOutcome

_HEADINGS = {TRIED: "explain.tried", BLIND: "explain.blind"}
_OUTCOMES = {HELD: "explain.held", BROKEN: "explain.broken"}
UNSAID = "…"  # a value a rule's sentence shows, not known where the rule held


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
    texts: Texts | None = None,
    pack: str = "french",
) -> list[str]:
    """`verdict` (worded in `language` already) and the judgements it rests on, as sentences;
    `texts`: the spec's sentence of each rule (`Game.texts`), `pack`: how its cards are written."""
    lines = _Lines(language, texts or {}, {v.rule: v.message for v in verdict.violations})
    outcome = lines.say(f"explain.{verdict.outcome.value}")
    heading = _heading(seat)
    said = [lines.say(heading, seat=seat, move=move_type, version=version, outcome=outcome)]
    for judged in judgements:
        said += lines.judged(judged)
    if not judgements:
        reason = "; ".join(lines.messages.values()) or lines.say("explain.no_reason")
        said.append(lines.say("explain.no_rules", reason=reason))
    if verdict.outcome is Outcome.REJECTED and judgements:
        judged_rules = {r.rule for j in judgements for r in j.rules}
        said += [
            lines.say("explain.also_broken", rule=v.rule, message=v.message)
            for v in verdict.violations
            if v.rule not in judged_rules
        ]
    return [spoken(line, pack, language) for line in said]


class _Lines:
    def __init__(self, language: str, texts: Texts, messages: Mapping[str, str]) -> None:
        self.language, self.texts, self.messages = language, texts, messages

    def say(self, key: str, **args: object) -> str:
        return CATALOGUE.render(Sentence(key, args), self.language)

    def judged(self, judged: Judged) -> list[str]:
        """A checkpoint's heading, then a line per rule; nothing for one without rules."""
        if not judged.rules:
            return []
        at = self.say(f"explain.{judged.at}")
        heading = _HEADINGS.get(judged.role, "explain.checkpoint")
        return [self.say(heading, checkpoint=judged.checkpoint, at=at)] + [
            "  " + self.rule(rule, judged.role) for rule in judged.rules
        ]

    def rule(self, rule: RuleOutcome, role: str) -> str:
        """The rule's sentence, held or broken, with what it read: a broken rule the verdict
        names is said as the verdict said it (with its values)."""
        reads = self.say("explain.reads", values=self.values(rule.reads)) if rule.reads else ""
        if rule.outcome == BROKEN and rule.rule in self.messages and role != TRIED:
            text = self.messages[rule.rule]
        else:
            text = self.text(rule.rule)
        key = _OUTCOMES.get(rule.outcome, "explain.not_applicable")
        return self.say(key, rule=rule.rule, text=text, reads=reads)

    def text(self, rule: str) -> str:
        """The spec's sentence of `rule` in the caller's language, a value it shows as `…`."""
        texts = self.texts.get(rule, {})
        sentence = texts.get(self.language) or texts.get("en") or ""
        return PLACEHOLDER.sub(UNSAID, sentence)

    def values(self, reads: Mapping[str, JSON]) -> str:
        return "; ".join(f"{_name(name)}: {self.value(value)}" for name, value in reads.items())

    def value(self, value: JSON) -> str:
        """A value a rule read, in words: yes or no, a list's items, a record's fields."""
        if isinstance(value, bool):
            return self.say("explain.yes" if value else "explain.no")
        if value is None or value == [] or value == {}:
            return self.say("explain.none")
        if isinstance(value, list):
            return ", ".join(self.value(v) for v in value)
        if isinstance(value, Mapping):
            return ", ".join(f"{_name(k)} {self.field(k, v)}" for k, v in value.items())
        return _name(str(value))

    def field(self, name: str, value: JSON) -> str:
        if name == "present" and isinstance(value, list):  # the move's fields given
            return ", ".join(CATALOGUE.word("field", str(f), self.language) for f in value) or (
                self.say("explain.none")
            )
        return self.value(value)


def _name(name: str) -> str:
    """A name of the spec's (`going_out`, `options.joker_rule`) as words: `going out`."""
    return name.replace("_", " ").replace(".", " ")
