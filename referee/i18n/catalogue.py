"""The catalogue that words the referee's own sentences (`referee.model.Sentence`) in every
language: every `*.yaml` file beside this module (`messages.yaml`, ...).

A sentence is kept as data (in verdicts, in the store) and worded only when it is sent, in the
language of that request: a verdict recorded in English is given again in Portuguese.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

import yaml

from referee.i18n.language import ENGLISH
from referee.model import Sentence

# The values that are names of the move language, by the name a sentence gives them: shown as
# the word for them (`amount`: "the amount", "o valor"), never as the name itself
WORDED = {
    "type": "move",
    "move": "move",
    "moves": "move",
    "known": "move",
    "field": "field",
    "allowed": "field",
    "tally": "value",
    "answer": "value",
    "checkpoint": "checkpoint",
}
PLAIN = {"reason"}  # a kind whose unknown names are words already (English): shown as they are
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with each `{name}` it has a value for replaced; any other brace stays as written
    (a spec's sentence may show braces of its own)."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def placeholders(template: str) -> set[str]:
    return set(PLACEHOLDER.findall(template))


class Catalogue:
    """Key -> language -> template. A key or language it lacks is worded in English, then as the
    key itself: a missing sentence never fails a verdict (a test keeps the catalogue complete)."""

    def __init__(self, entries: Mapping[str, Mapping[str, str]]) -> None:
        self.entries = entries

    @classmethod
    def load(cls) -> Catalogue:
        """Every `*.yaml` file of this package, merged (each holds the sentences of one concept)."""
        entries: dict[str, Mapping[str, str]] = {}
        found = [f for f in files("referee.i18n").iterdir() if f.name.endswith(".yaml")]
        for catalogue_file in sorted(found, key=lambda f: f.name):
            loaded = yaml.safe_load(catalogue_file.read_text(encoding="utf-8")) or {}
            entries.update({str(key): dict(texts) for key, texts in loaded.items()})
        return cls(entries)

    @property
    def languages(self) -> list[str]:
        found = {language for texts in self.entries.values() for language in texts}
        return sorted(found, key=lambda language: (language != ENGLISH, language))

    def template(self, key: str, language: str) -> str:
        texts = self.entries.get(key, {})
        return texts.get(language) or texts.get(ENGLISH) or key

    def render(self, sentence: Sentence, language: str = ENGLISH) -> str:
        values = {
            name: self.render_value(value, language, WORDED.get(name))
            for name, value in sentence.args.items()
        }
        return fill(self.template(sentence.key, language), values)

    def render_value(self, value: Any, language: str, kind: str | None = None) -> str:
        """A value in words: a sentence worded, a list item by item; a name of the move
        language (`kind`: a move type, a field) as its word in `language` (`words.yaml`)."""
        if isinstance(value, Sentence):
            return self.render(value, language)
        if isinstance(value, (list, tuple)):
            return ", ".join(self.render_value(item, language, kind) for item in value)
        text = str(value).replace("`", "")  # a list of names written for programmers, once
        if kind is None or not isinstance(value, str):
            return text
        return ", ".join(self.word(kind, name, language) for name in text.split(", "))

    def word(self, kind: str, name: str, language: str) -> str:
        """The word for `name` (a move type, a field, a value) in `language`; a name it has no
        word for (a client's own, misspelt) as it was written, in quotes."""
        for key in (f"word.{kind}.{name}", f"word.move.{name}", f"word.value.{name}"):
            if key in self.entries:
                return self.template(key, language)
        return name if kind in PLAIN else f"\u201c{name}\u201d"

    def problems(self) -> list[str]:
        """Each key lacking one of the catalogue's languages, or whose placeholders differ from
        its English sentence's."""
        found = []
        for key, texts in self.entries.items():
            english = placeholders(texts.get(ENGLISH, ""))
            for language in self.languages:
                if language not in texts:
                    found.append(f"`{key}` has no `{language}` sentence")
                elif placeholders(texts[language]) != english:
                    found.append(f"`{key}` in `{language}` shows other values than in English")
        return found


CATALOGUE = Catalogue.load()
