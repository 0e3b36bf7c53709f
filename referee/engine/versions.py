"""Rules versions: a game's spec as loaded, named by its content hash.

A table is pinned to the version it was created under (the store keeps the hash with the table,
and the spec's text once per version), so a referee restarted with corrected specs still judges
an old table by the rules it was created under, and a new one by the new rules.

The version is the sha256 of the spec as loaded (`extends` merged, so a base's change is a change
of every variant of it), written as canonical JSON; the same digest a snapshot is fingerprinted
with (`referee.engine.snapshot`), so a table served under its own version reads its snapshots.
A change of layout or comments only is no new version; the proofs file is not part of it.
"""

from __future__ import annotations

import hashlib
import weakref
from typing import Any

import msgspec

from referee.engine.game import Game

SHORT = 12  # hex digits of a version shown to people (the API gives it whole)

_VERSIONS: weakref.WeakKeyDictionary[Game, str] = weakref.WeakKeyDictionary()


def rules_version(game: Game) -> str:
    """The hex sha256 of the game's spec as loaded (made once a game)."""
    if game not in _VERSIONS:
        _VERSIONS[game] = digest(game.spec.located.data)
    return _VERSIONS[game]


def short(version: str) -> str:
    """A version as people read it (`3f2a9c01d4e7`): enough to tell versions apart."""
    return version[:SHORT]


def source_text(game: Game) -> str:
    """The text a store keeps of the game's version: its spec files as loaded."""
    return game.source.to_text()


def digest(value: Any) -> str:
    """sha256 of `value` as JSON, its keys as text and sorted (a stacked deal's seats are ints)."""
    text = msgspec.json.encode(msgspec.to_builtins(value, str_keys=True), order="sorted")
    return hashlib.sha256(text).hexdigest()


__all__ = ["SHORT", "digest", "rules_version", "short", "source_text"]
