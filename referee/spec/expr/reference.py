"""The vocabulary of the expression language as Markdown tables, for docs/spec-language.md.

The document is written by hand around them; tests/docs/test_spec_language.py fails while its
tables differ from these (copy them in from `python -m referee.spec.expr.reference`).
"""

from __future__ import annotations

from referee.spec.expr.ast import COMPREHENSIONS
from referee.spec.expr.literals import RANK_NAMES, SUIT_NAMES
from referee.spec.expr.vocabulary import BUILTINS

BEGIN = "<!-- vocabulary: generated from referee/spec/expr (reference.py); a test compares -->"
END = "<!-- end of the generated vocabulary -->"

# what each comprehension `kind(x in xs: body)` gives (the parser and checker know their forms)
COMPREHENSION_MEANINGS = {
    "all": (
        "bool",
        "the body holds for every item (stops at the first that fails; `true` for none)",
    ),
    "any": ("bool", "the body holds for some item (stops at the first that holds)"),
    "count": ("int", "how many items the body holds for"),
    "filter": ("list[T]", "the items the body holds for, in order"),
    "map": ("list[U]", "the body's value for each item, in order"),
    "sum": ("int", "the sum of the body's `int` over the items"),
    "first_index": ("int", "the index of the first item the body holds for; -1 when none"),
    "best_index": (
        "int",
        "argmax: the index of the first item whose `int` body is the greatest; "
        "-1 for an empty list",
    ),
}

_SUIT_GLOSS = {
    "spades": "French",
    "hearts": "French",
    "diamonds": "French",
    "clubs": "French",
    "swords": "tarot",
    "batons": "tarot",
    "cups": "tarot",
    "coins": "tarot",
    "trumps": "tarot trumps and the Matto",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def vocabulary_tables() -> str:
    """The functions, the comprehensions, the rank and the suit names, as Markdown."""
    lines = [BEGIN, "", "| function | meaning |", "|---|---|"]
    lines += [f"| `{_cell(f.signature())}` | {_cell(f.doc or '-')} |" for f in BUILTINS.values()]
    lines += ["", "| comprehension | type | meaning |", "|---|---|---|"]
    lines += [
        f"| `{kind}(x in xs: ...)` | `{ty}` | {_cell(meaning)} |"
        for kind in COMPREHENSIONS
        for ty, meaning in [COMPREHENSION_MEANINGS[kind]]
    ]
    lines += ["", "| rank name | `int` |", "|---|---|"]
    lines += [f"| `{name}` | `{value}` |" for name, value in RANK_NAMES.items()]
    lines += ["", "| suit name | `str` | pack |", "|---|---|---|"]
    lines += [
        f'| `{name}` | `"{value}"` | {_SUIT_GLOSS[name]} |' for name, value in SUIT_NAMES.items()
    ]
    return "\n".join([*lines, "", END])


if __name__ == "__main__":
    print(vocabulary_tables())
