"""The rules expert's words for cards: card codes (`KS`, `T21`, `MT`), rank names (`king`) and
suit names (`swords`), each a constant of the expression language.

A card code is written as in moves and scenarios (docs/cards.md), canonical and upper case; it
is a `card`. A rank name is the `int` that `rank(c)` gives that rank, a suit name the `str` that
`suit(c)` gives: so `rank(c) == knight` and `suit(c) == cups` read as the rulebook does. A name
the spec or the context gives (a binder, a definition, a context name) comes first.
"""

from __future__ import annotations

import re

from referee.cards import KNIGHT_VALUE, Card, PackKind
from referee.errors import CardError

# rank name -> `rank(c)`: the French ranks and the tarot knight (see `Card.value`)
RANK_NAMES: dict[str, int] = {"ace": 1, "jack": 11, "queen": 12, "king": 13, "knight": KNIGHT_VALUE}

# suit name -> `suit(c)`: the French suits, the tarot suits (docs/cards.md) and the trumps
SUIT_NAMES: dict[str, str] = {
    "spades": "S",
    "hearts": "H",
    "diamonds": "D",
    "clubs": "C",
    "swords": "S",
    "batons": "B",
    "cups": "C",
    "coins": "D",
    "trumps": "T",
}

WORDS: dict[str, int | str] = {**RANK_NAMES, **SUIT_NAMES}

# A card code as a token: a trump `T1`..`T21`, the Matto `MT`, or a rank letter or digit and a
# suit letter; never part of a longer word.
CARD_CODE = re.compile(r"(?:T(?:2[01]|1[0-9]|[1-9])|MT|[A2-9TJNQK][SHDCB])(?![A-Za-z0-9_])")


def card_literal(code: str) -> Card | None:
    """The card a code names in some pack (French first, then tarot), or None."""
    for kind in (PackKind.FRENCH, PackKind.TAROT):
        try:
            return Card.parse(code, kind)
        except CardError:
            continue
    return None
