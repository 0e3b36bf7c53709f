"""A stored table's game record (docs/records.md), as GetRecord and `referee export` give it:
the full record (`referee.records.derive`), or what one seat, or a spectator, may see of a table
in play. Each is signed by the referee (`referee.records.seal`) before it is given.

The full record is the operator's, and everyone's once the table is over: a table in play shows
no secret in it, so it replays only once over (docs/fair-deal.md), unless it was dealt from a
chosen seed or deck, or the operator asks for its secret (`referee export --reveal-secret`).

A seat's record lists every accepted move's version, seat and time, the events as the seat saw
them, and the move itself for the seat's own moves only (another's may be face down: a discard).
It carries no hash chain: the hash of a step the seat only partly sees would let it find the rest
by trying every few cards.
"""

from __future__ import annotations

from typing import Any

from referee.engine import names
from referee.engine.setup import TableSetup
from referee.engine.table import SYSTEM
from referee.model import DIRECTOR, DIRECTOR_NAME, JSON, Move, Verdict
from referee.records.derive import Logged, as_json, full_record
from referee.records.verification import SEEN_BY
from referee.service.rules_versions import RulesVersions
from referee.store.base import Proposal, Store, TableRecord

PUBLIC = "public"  # a spectator's record: `seen_by`


def stored_record(
    store: Store, versions: RulesVersions, table_id: str, *, reveal_secret: bool = False
) -> dict[str, JSON]:
    """The full record of `table_id` (NotFound if the store has no such table)."""
    stored = store.load_table(table_id)
    setup = TableSetup.from_data(stored.setup)
    game = versions.of_table(table_id, setup.game, stored.rules_version)
    moves = [Logged(m.seat, Move.from_data(m.move), m.at) for m in stored.moves]
    return full_record(game, setup, moves, table_id=table_id, reveal_secret=reveal_secret)


def seen_record(stored: TableRecord, game_version: str, seat: int | None) -> dict[str, JSON]:
    """What `seat` (None: a spectator) may see of the record of a table in play."""
    setup = TableSetup.from_data(stored.setup)
    record: dict[str, Any] = {
        "format": 1,
        "table": stored.table_id,
        "game": setup.game,
        "rules_version": game_version,
        "seats": setup.seats,
        "dealer": setup.dealer,
        "options": dict(setup.options),
        SEEN_BY: PUBLIC if seat is None else seat,
    }
    if setup.seed is not None:  # a chosen seed is shown to every seat (docs/fair-deal.md)
        record["seed"] = setup.seed
    if setup.names:  # labels for people: nobody's secret
        record["names"] = names.shown(setup.names)
    record["steps"] = [_seen_step(logged, seat) for logged in stored.moves]
    seen: dict[str, JSON] = as_json(record)
    return seen


def _seen_step(logged: Proposal, seat: int | None) -> dict[str, JSON]:
    step: dict[str, JSON] = {"version": logged.seq, "at": logged.at}
    if logged.seat == SYSTEM:
        step["close_window"] = True
    elif logged.seat == DIRECTOR:  # a ruling, for the whole table to see
        step["seat"] = DIRECTOR_NAME
        step["move"] = dict(logged.move)
    else:
        step["seat"] = logged.seat
        if logged.seat == seat:
            step["move"] = dict(logged.move)
    step["events"] = [event.seen_by(seat) for event in Verdict.from_data(logged.verdict).events]
    return step
