"""A stored table's game record (docs/scenarios.md), as `referee export` writes it: the table's
setup and rules version, the deal's commitment (and, once the game is over, the secret its
shuffles are re-derived from), every accepted move with the version it made and the server's
time, and the result: the summary of the final state, as `referee replay` prints it.

It is the full record, the operator's: a table in play shows no secret and cannot be replayed
until it is over (docs/fair-deal.md), unless it was dealt from a chosen seed or deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.record import RESULT_FIELDS, record_of
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.model import ADJUDICATOR, JSON, Move
from referee.service.rules_versions import RulesVersions
from referee.spec.registry import Game
from referee.spec.versions import rules_version
from referee.store.base import Store


def stored_record(store: Store, games: Mapping[str, Game], table_id: str) -> dict[str, JSON]:
    """The record of `table_id` (NotFound if the store has no such table)."""
    stored = store.load_table(table_id)
    setup = TableSetup.from_data(stored.setup)
    game = RulesVersions(store, games).of_table(table_id, setup.game, stored.rules_version)
    table = Table.replay(game, setup, [(m.seat, Move.from_data(m.move)) for m in stored.moves])
    record: dict[str, Any] = record_of(table)
    record["rules_version"] = stored.rules_version or rules_version(game)
    for step, logged in zip(record["steps"], stored.moves, strict=True):
        step["version"], step["at"] = logged.seq, logged.at
    final = table.view(ADJUDICATOR)
    record["result"] = {key: final[key] for key in RESULT_FIELDS if key in final}
    return record
