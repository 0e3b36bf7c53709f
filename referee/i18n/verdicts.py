"""Violations in the players' words: the referee's own (GEN-8) made from a catalogue sentence,
and any violation worded again in the language a request asked for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from referee.i18n.catalogue import CATALOGUE, fill
from referee.i18n.language import ENGLISH
from referee.model import JSON, Sentence, Verdict, Violation

GEN8 = "GEN-8"  # a move that cannot be read, or cannot be made at all (RULES.md GEN-8)
Texts = Mapping[str, Mapping[str, str]]  # a spec's verdict id (or word) -> language -> sentence


def unreadable(
    sentence: Sentence, code: str = "malformed_move", cards: Iterable[str] = ()
) -> Violation:
    """A GEN-8 violation in the referee's own words (English here; any language when sent)."""
    return Violation(
        GEN8, CATALOGUE.render(sentence), code=code, cards=tuple(cards), sentence=sentence
    )


def worded(
    violation: Violation, texts: Texts, language: str, words: Texts | None = None
) -> Violation:
    """`violation` with its message in `language`, where there is a sentence for it: the
    referee's own, or the spec's for its rule id, showing the values it showed in English (a
    value that is a word of the spec's `words:` in that language)."""
    if language == ENGLISH:
        return violation
    if violation.sentence is not None:
        message = CATALOGUE.render(violation.sentence, language)
    elif language in texts.get(violation.rule, {}):
        known = words or {}
        said = {
            name: known.get(value, {}).get(language, value)
            for name, value in violation.said.items()
        }
        message = fill(texts[violation.rule][language], said)
    else:
        return violation
    return replace(violation, message=message)


def with_hints(verdict: Verdict, language: str) -> Verdict:
    """`verdict` with the sentence of each violation's fix (`fix.<kind>`) in `language`. Given
    the verdict as its seat may see it, so that a hint names no card its fix does not."""
    if not any(v.fix for v in verdict.violations):
        return verdict
    return replace(
        verdict,
        violations=tuple(
            replace(v, hint=_hint(v.fix, language)) if v.fix else v for v in verdict.violations
        ),
    )


def _hint(fix: Mapping[str, JSON], language: str) -> str:
    values = {name: value for name, value in fix.items() if name != "kind"}
    return CATALOGUE.render(Sentence(f"fix.{fix.get('kind')}", values), language)


def verdict_worded(
    verdict: Verdict, texts: Texts, language: str, words: Texts | None = None
) -> Verdict:
    if language == ENGLISH or not verdict.violations:
        return verdict
    return replace(
        verdict, violations=tuple(worded(v, texts, language, words) for v in verdict.violations)
    )
