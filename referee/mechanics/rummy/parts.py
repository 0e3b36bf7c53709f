"""The settings of the optional parts a spec selects in `rummy`, compiled: the elimination match
(`rummy.match`) and claim windows (`rummy.claims`).

A module of their own, below the reader that builds them (`reading.py`) and the config that
holds them (`config.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MatchRules:
    """The elimination match: hands are dealt until one seat is left under `blow_at`."""

    blow_at: int  # a total at or over this blows
    stake_option: str | None  # the option holding the entry stake; 0 = no stakes
    drop_percent: int  # of the stake, to whoever goes out, from every other seat in
    doubling: bool  # each re-entry pays the stake doubled per earlier blow
    # the spec's `rummy.match.reentry_score`, given the options and the scores still in (None:
    # the spec has no `reenter` move)
    reentry_score: Callable[[Mapping[str, Any], list[int]], int] | None

    def stake(self, options: Mapping[str, Any]) -> int:
        return int(options.get(self.stake_option, 0)) if self.stake_option else 0


@dataclass(frozen=True)
class ClaimRules:
    option: str | None  # the option choosing how claims are settled (None: no windows)
    window_value: str  # its value that opens a window on each discard
    deadline_option: str | None  # the option holding the window's length in milliseconds
    priority: tuple[str, ...]  # which claim wins: names of `priority.ORDERS`, first decides
