"""A table's full game record, derived from its setup and its accepted moves, as `referee export`
and GetRecord give it, and as `referee verify` derives it again to compare (docs/records.md).

Beside what `referee.engine.record.record_of` lists (the setup, the deal's commitment, the moves;
the secret once the game is over), it holds: the table's id and rules version; each move's
version, the server's time and the hash of the step before it (`referee.records.chain`); every
deck revealed so far (a view showing a deck with its salt and commitment: a hand's end, a pack
shuffled away), the table's salt when the record replays (its commitments come out the same);
and the result: the final version and the summary of the final state `referee replay` prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine.game import Game
from referee.engine.record import RESULT_FIELDS, record_of
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.engine.versions import rules_version
from referee.model import ADJUDICATOR, JSON, Move
from referee.records.chain import chained

REVEALS = frozenset({"deck", "salt", "commitment"})  # a deck shown, checkable against its hash


@dataclass(frozen=True)
class Logged:
    """One accepted move as a record lists it: its seat (`SYSTEM`: a deadline passed), the move,
    and when the server took it (ISO 8601, UTC; None when not known)."""

    seat: int
    move: Move
    at: str | None = None


def full_record(
    game: Game,
    setup: TableSetup,
    moves: Sequence[Logged],
    *,
    table_id: str | None,
    reveal_secret: bool = False,
) -> dict[str, JSON]:
    """The chained record of the table `setup` makes under `game` after `moves`, each of which
    must be accepted (SetupError naming the first that is not). `reveal_secret`: the deal's
    secret even while the game is in play (it shows every card still to come)."""
    table = Table.create(game, setup)
    decks: dict[str, JSON] = {}  # by commitment: a view shows a hand's deck until the next ends
    for logged in moves:
        table.redo(logged.seat, logged.move)
        decks.update(_revealed_decks(table.view(None)))
    record: dict[str, Any] = {} if table_id is None else {"table": table_id}
    record["rules_version"] = rules_version(game)
    record.update(record_of(table))
    if reveal_secret and table.setup.secret is not None:
        record["secret"] = table.setup.secret
    if "secret" in record or table.setup.secret is None:  # it replays: its commitments too
        record["salt"] = table.setup.salt
    for version, (step, logged) in enumerate(zip(record["steps"], moves, strict=True), start=1):
        step["version"] = version
        if logged.at is not None:
            step["at"] = logged.at
    record["decks"] = list(decks.values())
    final = table.view(ADJUDICATOR)
    # the version too: a record that lost its last moves says so, whatever else they changed
    record["result"] = {key: final[key] for key in ("version", *RESULT_FIELDS) if key in final}
    return chained(as_json(record))


def as_json(value: Any) -> Any:
    """`value` as JSON data: a seat-keyed mapping's int keys become text, as JSON has them."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def _revealed_decks(view: Mapping[str, JSON]) -> dict[str, JSON]:
    """The decks the public view shows (a finished hand's, a pack shuffled away: docs/fair-deal.md)
    with what tells them apart (the hand's number, say) and their shuffle keys."""
    found: dict[str, JSON] = {}
    for place, shown in view.items():
        if isinstance(shown, Mapping) and shown.keys() >= REVEALS:
            deck = {"in": place}
            deck.update((k, v) for k, v in shown.items() if k in REVEALS | {"keys"} or _number(v))
            found[str(shown["commitment"])] = deck
    return found


def _number(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
