"""Which language to answer in: the caller's `accept-language` (RFC 9110 section 12.5.4),
matched against the languages a game is written in; English when none of them fits.

Only the primary subtag decides (`pt-BR` and `pt-PT` are both `pt`): the specs are written in one
variety of each language. Filipino (`fil`) is read as Tagalog (`tl`), the language it is based on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ENGLISH = "en"
ALIASES = {"fil": "tl"}
RANGE = re.compile(r"^(\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$")
WEIGHT = re.compile(r"^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")
MAX_RANGES = 32  # a header longer than this is read no further


def preferences(header: str | None) -> list[str]:
    """The languages of an `accept-language` value, most wanted first; `*` is kept.

    A malformed part is skipped, as is a language with weight 0 (`q=0`: "not this one").
    """
    weighted: list[tuple[float, int, str]] = []
    for order, part in enumerate((header or "").split(",")[:MAX_RANGES]):
        tag, *params = [piece.strip() for piece in part.split(";")]
        weight = _weight(params)
        if not RANGE.match(tag) or weight is None or weight == 0:
            continue
        primary = tag.split("-")[0].lower()
        weighted.append((-weight, order, ALIASES.get(primary, primary)))
    chosen: list[str] = []
    for _, _, language in sorted(weighted):
        if language not in chosen:
            chosen.append(language)
    return chosen


def _weight(params: list[str]) -> float | None:
    """The `q` of one language range (1 when absent); None when malformed."""
    weight = 1.0
    for param in params:
        match = WEIGHT.match(param.replace(" ", "").lower())
        if not match:
            return None
        weight = float(match.group(1))
    return weight


def negotiate(wanted: Iterable[str], available: Iterable[str]) -> str:
    """The first wanted language that is available (`*`: the first available), else English."""
    offered = list(available)
    for language in wanted:
        if language in offered:
            return language
        if language == "*" and offered:
            return offered[0]
    return ENGLISH
