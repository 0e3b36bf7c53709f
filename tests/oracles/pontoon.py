"""Pontoon (RULES.md PO) in plain Python: what a seat sees of its own face-down cards."""

from __future__ import annotations

BANKER_SEES_ITS_FIRST_CARD = ("banker", "between")  # PO-3: from its own turn on


def sees_own_card(phase: str, banker_first: bool) -> bool:
    """PO-3: a seat sees its own face-down cards, except that the banker sees its first card
    (`banker_first`) only from its own turn on."""
    return not banker_first or phase in BANKER_SEES_ITS_FIRST_CARD
