"""A table's game record (SCENARIOS.md): its setup and its accepted moves, what replay needs.

A fair table's record carries its `deal_commitment` and, once the game is over, the revealed
`secret`, from which `Adjudicate` and `referee replay` re-derive every shuffle; before that it
holds no secret and cannot be replayed yet (docs/fair-deal.md).
"""

from __future__ import annotations

from typing import Any

from referee.engine import names
from referee.engine.table import SYSTEM, Table
from referee.model import DIRECTOR, DIRECTOR_NAME, JSON

# what of a final state a record's `result` says, and `referee replay` prints (those a game has)
RESULT_FIELDS = (
    "to_act",
    "hand_over",
    "match_over",
    "winner",
    "scores",
    "blown",
    "balances",
    "pot",
    "kitty",
    "points",
    "tricks",
    "totals",
)


def record_of(table: Table) -> dict[str, JSON]:
    setup = table.setup
    record: dict[str, Any] = {
        "format": 1,
        "game": setup.game,
        "seats": setup.seats,
        "dealer": setup.dealer,
        "options": dict(setup.options),
    }
    for key in ("seed", "deal", "scores", "balances", "entropy"):
        value = getattr(setup, key)
        if value is not None:
            record[key] = dict(value) if isinstance(value, dict) else value
    if setup.names:  # the seats' display names, when CreateTable gave some
        record["names"] = names.shown(setup.names)
    if setup.secret is not None:  # the referee's: shown once the game is over
        record["deal_commitment"] = table.deal_commitment
        if table.is_over:
            record["secret"] = setup.secret
    record["steps"] = [step_of(seat, move.to_data()) for seat, move in table.history]
    return record


def step_of(seat: int, move: JSON) -> dict[str, JSON]:
    """A logged move as a record's step: a seat's move, the director's ruling, or the table's
    deadline passing (`close_window`, its name from when only claim windows had one)."""
    if seat == SYSTEM:
        return {"close_window": True}
    return {"seat": DIRECTOR_NAME if seat == DIRECTOR else seat, "move": move}
