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
    if _melds_only_going_out(legal):
        yield from _whole_hand_candidates(view, legal, hand, rng)
        return
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


# --- a game whose melds are laid only when going out, the whole hand at once -------------------


def _melds_only_going_out(legal: list[str]) -> bool:
    """The seat may go out but lays no meld otherwise (no `meld` in its turn's play), or may
    take the discard but not go out with it (it goes into the hand): a game whose melds are
    laid only when going out, after a draw."""
    if "go_out" in legal and "discard" in legal:
        return "meld" not in legal and "layoff" not in legal
    return "take_discard" in legal and "draw" in legal and "go_out" not in legal


def _whole_hand_candidates(
    view: Mapping[str, Any], legal: list[str], hand: list[str], rng: random.Random
) -> Iterator[Move]:
    """Take the top discard when it fits the hand, else draw; then go out with the whole hand
    (the ways the view's `legal` lists, else those the bot finds), else discard the card that
    fits the hand least."""
    listed = view.get("legal")
    listed = listed if isinstance(listed, Mapping) else {}
    if "draw" in legal:
        top = view.get("discard_top")
        # now and then, a discard that fits better than the worst card held (always taking
        # would let two seats pass cards back and forth for ever, the stock untouched)
        worst = min((_fit(card, hand) for card in hand), default=0)
        if (
            "take_discard" in legal
            and top is not None
            and rng.random() < 0.5
            and _fit(top, hand) > worst
        ):
            yield {"type": "take_discard"}
        yield {"type": "draw"}
        return
    if "go_out" in legal:
        for fields in (listed.get("go_out") or {}).get("moves", []):
            yield {"type": "go_out", **fields}
        for melds, discard in itertools.islice(_lay_outs(sorted(hand, key=_order), None), 20):
            move: Move = {"type": "go_out", "melds": melds}
            if discard is not None:
                move["discard"] = discard
            yield move
    if "discard" in legal:
        order = list(hand)
        rng.shuffle(order)
        order.sort(key=lambda card: _fit(card, hand))
        for card in order:
            yield {"type": "discard", "card": card}


def _fit(card: str, hand: list[str]) -> int:
    """How well `card` fits the others held: a card of its rank in another suit, or of its suit
    one or two ranks away, each counts (a card beside it twice)."""
    rank, suit = _RANKS.index(card[0]), card[1]
    score = 0
    for other in {c for c in hand if c != card}:
        other_rank = _RANKS.index(other[0])
        if other_rank == rank and other[1] != suit:
            score += 2
        elif other[1] == suit and _gap(rank, other_rank) in (1, 2):
            score += 3 - _gap(rank, other_rank)
    return score


def _gap(a: int, b: int) -> int:
    """Ranks apart, the ace next to the two and to the king."""
    apart = abs(a - b)
    return min(apart, 13 - apart) if 0 in (a, b) else apart


def _lay_outs(
    cards: list[str], discard: str | None
) -> Iterator[tuple[list[list[str]], str | None]]:
    """Every way to lay all `cards` out in trios (one rank, three or four suits) and runs (one
    suit, consecutive, ace low or high), at most one card left as the discard."""
    if not cards:
        yield [], discard
        return
    first, rest = cards[0], cards[1:]
    if discard is None:
        yield from _lay_outs(rest, first)
    for meld in _melds_with(first, rest):
        left = list(rest)
        for card in meld[1:]:
            left.remove(card)
        for melds, last in _lay_outs(left, discard):
            yield [sorted(meld, key=_order), *melds], last


def _melds_with(first: str, rest: list[str]) -> Iterator[list[str]]:
    """Trios and runs of `first` with some of `rest` (`first` leads each list)."""
    rank, suit = first[0], first[1]
    others = {c[1]: c for c in rest if c[0] == rank and c[1] != suit}
    for size in (2, 3):
        for combo in itertools.combinations(sorted(others.values()), size):
            yield [first, *combo]
    held = {c for c in rest if c[1] == suit}
    for ranks in (_RANKS, _RANKS[1:] + "A"):  # the ace low, then high
        start = ranks.index(rank)
        for low in range(max(0, start - 12), start + 1):
            run = [r + suit for r in ranks[low:start]]
            if not all(card in held for card in run):
                continue
            if len(run) >= 2:  # `first` the top card
                yield [first, *run]
            for high in range(start + 1, len(ranks)):
                run.append(ranks[high] + suit)
                if run[-1] not in held:
                    break
                if len(run) >= 2:
                    yield [first, *run]


_RANKS = "A23456789TJQK"


def _order(card: str) -> tuple[str, int]:
    return (card[1], _RANKS.index(card[0]))
