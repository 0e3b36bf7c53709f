"""A random, legal-minded rummy bot: it proposes candidate moves and lets the referee judge.

It reads only its own seat's view (what a real client sees) and never assumes a move is legal:
it proposes candidates in order and keeps the first the referee accepts.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from typing import Any

Move = dict[str, Any]


def turn_candidates(view: Mapping[str, Any], rng: random.Random) -> Iterator[Move]:
    """Moves worth proposing now, best first; the caller proposes until one is accepted."""
    legal = view.get("legal_moves", [])
    hand = list(view.get("hand", []))
    if "reenter" in legal:
        yield {"type": "reenter" if rng.random() < 0.7 else "decline"}
        yield {"type": "decline"}
        return
    if "pass" in legal:  # a claim window (TD-4): claim the discard now and then, else pass
        if "take_discard" in legal and rng.random() < 0.5:
            yield from _take_discard_candidates(view, hand)
        yield {"type": "pass"}
        return
    if "draw" in legal:
        if "take_discard" in legal and rng.random() < 0.5:
            yield from _take_discard_candidates(view, hand)
        yield {"type": "draw"}
        return
    if "meld" in legal:
        yield from _go_out_candidates(view, hand)
        yield from _meld_candidates(hand, rng)
        yield from _layoff_candidates(view, hand)
    if "discard" in legal:
        order = list(hand)
        rng.shuffle(order)
        for card in order:
            yield {"type": "discard", "card": card}


def _meld_candidates(hand: list[str], rng: random.Random) -> Iterator[Move]:
    """Likely melds first (three suits of a rank, runs of a suit), then a few random triples."""
    if len(hand) < 4:  # keep a card to discard (PN-22)
        return
    for cards in _likely_melds(hand):
        yield {"type": "meld", "cards": cards}
    combos = list(itertools.combinations(sorted(hand, key=_order), 3))
    rng.shuffle(combos)
    for combo in combos[:10]:
        yield {"type": "meld", "cards": list(combo)}


def _likely_melds(hand: list[str]) -> Iterator[list[str]]:
    by_rank: dict[str, dict[str, str]] = {}
    by_suit: dict[str, set[int]] = {}
    for card in hand:
        by_rank.setdefault(card[0], {})[card[1]] = card
        by_suit.setdefault(card[1], set()).add(_RANKS.index(card[0]))
    for suits in by_rank.values():
        if len(suits) >= 3:
            yield list(suits.values())[:3]
    for suit, ranks in by_suit.items():
        for low in range(0, 11):
            if {low, low + 1, low + 2} <= ranks:
                yield [_RANKS[r] + suit for r in (low, low + 1, low + 2)]
        if {11, 12, 0} <= ranks:  # Q K A
            yield ["Q" + suit, "K" + suit, "A" + suit]


def _layoff_candidates(view: Mapping[str, Any], hand: list[str]) -> Iterator[Move]:
    if len(hand) < 2:
        return
    for meld in view.get("melds", []):
        for card in hand:
            yield {"type": "layoff", "meld": meld["id"], "cards": [card]}


def _take_discard_candidates(view: Mapping[str, Any], hand: list[str]) -> Iterator[Move]:
    top = view.get("discard_top")
    if top is None:
        return
    for pair in itertools.combinations(sorted(hand, key=_order), 2):
        yield {"type": "take_discard", "meld": sorted([top, *pair], key=_order)}


def _go_out_candidates(view: Mapping[str, Any], hand: list[str]) -> Iterator[Move]:
    """Going out with the whole hand as one meld, or by laying off the last cards."""
    if 3 <= len(hand) <= 4:
        for size in (len(hand), len(hand) - 1):
            for combo in itertools.combinations(sorted(hand, key=_order), size):
                rest = list(hand)
                for card in combo:
                    rest.remove(card)
                move: Move = {"type": "go_out", "melds": [list(combo)]}
                if rest:
                    move["discard"] = rest[0]
                yield move
    if len(hand) == 1:
        yield {"type": "discard", "card": hand[0]}


_RANKS = "A23456789TJQK"


def _order(card: str) -> tuple[str, int]:
    return (card[1], _RANKS.index(card[0]))
