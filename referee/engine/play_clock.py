"""The play clock (issue 16): a table with `turn_seconds` gives each seat it waits for that long
for each move; when the time runs out, the table's own move (a deadline passing, logged as
seat `SYSTEM`, so replays need no clock) counts the timeout and acts on `on_timeout`:
- `auto`: the referee plays the spec's `clock.auto` moves for the seat (`referee.engine.auto_moves`),
  one after another while the table still waits for it: a draw and then a discard;
- `forfeit`: the seat is out of the hand, as its mechanic scores it (`Mechanic.forfeit`).
A seat whose timeouts reach `max_timeouts` is out of the match instead (`Mechanic.retire`).
When no move of the list is legal, the seat forfeits: a table never waits for ever.

Judging stays deterministic: what a timeout does depends on the state alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, PackKind
from referee.engine.auto_moves import AutoMove
from referee.engine.game import Game
from referee.engine.mechanic import Judgement, StateT
from referee.engine.moves import parse_move
from referee.errors import MoveFormatError
from referee.model import JSON, Event, Move
from referee.spec.clock_options import AUTO, FORFEIT, MAX_TIMEOUTS, ON_TIMEOUT, TURN_SECONDS

AUTO_MOVES = 12  # moves one timeout may play for a seat (a draw and a discard are two)
HOUSE_MOVES = 64  # moves the house may make after one move of a player (its draws, the next deal)


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock options (zero seconds: no clock)."""

    turn_seconds: int = 0
    on_timeout: str = AUTO
    max_timeouts: int = 0

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> ClockSettings:
        return cls(
            int(options.get(TURN_SECONDS, 0)),
            str(options.get(ON_TIMEOUT, AUTO)),
            int(options.get(MAX_TIMEOUTS, 0)),
        )

    @property
    def runs(self) -> bool:
        return self.turn_seconds > 0

    def seen(self) -> dict[str, JSON]:
        return {
            TURN_SECONDS: self.turn_seconds,
            ON_TIMEOUT: self.on_timeout,
            MAX_TIMEOUTS: self.max_timeouts,
        }


def timed_out(
    game: Game[StateT], state: StateT, settings: ClockSettings, timeouts: Sequence[int]
) -> tuple[Judgement[StateT], list[int]]:
    """What a turn's time running out does to each seat the table waits for, and the timeouts
    counted after."""
    mechanic = game.mechanic
    counted, events = list(timeouts), []
    for seat in mechanic.awaited(state):
        if seat not in mechanic.awaited(state):  # another seat's timeout ended its wait
            continue
        counted[seat] += 1
        out = bool(settings.max_timeouts) and counted[seat] >= settings.max_timeouts
        events.append(Event("timed_out", {"seat": seat, "timeouts": counted[seat], "out": out}))
        if out:
            step = mechanic.retire(state, seat)
        elif settings.on_timeout == FORFEIT:
            step = mechanic.forfeit(state, seat)
        else:
            step = auto_play(game, state, seat) or mechanic.forfeit(state, seat)
        state = step.after
        events += step.events
    return Judgement(state=state, events=events), counted


def auto_play(game: Game[StateT], state: StateT, seat: int) -> Judgement[StateT] | None:
    """The spec's auto moves played for `seat` while the table waits for it; None when not one
    of them is legal now."""
    events: list[Event] = []
    played = 0
    while played < AUTO_MOVES and seat in game.mechanic.awaited(state):
        found = _first_accepted(game, state, seat, game.auto_moves)
        if found is None:
            break
        entry, judgement = found
        state, played = judgement.after, played + 1
        events += [Event("auto_played", {"seat": seat, "move": entry.move}), *judgement.events]
        if entry.last:
            break
    return Judgement(state=state, events=events) if played else None


def house_play(game: Game[StateT], judgement: Judgement[StateT]) -> Judgement[StateT]:
    """The accepted `judgement` carried on with every move of the house (`Mechanic.house`)
    the table plays itself after it: the first of the spec's `house.auto` the rules accept,
    judged as a proposal is, again while the house is to move. Each is told as the house's
    own (`house_played`), as the clock's are; the table logs none apart, so a replay of the
    move plays them again, alike. A house no entry is accepted for is left to wait."""
    mechanic, state = game.mechanic, judgement.state
    if not game.house_moves or state is None:
        return judgement
    events = list(judgement.events)
    for _ in range(HOUSE_MOVES):
        seat = mechanic.house(state)
        found = None if seat is None else _first_accepted(game, state, seat, game.house_moves)
        if seat is None or found is None:
            break
        entry, played = found
        state = played.after
        events += [Event("house_played", {"seat": seat, "move": entry.move}), *played.events]
    return Judgement(state=state, events=events, pending=judgement.pending)


def _first_accepted(
    game: Game[StateT], state: StateT, seat: int, entries: tuple[AutoMove, ...]
) -> tuple[AutoMove, Judgement[StateT]] | None:
    """The first candidate of the spec's list the rules accept, judged as a proposal is."""
    kind = PackKind(game.spec.pack_kind)
    for entry in entries:
        for fields in candidates(game, entry, state, seat):
            try:
                parsed = parse_move(game.spec.moves, Move(entry.move, fields), kind)
            except MoveFormatError:  # a value the spec's expression gave that is no such field
                continue
            judgement = game.mechanic.judge(state, seat, entry.move, parsed)
            if judgement.accepted:
                return entry, judgement
    return None


def candidates(
    game: Game[StateT], entry: AutoMove, state: StateT, seat: int
) -> Iterator[dict[str, JSON]]:
    """The fields `entry` proposes, in order: the spec's, with each choice the mechanic lists
    for the others, the lowest `prefer` first."""
    mechanic = game.mechanic
    env = mechanic.env_before(state, seat, entry.move)
    given = {name: _raw(expression(env)) for name, expression in entry.fields.items()}
    if not entry.listed:
        yield given
        return
    listed = [{**choice, **given} for choice in mechanic.candidates(state, seat, entry.move)]
    if entry.prefer is not None:
        kind = PackKind(game.spec.pack_kind)
        rank = {}
        for index, fields in enumerate(listed):
            try:
                parsed = parse_move(game.spec.moves, Move(entry.move, fields), kind)
            except MoveFormatError:
                continue
            rank[index] = entry.prefer({**env, "move": parsed})
        listed = [listed[i] for i in sorted(rank, key=lambda i: (rank[i], i))]
    yield from listed


def _raw(value: Any) -> JSON:
    """A value an expression gave, as a proposal's field holds it (a card as its code)."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_raw(item) for item in value]
    return value
