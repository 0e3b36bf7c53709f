"""What generated code (`codegen.py`) calls besides its own functions: the module globals every
program's generated module starts with. Their names start with `_`; generated names never do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from referee.cards import Card, french_pack, tarot_pack
from referee.spec.expr import values

UNSET: Any = object()  # a memo slot not computed yet in this call


def no_item() -> NoReturn:
    """A negative index: an error in the language (the interpreter then says which, where)."""
    raise IndexError("a negative index")


def member(x: Any, xs: Any) -> bool:
    """`x in xs` for compound items: structural equality, as the interpreter's."""
    return any(values.equal(x, y) for y in xs)


def card_table(attribute: Callable[[Card], Any], key: Callable[[Card], str]) -> dict[str, Any]:
    """A card property as a lookup by one of its letters (`rank` is `_rank[c.rank]`: a dict
    lookup instead of a property call), built from every card of every pack; empty when the
    letter does not decide the property. A card the table lacks raises KeyError, and the
    interpreter answers for it."""
    table: dict[str, Any] = {}
    for card in [*french_pack(), *tarot_pack()]:
        if table.setdefault(key(card), attribute(card)) != attribute(card):
            return {}
    return table


RANK_VALUE = card_table(lambda card: card.value, lambda card: card.rank)
SUIT_IS_RED = card_table(lambda card: card.is_red, lambda card: card.suit)

RUNTIME: dict[str, Any] = {
    "_U": UNSET,
    "_no_item": no_item,
    "_member": member,
    "_equal": values.equal,
    "_rank": RANK_VALUE,
    "_red": SUIT_IS_RED,
}
