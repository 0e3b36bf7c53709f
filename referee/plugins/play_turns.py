"""The bots' side of `referee play`: the referee they play against (this process or a server,
behind one small protocol), a turn of proposals, and what a mechanic's driver is given
(`PlayContext`). Each mechanic's driver (`referee.plugins`) plays a table on these alone."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from referee.model import Outcome

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before


@dataclass(frozen=True)
class Answer:
    """A verdict as the proposing seat receives it."""

    outcome: str  # accepted | rejected | pending
    rules: tuple[str, ...]  # the rules broken, with what they cite
    events: tuple[dict[str, Any], ...]  # as the proposer may see them

    @property
    def taken(self) -> bool:
        return self.outcome != Outcome.REJECTED.value  # a pending claim counts as an answer


class Referee(Protocol):
    commitment: str

    def view(self, seat: int | None) -> dict[str, Any]:
        """`seat`'s view; None: the public view."""

    def propose(self, seat: int, move: dict[str, Any]) -> Answer: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class PlayContext:
    """What `referee play` gives a mechanic's driver: the game's name, the command's arguments,
    a way to open the table (`open_table(balances=...)`) and the table's options, resolved."""

    game: str
    args: argparse.Namespace
    open_table: Callable[..., Referee]
    options: Callable[[], Mapping[str, Any]]


def play_turn(
    referee: Referee,
    seat: int,
    candidates: Iterator[dict[str, Any]],
    quiet: bool,
    events: list[dict[str, Any]] | None = None,
) -> int:
    """Propose `seat`'s candidates until one is taken; the number of proposals made (at least
    one: a turn in which nothing was taken is tried again, with new random choices). The events
    of the verdict taken are added to `events`."""
    proposals = 0
    for move in candidates:
        proposals += 1
        answer = referee.propose(seat, move)
        if answer.taken or not quiet:
            status = (
                answer.outcome if answer.taken else f"rejected ({', '.join(answer.rules) or '-'})"
            )
            print(f"  seat {seat}: {move} -> {status}")
        if answer.taken:
            if events is not None:
                events.extend(answer.events)
            break
    return max(proposals, 1)
