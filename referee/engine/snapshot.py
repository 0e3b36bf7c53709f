"""A table's snapshot: its state at a version, so that reloading it judges no move again.

The move log stays the truth and a snapshot is only a cache of its fold (DESIGN.md): `restore`
gives the table `Table.replay` would, or refuses (`SnapshotError`), and the loader then replays.

A snapshot holds the mechanic's state (any mechanic's: `state_codec` reads its dataclasses'
type hints), the table's version, its `contribute` moves counted, its disputes, its play
clock (timeouts, when its deadline began) and its first deal's commitment;
and fingerprints of what it fits, each refused when it differs: its format (`FORMAT`), the game,
the game's spec as loaded (sha256), the state's layout (its classes, fields and types), the
table's setup, and the last move it folds in.

It does not hold the log (`Table.history`): the store holds it already, and each snapshot of a
table of 5,000 moves would write them all again. `restore` takes the stored log and judges only
the moves after the snapshot's version, as replay would (a snapshot taken every N moves serves
every version after it); the moves before are kept unjudged, and unread until a game record
asks for them (`Table.resumed`): reading 5,000 stored moves costs more than restoring.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Sequence
from typing import Any

import msgspec

from referee.engine.disputes import Dispute
from referee.engine.game import Game
from referee.engine.mechanic import Mechanic
from referee.engine.setup import TableSetup
from referee.engine.state_codec import StateCodec
from referee.engine.table import Table
from referee.engine.versions import digest, rules_version
from referee.errors import RefereeError
from referee.model import Move

FORMAT = 2  # the layout of a snapshot itself: a snapshot of another format is refused
NO_MOVE = ""  # the last move folded in, at version 0


class SnapshotError(RefereeError):
    """A snapshot that does not fit the table (another game, spec, setup or log; another format;
    not a snapshot at all), or a state the codec cannot write: replay the log instead."""

    code = "snapshot_refused"


class _Format(msgspec.Struct):
    format: int


class _Snapshot(msgspec.Struct, forbid_unknown_fields=True):
    format: int
    game: str
    spec: str  # sha256 of the game's spec as loaded (`extends` merged)
    layout: str  # sha256 of the state's classes, fields and types
    setup: str  # sha256 of the table's setup
    version: int
    last_move: str  # sha256 of the log's move at `version` (NO_MOVE at 0)
    contributions: int
    commitment: str  # the first deal's, as CreateTable gave it
    disputes: list[Dispute]
    timeouts: list[int]  # each seat's turns run out (the play clock)
    deadline_since: int  # the version its deadline began at (`Table.deadline`)
    state: msgspec.Raw  # read once the rest fits


def snapshot(table: Table) -> str:
    """The table at its version, as JSON text. Raises SnapshotError for a state the codec cannot
    give back exactly (checked here, so that such a snapshot is never written)."""
    codec = _codec(table.game)
    try:
        state = msgspec.json.encode(codec.encode(table.state))
        body = _Snapshot(
            format=FORMAT,
            game=table.game.name,
            spec=_spec_digest(table.game),
            layout=codec.layout,
            setup=_digest(table.setup.to_data()),
            version=table.version,
            last_move=_digest_move(table.last_move),
            contributions=table.contributions,
            commitment=table.commitment,
            disputes=list(table.disputes.values()),
            timeouts=list(table.timeouts),
            deadline_since=table.deadline_since,
            state=msgspec.Raw(state),
        )
        data = msgspec.json.encode(body).decode()
    except (TypeError, ValueError, msgspec.EncodeError) as error:
        raise SnapshotError(
            f"the state of `{table.game.name}` cannot be snapshot: {error}"
        ) from None
    if _state(codec, body) != table.state:
        raise SnapshotError(f"the state of `{table.game.name}` does not read back the same")
    return data


def restore(
    game: Game, setup: TableSetup, data: str | bytes, moves: Sequence[tuple[int, Move]]
) -> Table:
    """The table `Table.replay(game, setup, moves)` gives, from its snapshot `data` at a version
    of its log `moves`: the moves after that version are judged again; those before are not,
    and are not even read until the table's `history` is asked for (a game record), so `moves`
    may be a sequence of the store's that reads its rows only then: restore asks it for its
    length, the move at the snapshot's version, and the moves after.
    Raises SnapshotError if the snapshot does not fit (the caller replays instead), SetupError
    if a move after it is now rejected (as replay does)."""
    body = _read(data)
    codec = _codec(game)
    _check_fits(body, game, codec, setup, moves)
    table = Table.resumed(
        game,
        setup,
        _state(codec, body),
        version=body.version,
        contributions=body.contributions,
        commitment=body.commitment,
        earlier=moves[: body.version],
        disputes=body.disputes,
        timeouts=body.timeouts,
        deadline_since=body.deadline_since,
    )
    table.fold(moves[body.version :])
    return table


def _read(data: str | bytes) -> _Snapshot:
    if not isinstance(data, (str, bytes)):
        raise SnapshotError(f"a snapshot is JSON text, not `{type(data).__name__}`")
    try:  # msgspec checks every value's type; a nesting too deep for it is a RecursionError
        found = msgspec.json.decode(data, type=_Format).format
    except (msgspec.DecodeError, RecursionError) as error:
        raise SnapshotError(f"not a snapshot: {error}") from None
    if found != FORMAT:
        raise SnapshotError(f"a snapshot of format {found}: this referee reads format {FORMAT}")
    try:
        return msgspec.json.decode(data, type=_Snapshot)
    except (msgspec.DecodeError, RecursionError) as error:
        raise SnapshotError(f"not a snapshot of format {FORMAT}: {error}") from None


def _check_fits(
    body: _Snapshot,
    game: Game,
    codec: StateCodec,
    setup: TableSetup,
    moves: Sequence[tuple[int, Move]],
) -> None:
    if body.game != game.name:
        raise SnapshotError(f"a snapshot of `{body.game}`, not of `{game.name}`")
    if body.spec != _spec_digest(game):
        raise SnapshotError(f"a snapshot of another spec of `{game.name}`: it changed since")
    if body.layout != codec.layout:
        raise SnapshotError(
            f"a snapshot of another state of the `{game.mechanic.name}` mechanic: it changed since"
        )
    if body.setup != _digest(setup.to_data()):
        raise SnapshotError("a snapshot of a table of another setup")
    if len(body.timeouts) != setup.seats or not 0 <= body.deadline_since <= body.version:
        raise SnapshotError("a snapshot of a table of another number of seats, or version")
    if not 0 <= body.version <= len(moves) or not 0 <= body.contributions <= body.version:
        raise SnapshotError(f"a snapshot at version {body.version}, of a log of {len(moves)} moves")
    if body.last_move != _digest_move(moves[body.version - 1] if body.version else None):
        raise SnapshotError(f"a snapshot whose move {body.version} is not the log's")


def _state(codec: StateCodec, body: _Snapshot) -> Any:
    try:
        return codec.decode(msgspec.json.decode(body.state))
    except (msgspec.DecodeError, TypeError, ValueError, RecursionError) as error:
        raise SnapshotError(f"the snapshot's state does not read: {error}") from None


def _digest_move(last: tuple[int, Move] | None) -> str:
    return NO_MOVE if last is None else _digest([last[0], last[1].to_data()])


def _digest(value: Any) -> str:
    return digest(value)


def _spec_digest(game: Game) -> str:
    """The spec's rules version (sha256 of the spec as loaded): any change to it (a rule, an
    option, a card) refuses the snapshots taken before, unless the table keeps its old version."""
    return rules_version(game)


def _codec(game: Game) -> StateCodec:
    try:
        return _codec_of(_state_type(type(game.mechanic)))
    except TypeError as error:
        raise SnapshotError(
            f"the state of the `{game.mechanic.name}` mechanic cannot be snapshot: {error}"
        ) from None


@functools.cache
def _codec_of(kind: type) -> StateCodec:
    return StateCodec(kind)


def _state_type(mechanic: type[Mechanic[Any]]) -> type:
    """The state class a mechanic declares (`class RummyMechanic(Mechanic[RummyState])`): the
    only class a snapshot of its tables is read into."""
    for klass in mechanic.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            args = typing.get_args(base)
            if typing.get_origin(base) is Mechanic and args and dataclasses.is_dataclass(args[0]):
                return typing.cast(type, args[0])
    raise TypeError(f"`{mechanic.__name__}` declares no state dataclass (`Mechanic[State]`)")


__all__ = ["FORMAT", "SnapshotError", "restore", "snapshot"]
