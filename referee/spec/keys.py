"""What a key of a mechanic's section is, told for a game's designer: its type, whether it is
required or what leaving it out means, the context an expression is read against, and its
meaning (docs/rules/mechanics.md is made of them, by `referee docs`).

A mechanic's `keys` (`Mechanic.keys`, its config's `KEYS`) give each key path either a `Key`,
every part said apart, or a sentence that says them in its own words, read by `told`:
`Required`/`Optional` (or `required`/`optional` after a comma), `an expression of type int over
the `setup` context` (or `checkpoint`), `an integer`, `a mapping`, `(default 0)`,
`Left out: ...`. A new key is best declared as a `Key`:

    "tricks.trump": Key(
        type="expression: int",
        default="no trump",          # what leaving it out means; REQUIRED when it must be written
        context="setup",            # what an expression is read against; "" for a plain value
        meaning="the suit of trumps for a deal ...",
    ),
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REQUIRED = "required"
UNSAID = ""  # a part a sentence does not say


@dataclass(frozen=True)
class Key:
    """One key path of a mechanic's sections (`banking.kitty.shoot_settle`; `*` for a name the
    spec chooses)."""

    type: str  # `int`, `true or false`, `text`, `mapping`, `list`, `option name`, `expression: int`
    meaning: str
    default: str = REQUIRED  # what leaving it out means, or REQUIRED
    context: str = UNSAID  # the context or checkpoint an expression is read against


# the plain types a sentence may name, first found first
PLAIN_TYPES = (
    (r"\b(?:non-negative |positive )?integer\b", "int"),
    (r"`true` or `false`|\btrue or false\b", "true or false"),
    (r"\boption name\b", "option name"),
    (r"\bnon-empty list\b|\ba list\b|\bOptional list\b|\bRequired list\b", "list"),
    (r"\bmapping\b", "mapping"),
    (r"\bRequired text\b|\bOptional text\b|\(a string\)|\bThe sentence\b|\bA note\b", "text"),
    (r"`append` or `ends`", "`append` or `ends`"),
)
EXPRESSION = re.compile(
    r"expression of type (\w+)(?: over (?:the )?(?:`(\w+)` (?:context|checkpoint)|kind's))?",
    re.IGNORECASE,
)
REACHED = re.compile(r"`on: (\w+)`")  # `definitions reach it with `on: reentry``
DEFAULT = re.compile(r"\(default ([^)]+)\)|default ([^:.;,)]+)|[Ll]eft out[:,] ([^.;,)]+)")
REQUIRED_IF = re.compile(r"(?:^|[.] )Required ((?:where|when|with) [^.;:]+)")


def told(value: str | Key) -> Key:
    """A key's declaration as a `Key`: a sentence read for the parts it says (`UNSAID` where
    it says none)."""
    if isinstance(value, Key):
        return value
    text = " ".join(value.split())
    return Key(
        type=_type(text),
        meaning=text,
        default=_default(text),
        context=_context(text),
    )


def _type(text: str) -> str:
    found = EXPRESSION.search(text)
    if found:
        return f"expression: {found.group(1)}"
    if text.startswith("A verdict of the mechanic's own") or "verdict by its name" in text:
        return "verdict"
    for pattern, name in PLAIN_TYPES:
        if re.search(pattern, text):
            return name
    return UNSAID


def _context(text: str) -> str:
    found = EXPRESSION.search(text)
    if not found:
        return UNSAID
    if found.group(2):
        return f"`{found.group(2)}`"
    if "kind's" in found.group(0):
        return "the meld kind's checkpoint"
    reached = REACHED.search(text)
    return f"`{reached.group(1)}`" if reached else UNSAID


def _default(text: str) -> str:
    condition = REQUIRED_IF.search(text)
    if condition:
        return f"{REQUIRED} {condition.group(1)}"
    head = text[:40].lower()
    if head.startswith("required") or ": required" in text[:200] or ", required" in text[:200]:
        return REQUIRED
    found = DEFAULT.search(text)
    if found:
        return next(g for g in found.groups() if g).strip().strip("`") or "optional"
    return "optional" if "optional" in text.lower() else UNSAID
