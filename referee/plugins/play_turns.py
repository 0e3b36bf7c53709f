"""The bots' side of `referee play`: the referee they play against (this process or a server,
behind one small protocol), a turn of proposals, and what a mechanic's driver is given
(`PlayContext`). Each mechanic's driver (`referee.plugins`) plays a table on these alone.

A turn proposes the mechanic's bot's moves; when they are spent with nothing taken, the bot of
last resort's (`legal_bot`: the fixes the rejections offered, then the seat's legal moves). When
those are too, or a turn makes `MAX_TURN_PROPOSALS`, the bots give up (`GaveUp`): the seat, the
state of the table and the last rejection, said instead of a silent spin."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from referee.errors import RefereeError
from referee.model import Outcome
from referee.plugins.legal_bot import game_moves, legal_candidates, mended
from referee.spec.schema import MoveSpec

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before
# a turn that makes so many proposals with none taken is given up (the seed games' bots need
# at most a few hundred)
MAX_TURN_PROPOSALS = 20_000
# what a give-up message shows of the public view: where the table stands
STATE_KEYS = ("hand_number", "phase", "to_act", "version")


@dataclass(frozen=True)
class Answer:
    """A verdict as the proposing seat receives it."""

    outcome: str  # accepted | rejected | pending
    rules: tuple[str, ...]  # the rules broken, with what they cite
    events: tuple[dict[str, Any], ...]  # as the proposer may see them
    reasons: tuple[str, ...] = ()  # each rule broken and its sentence: `TO-1: bet 1 to 10`
    fixes: tuple[dict[str, Any], ...] = ()  # how the rejections say to mend the move

    @property
    def taken(self) -> bool:
        return self.outcome != Outcome.REJECTED.value  # a pending claim counts as an answer


class Referee(Protocol):
    commitment: str
    moves: Mapping[str, MoveSpec]  # the spec's moves: what the bot of last resort makes
    rng: random.Random  # the bot of last resort's choices (seeded with the table seed)

    def view(self, seat: int | None) -> dict[str, Any]:
        """`seat`'s view; None: the public view."""

    def legal(self, seat: int) -> dict[str, Any]:
        """The seat's legal moves now (its view's `legal`)."""

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


class GaveUp(RefereeError):
    """The bots cannot go on: a seat found no move the referee takes."""


def play_turn(
    referee: Referee,
    seat: int,
    candidates: Iterator[dict[str, Any]],
    quiet: bool,
    events: list[dict[str, Any]] | None = None,
) -> int:
    """Propose `seat`'s candidates until one is taken, then the bot of last resort's; the
    number of proposals made. The events of the verdict taken are added to `events`. GaveUp
    when nothing is taken."""
    turn = Turn(referee, seat, quiet)
    answer = turn.first_taken(candidates) or turn.first_taken(turn.last_resort(), again=False)
    if answer is None:
        raise GaveUp(turn.why())
    if events is not None:
        events.extend(answer.events)
    return turn.proposals


class Turn:
    """One seat's proposals in a turn, and what their rejections said."""

    def __init__(self, referee: Referee, seat: int, quiet: bool) -> None:
        self.referee, self.seat, self.quiet = referee, seat, quiet
        self.proposals = 0
        self.tried: set[str] = set()  # the moves proposed, as text
        self.mends: list[dict[str, Any]] = []  # the moves the rejections' fixes offer
        self.last: tuple[dict[str, Any], Answer] | None = None  # the last rejected
        self.legal: dict[str, Any] | None = None  # asked once, if the bot's moves are spent

    def first_taken(self, moves: Iterable[dict[str, Any]], again: bool = True) -> Answer | None:
        """The answer to the first of `moves` taken; with `again` false, a move already
        proposed this turn is not proposed again."""
        for move in moves:
            if not again and repr(move) in self.tried:
                continue
            if self.proposals >= MAX_TURN_PROPOSALS:
                return None
            answer = self.propose(move)
            if answer.taken:
                return answer
        return None

    def propose(self, move: dict[str, Any]) -> Answer:
        self.proposals += 1
        self.tried.add(repr(move))
        answer = self.referee.propose(self.seat, move)
        if answer.taken or not self.quiet:
            status = (
                answer.outcome if answer.taken else f"rejected ({', '.join(answer.rules) or '-'})"
            )
            print(f"  seat {self.seat}: {move} -> {status}")
        if not answer.taken:
            self.last = (move, answer)
            spec = self.referee.moves.get(str(move.get("type")))
            self.mends += [m for fix in answer.fixes for m in mended(move, fix, spec)]
        return answer

    def last_resort(self) -> Iterator[dict[str, Any]]:
        """The moves the rejections' fixes offered, then the seat's legal moves."""
        yield from self.mends
        self.legal = self.referee.legal(self.seat)
        yield from legal_candidates(self.legal, self.referee.moves, self.referee.rng)

    def why(self) -> str:
        """The give-up message: the seat, where the table stands, the last rejection."""
        if self.proposals >= MAX_TURN_PROPOSALS:
            found = f"made {self.proposals} proposals in one turn, none taken"
        elif self.legal is not None and not game_moves(self.legal, self.referee.moves):
            found = "has no legal move"
        else:
            found = f"found no move the referee takes ({self.proposals} proposals)"
        last = None
        if self.last is not None:
            move, answer = self.last
            last = (move, answer.reasons or answer.rules)
        return give_up(self.seat, found, self.referee.view(None), last)


def give_up(
    seat: int | None,
    found: str,
    public: Mapping[str, Any],
    last: tuple[Mapping[str, Any], Iterable[str]] | None,
) -> str:
    """`the bots give up: seat 0 has no legal move (hand_number 1, phase play, to_act 0,
    version 3); last rejected: {...}: WH-9: a trick takes three cards`."""
    state = ", ".join(f"{k} {public[k]}" for k in STATE_KEYS if k in public)
    said = ""
    if last is not None:
        move, reasons = last
        said = f"; last rejected: {dict(move)}: {'; '.join(reasons) or '-'}"
    who = "no seat" if seat is None else f"seat {seat}"
    return f"the bots give up: {who} {found} ({state}){said}"
