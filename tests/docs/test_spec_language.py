"""docs/spec-language.md, the spec language's reference, keeps up with the code: its vocabulary
tables are the ones `referee.spec.expr.reference` makes, every key a spec may write and every
word of the expression language is in it, and the README links to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.proofs.properties import EVALUATION_KEYS
from referee.proofs.properties import KEYS as PROPERTY_KEYS
from referee.spec.expr.ast import COMPREHENSIONS
from referee.spec.expr.lexer import KEYWORDS
from referee.spec.expr.literals import WORDS
from referee.spec.expr.reference import BEGIN, END, vocabulary_tables
from referee.spec.expr.vocabulary import BUILTINS
from referee.spec.fixes import FIX_KINDS
from referee.spec.options import OPTION_TYPES
from referee.spec.schema import KNOWN_KEYS, RULE_KEYS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "spec-language.md"
TEXT = DOC.read_text(encoding="utf-8")


def test_the_vocabulary_tables_are_the_codes() -> None:
    start, end = TEXT.index(BEGIN), TEXT.index(END) + len(END)
    assert TEXT[start:end] == vocabulary_tables(), (
        "docs/spec-language.md's vocabulary is stale: paste in the output of "
        "`python -m referee.spec.expr.reference`"
    )


NAMES = {
    "section": KNOWN_KEYS,
    "rule key": RULE_KEYS,
    "property key": PROPERTY_KEYS,
    "evaluation key": EVALUATION_KEYS,
    "fix kind": set(FIX_KINDS),
    "option type": set(OPTION_TYPES),
    "keyword": KEYWORDS,
    "function": set(BUILTINS),
    "comprehension": set(COMPREHENSIONS),
    "card word": set(WORDS),
    "type": {"int", "bool", "str", "card", "list[T]"},
}


def code_of(text: str) -> str:
    """The doc's code: its fenced blocks and its `inline` spans, where a name is shown as written."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S)
    prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return "\n".join([*blocks, *re.findall(r"`([^`\n]+)`", prose)])


@pytest.mark.parametrize("kind", sorted(NAMES))
def test_every_name_of_the_language_is_documented(kind: str) -> None:
    code = code_of(TEXT)
    missing = sorted(
        name
        for name in NAMES[kind]
        if not re.search(rf"(?<![\w\[]){re.escape(name)}(?![\w\]])", code)
    )
    assert not missing, f"docs/spec-language.md does not document the {kind}(s) {missing}"


def test_the_readme_links_to_it() -> None:
    assert "(docs/spec-language.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
