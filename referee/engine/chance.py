"""Chance without `random`: every shuffle is a pure function of the table's seed chain and what it
is for, by the algorithm of docs/fair-deal.md (anyone can re-derive a shuffle in any language).

The chain starts from a root: the referee's secret (32 bytes from `secrets`, committed to by its
sha256) or, in test and dispute mode, a chosen seed. Each contribution of entropy moves the chain
on; a shuffle's key is an HMAC of the chain's current link and the shuffle's purpose, and drives a
SHA-256 counter-mode byte stream: Fisher-Yates with rejection sampling (no modulo bias). A revealed
shuffle key tells nothing of the chain, so later shuffles stay unpredictable (STYLE.md 5).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

SECRET_BYTES = 32
WORD_BYTES = 4  # each draw reads a 32-bit big-endian word
WORD_RANGE = 1 << 32  # so a shuffle holds at most 2^32 items


@dataclass(frozen=True)
class Shuffle:
    """One shuffle: its cards in order, what it was for (`deal:3`) and its key (hex), revealed
    once the cards it ordered are all seen."""

    cards: list[Any]
    purpose: str
    key: str


# --- the root and the chain ------------------------------------------------------------------


def new_secret() -> str:
    """The referee's secret for a fair table: 32 bytes from `secrets`, as hex."""
    return secrets.token_hex(SECRET_BYTES)


def root(*, secret: str | None = None, seed: int | None = None) -> bytes:
    """The chain's root: the secret's bytes, or (test and dispute mode) the chosen seed's."""
    if secret is not None:
        return bytes.fromhex(secret)
    if seed is None:
        raise ValueError("a root needs a secret or a seed")
    return f"seed:{seed}".encode("ascii")


def root_commitment(root_bytes: bytes) -> str:
    """Published at creation: sha256 of the root, checkable once the root is revealed."""
    return hashlib.sha256(root_bytes).hexdigest()


def chain_start(root_bytes: bytes) -> str:
    """The chain's first link (hex)."""
    return _hmac(root_bytes, "chain").hex()


def mix(link: str, who: str, entropy: str) -> str:
    """The next link after `who` (a seat number, or `creator`) contributed `entropy`."""
    return _hmac(bytes.fromhex(link), f"contribute:{who}:{entropy}").hex()


# --- shuffles --------------------------------------------------------------------------------


def purpose_of(*purpose: object) -> str:
    return ":".join(str(p) for p in purpose)


def shuffle_key(link: str, *purpose: object) -> str:
    """The key of the shuffle made for `purpose` while `link` is the chain's current link."""
    return _hmac(bytes.fromhex(link), "shuffle:" + purpose_of(*purpose)).hex()


def shuffle(items: Sequence[T], link: str, *purpose: object) -> Shuffle:
    """`items` in the order the key of `purpose` gives them (see `keyed_order`)."""
    key = shuffle_key(link, *purpose)
    return Shuffle(keyed_order(items, bytes.fromhex(key)), purpose_of(*purpose), key)


def shuffled(items: Sequence[T], link: str, *purpose: object) -> list[T]:
    return shuffle(items, link, *purpose).cards


def keyed_order(items: Sequence[T], key: bytes) -> list[T]:
    """`items` sorted by their text (so only which items they are matters), then Fisher-Yates
    from the last position down, each swap partner drawn from the key's stream."""
    result = sorted(items, key=str)
    stream = _Stream(key)
    for i in range(len(result) - 1, 0, -1):
        j = stream.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


class _Stream:
    """The key's byte stream, SHA-256(key || counter as 8 bytes big-endian) for counter 0, 1, ...,
    read as 32-bit big-endian words."""

    def __init__(self, key: bytes) -> None:
        self._words = _words(key)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): words at or above the largest multiple of n are skipped."""
        limit = WORD_RANGE - WORD_RANGE % n
        while (word := next(self._words)) >= limit:
            pass
        return word % n


def _words(key: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        for start in range(0, len(block), WORD_BYTES):
            yield int.from_bytes(block[start : start + WORD_BYTES], "big")
        counter += 1


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()


# --- deck commitments (per hand, salted) -----------------------------------------------------


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(salt: str, deck: Sequence[object]) -> str:
    """A hash of the deck order, published at its deal and checkable once the deck is revealed."""
    text = salt + ":" + ",".join(str(c) for c in deck)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand_salt(salt: str, hand_number: int) -> str:
    """Each hand's own salt: revealing one hand's deck reveals nothing of the next."""
    return hashlib.sha256(f"{salt}:hand:{hand_number}".encode()).hexdigest()[:32]


def hand_commitment(salt: str, hand_number: int, deck: Sequence[object]) -> str:
    """The commitment to a hand's deck (`commitment` with the hand's own salt). A table asks for
    its current deck's often (each view, each hand's end): the last few are kept, by the deck's
    identity (a dealt deck is a tuple, never changed)."""
    key = (salt, hand_number, id(deck))
    kept = _COMMITMENTS.get(key)
    if kept is not None and kept[0] is deck:
        return kept[1]
    made = commitment(hand_salt(salt, hand_number), deck)
    if isinstance(deck, tuple):
        if len(_COMMITMENTS) >= COMMITMENTS_KEPT:
            _COMMITMENTS.pop(next(iter(_COMMITMENTS)), None)
        _COMMITMENTS[key] = (deck, made)
    return made


COMMITMENTS_KEPT = 256  # hand commitments kept (`hand_commitment`), the oldest dropped first
_COMMITMENTS: dict[tuple[str, int, int], tuple[Sequence[object], str]] = {}
