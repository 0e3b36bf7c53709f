"""The sentences a spec gives players, wherever they are written, and their languages.

A spec declares the languages it is written in (`languages: [en, pt]`; English alone when it does
not say). Every sentence for players — the title, each option, move, rule and option rule, and each
verdict a mechanic gives of its own (any mapping with an `id` and a `text` in a mechanic's
sections) — must then exist in each of them, showing the same `{values}` as the English one: a
missing or mistyped translation is a spec error, refused like any other. So must each word a
sentence may show (`words:`; `referee.spec.rules` checks that a rule's `say` gives no other).
Proof properties are statements for developers: English only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import SpecError
from referee.i18n import ENGLISH, placeholders
from referee.spec.yamlsource import Located, PathKey

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}$")  # ISO 639: `en`, `pt`, `tl`


@dataclass(frozen=True)
class Wording:
    """One sentence for players, in each language it is written in."""

    path: PathKey  # where it is written: `rules[3].text`
    text: Mapping[str, str]
    values: frozenset[str] | None = None  # the `{values}` it may show (a rule's `say`), if checked


def as_texts(value: Any) -> dict[str, str]:
    """A `text:` as written: a sentence (English) or a map of language to sentence."""
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    return {} if value is None else {ENGLISH: str(value)}


def in_language(text: Mapping[str, str], language: str) -> str:
    """A text's sentence in `language`, else in English (a spec written in English alone)."""
    return text.get(language) or text.get(ENGLISH) or ""


def wordings(data: Mapping[str, Any], mechanic_sections: frozenset[str]) -> Iterator[Wording]:
    """Every sentence for players in a spec's (merged) data, in the order the spec gives them."""
    if "title" in data:
        yield Wording(("title",), as_texts(data["title"]))
    for section in ("options", "moves"):
        for name, body in _mapping(data.get(section)).items():
            if isinstance(body, Mapping) and "text" in body:
                yield Wording((section, name, "text"), as_texts(body["text"]))
    for section in ("rules", "option_rules"):
        for index, body in enumerate(data.get(section) or []):
            if isinstance(body, Mapping) and "text" in body:
                said = frozenset(map(str, _mapping(body.get("say"))))
                yield Wording((section, index, "text"), as_texts(body["text"]), said)
    in_order = {key: data[key] for key in data if key in mechanic_sections}
    for path, body in verdict_bodies(in_order, ()):
        yield Wording(path + ("text",), as_texts(body["text"]))
    for word, texts in _mapping(data.get("words")).items():  # a word is its own English
        yield Wording(("words", word), {ENGLISH: str(word), **as_texts(texts)})


def verdict_bodies(data: Any, path: PathKey) -> Iterator[tuple[PathKey, Mapping[str, Any]]]:
    """The verdicts a mechanic gives of its own: each mapping with an `id` and a `text`."""
    if isinstance(data, Mapping):
        if "id" in data and "text" in data:
            yield path, data
            return
        for key, item in data.items():
            yield from verdict_bodies(item, path + (str(key),))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from verdict_bodies(item, path + (index,))


def verdict_texts(
    data: Mapping[str, Any], mechanic_sections: frozenset[str]
) -> dict[str, dict[str, str]]:
    """Verdict id -> language -> sentence: the spec's rules and its mechanic's own verdicts, to
    word a violation again in another language (`referee.i18n.verdicts.worded`)."""
    texts = {
        str(body.get("id")): as_texts(body.get("text"))
        for body in data.get("rules") or []
        if isinstance(body, Mapping)
    }
    in_order = {key: data[key] for key in data if key in mechanic_sections}
    texts.update(
        {str(body["id"]): as_texts(body["text"]) for _, body in verdict_bodies(in_order, ())}
    )
    return texts


def read_languages(located: Located) -> tuple[tuple[str, ...], list[SpecError]]:
    """The spec's `languages:`, English first; English alone when it declares none."""
    raw = located.data.get("languages") if isinstance(located.data, Mapping) else None
    if raw is None:
        return (ENGLISH,), []
    if not isinstance(raw, list) or not all(
        isinstance(x, str) and LANGUAGE_CODE.match(x) for x in raw
    ):
        return (ENGLISH,), [
            located.error(
                ("languages",), "`languages` lists language codes (ISO 639, lowercase): `[en, pt]`"
            )
        ]
    if ENGLISH not in raw:
        return (ENGLISH,), [
            located.error(
                ("languages",),
                "`languages` must include `en`: every sentence is written in English too",
            )
        ]
    return (ENGLISH, *dict.fromkeys(x for x in raw if x != ENGLISH)), []


def translation_errors(
    located: Located, languages: tuple[str, ...], mechanic_sections: frozenset[str]
) -> list[SpecError]:
    """Each sentence missing a language of `languages`, or showing values its English does not."""
    errors = []
    data = located.data if isinstance(located.data, Mapping) else {}
    for wording in wordings(data, mechanic_sections):
        english = wording.text.get(ENGLISH)
        if english is None:
            errors.append(
                located.error(
                    wording.path,
                    "no English sentence (`en`): every sentence is written in English too",
                )
            )
            continue
        shown = placeholders(english)
        if wording.values is not None and wording.values and not shown <= wording.values:
            missing = sorted(shown - wording.values)[0]
            errors.append(
                located.error(
                    wording.path, f"the sentence shows `{{{missing}}}`, which `say` does not give"
                )
            )
        for language in languages:
            errors += _translation_errors(located, wording, language, shown)
    return errors


def _translation_errors(
    located: Located, wording: Wording, language: str, english: set[str]
) -> list[SpecError]:
    sentence = wording.text.get(language)
    if sentence is None:
        declared = ", ".join(f"`{x}`" for x in wording.text) or "none"
        return [
            located.error(
                wording.path,
                f"no `{language}` sentence (the spec's `languages:` "
                f"include it; this one has {declared})",
            )
        ]
    if placeholders(sentence) != english:
        return [
            located.error(
                wording.path + (language,),
                f"the `{language}` sentence shows "
                f"{_shown(placeholders(sentence))}, the English one {_shown(english)}: "
                "a translation shows the same values",
            )
        ]
    return []


def _shown(names: set[str]) -> str:
    return ", ".join(f"`{{{n}}}`" for n in sorted(names)) or "no value"


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
