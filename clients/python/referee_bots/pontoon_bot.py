"""A random, legal-minded Pontoon bot: it proposes candidate moves and lets the referee judge.

It reads only its own seat's view (what a real client sees: its own cards, the others' face-up
cards, `??` for the rest) and never assumes a move is legal: it proposes candidates in order and
keeps the first the referee accepts. Its choices are random but sensible: it splits pairs and
burns hard 13s now and then, draws more often on low totals, buys within the PO-5 limits it can
work out from its own hand, and the banker twists below 17 most of the time.

The view does not carry the table's options; give the bot the betting limits (`min_bet`,
`max_bet`) the table was created with, or it bets between the spec's defaults, 1 and 100.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

Move = dict[str, Any]

RANKS = "A23456789TJQK"
HIDDEN = "??"


def next_to_act(view: Mapping[str, Any]) -> int:
    """The seat whose move it is: between hands the banker (who deals the next hand or sells
    the bank), otherwise the seat in turn. Any view will do: this is public."""
    return int(view["banker"]) if view["hand_over"] else int(view["to_act"])


def _shoot_total(view: Mapping[str, Any]) -> int:
    return sum(
        int(h.get("shoot", 0))
        for hands in view["hands"].values()
        for h in hands
        if not h.get("settled")
    )


def value(card: str) -> int:
    """PO-1: ace 1 (see `best_total`), K Q J T 10, others their pips."""
    return min(RANKS.index(card[0]) + 1, 10)


def hard_total(cards: list[str]) -> int:
    return sum(value(c) for c in cards)


def best_total(cards: list[str]) -> int:
    """PO-1: one ace counts 11 when that does not go over 21."""
    hard = hard_total(cards)
    return hard + 10 if any(c[0] == "A" for c in cards) and hard + 10 <= 21 else hard


def buy_range(hand: dict[str, Any]) -> tuple[int, int]:
    """PO-5: the next card costs between the initial stake and twice it (3rd card), then no
    more than the card before cost."""
    stake, paid = int(hand["stake"]), list(hand["paid"])
    return stake, (paid[-1] if paid else 2 * stake)


def turn_candidates(
    view: Mapping[str, Any], rng: random.Random, *, min_bet: int = 1, max_bet: int = 100
) -> Iterator[Move]:
    """Moves worth proposing now, best first; the caller proposes until one is accepted."""
    seat, phase = view.get("seat"), view["phase"]
    if seat is None:
        return
    if phase == "between":
        if seat == view["banker"]:
            if not view.get("kitty", 1):  # Shoot Pontoon: an empty kitty is refilled (SH-8)
                yield {"type": "kitty", "amount": max_bet}
            yield {"type": "next_hand"}
        offer = view.get("offer")
        if offer and offer["to"] == seat:
            yield {"type": "accept_bank"}
        return
    if view["to_act"] != seat:
        return
    if phase == "kitty":  # Shoot Pontoon: the banker puts up the kitty first (SH-1)
        yield {"type": "kitty", "amount": rng.randint(min_bet, max(min_bet, max_bet))}
    if phase == "bet":
        amount = rng.randint(min_bet, max(min_bet, max_bet))
        room = int(view.get("kitty", 0)) - _shoot_total(view)
        if room > 0 and rng.random() < 0.3:  # now and then a shoot bet within the kitty (SH-2)
            yield {"type": "bet", "amount": amount, "shoot": rng.randint(1, room)}
        yield {"type": "bet", "amount": amount}
        yield {"type": "bet", "amount": min_bet}
    elif phase == "banker":
        yield from _banker_candidates(_own_cards(view, seat, 0), rng)
    elif phase == "play":
        yield from _hand_candidates(view["hands"][str(seat)][int(view["active_hand"])], rng)


def _own_cards(view: Mapping[str, Any], seat: int, index: int) -> list[str]:
    return [c for c in view["hands"][str(seat)][index]["cards"] if c != HIDDEN]


def _banker_candidates(cards: list[str], rng: random.Random) -> Iterator[Move]:
    """PO-6: no minimum to stick; twist below 17 most of the time, now and then above."""
    total = best_total(cards)
    twist_first = (total < 17 and rng.random() < 0.9) or (total < 20 and rng.random() < 0.1)
    order = ["twist", "stick"] if twist_first else ["stick", "twist"]
    for kind in order:
        yield {"type": kind}


def _hand_candidates(hand: dict[str, Any], rng: random.Random) -> Iterator[Move]:
    cards = list(hand["cards"])
    total = best_total(cards)
    if len(cards) == 2 and cards[0][0] == cards[1][0] and rng.random() < 0.6:
        yield {"type": "split"}
    if len(cards) == 2 and hard_total(cards) == 13 and rng.random() < 0.5:
        yield {"type": "burn"}
    if total < 21 and len(cards) < 5 and rng.random() < _draw_chance(total):
        if not hand["twisted"] and rng.random() < 0.5:
            low, high = buy_range(hand)
            yield {"type": "buy", "amount": rng.randint(low, max(low, high))}
        yield {"type": "twist"}
    yield {"type": "stick"}
    yield {"type": "twist"}  # under `stick_min`, or a fifth card that must be twisted (PO-10)


def _draw_chance(total: int) -> float:
    if total <= 11:
        return 1.0
    if total <= 14:
        return 0.8
    if total <= 16:
        return 0.4
    return 0.1 if total <= 18 else 0.0
