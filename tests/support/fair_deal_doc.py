"""docs/fair-deal.md, implemented a second time from the document alone (this module does not
import `referee.engine.chance`): the keys, the shuffle and the commitment, as the document writes
them, for the tests that check the decks the referee reveals."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

WORD = 1 << 32


def doc_hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()


def doc_root(secret: str | None, seed: int | None) -> bytes:
    return bytes.fromhex(secret) if secret is not None else f"seed:{seed}".encode("ascii")


def doc_words(key: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        for i in range(8):
            yield int.from_bytes(block[4 * i : 4 * i + 4], "big")
        counter += 1


def doc_shuffle(cards: list[str], key: bytes) -> list[str]:
    deck = sorted(cards)
    words = doc_words(key)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = WORD - WORD % n
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def doc_commitment(salt: str, deck: list[str]) -> str:
    return hashlib.sha256((salt + ":" + ",".join(deck)).encode("utf-8")).hexdigest()
