"""Seeded chance: every shuffle is a pure function of the table seed and what it is for.

A table replays exactly from its record (STYLE.md 5): the deal of hand 3 is
`shuffled(pack, seed, "deal", 3)` whenever it is computed, on any machine.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Sequence, TypeVar

T = TypeVar("T")


def shuffled(items: Sequence[T], seed: int, *purpose: object) -> list[T]:
    # random.Random seeded with a str hashes it with SHA-512: stable across runs and platforms
    rng = random.Random(":".join(str(p) for p in (seed, *purpose)))
    result = list(items)
    rng.shuffle(result)
    return result


def new_seed() -> int:
    return secrets.randbits(63)


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(salt: str, deck: Sequence[object]) -> str:
    """A hash of the deck order, published at creation and checkable once the deck is revealed."""
    text = salt + ":" + ",".join(str(c) for c in deck)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand_salt(salt: str, hand_number: int) -> str:
    """Each hand's own salt: revealing one hand's deck reveals nothing of the next."""
    return hashlib.sha256(f"{salt}:hand:{hand_number}".encode("utf-8")).hexdigest()[:32]


def hand_commitment(salt: str, hand_number: int, deck: Sequence[object]) -> str:
    return commitment(hand_salt(salt, hand_number), deck)
