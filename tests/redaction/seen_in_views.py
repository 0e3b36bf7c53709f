"""The cards a seat sees, read off its rendered view: how `referee.redaction` found them until
issue 28, kept as the oracle each mechanic's `knowable` must equal.

Every card code the seat's whole view names (a card, or a text quoting one), but in the finished
hand's record (`last_hand`, `revealed_deck`: its cards may be back in play). A view's `??` (a
card it hides) is no card.
"""

from __future__ import annotations

from referee.cards import PackKind
from referee.engine.table import Table
from referee.redaction import HIDDEN, cards_in

HISTORY = frozenset({"last_hand", "revealed_deck"})


def seen_in_view(table: Table, seat: int | None) -> frozenset[str]:
    """The cards `seat`'s view of `table` names (None: a spectator's), its history aside."""
    kind = PackKind(table.game.spec.pack_kind)
    return frozenset(cards_in(table.view(seat), kind, skip=HISTORY)) - {HIDDEN}
