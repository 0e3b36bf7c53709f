"""Redactions turned off, for the controls: each test must see the leak it makes.

Each break is a list of (object, attribute, replacement) for `monkeypatch.setattr`.
"""

from __future__ import annotations

from typing import Any

from referee.engine.table import Table
from referee.mechanics.banking import views as banking_views
from referee.mechanics.banking.mechanic import BankingMechanic
from referee.model import ADJUDICATOR, JSON, Move
from referee.service import answers, referee_service, watching
from referee.spec.rules import CompiledRule, RuleBook

Break = list[tuple[Any, str, Any]]


def _events_whole(events: Any, seat: int | None) -> list[dict[str, Any]]:
    return [event.seen_by(ADJUDICATOR) for event in events]


def _verdict_whole(table: Any, seat: int, move: Move, verdict: Any) -> Any:
    return verdict


def banker_hand_whole(self: BankingMechanic, state: Any, seat: int) -> list[str]:
    """The leak issue 10 found: a rejection lists the proposer's hand as the adjudicator sees it
    (the banker's first card too, which the banker does not see)."""
    if not state.hands[seat]:
        return []
    return banking_views.seen_cards(state, seat, state.hand(seat), ADJUDICATOR)


def fix_names_the_bankers_hand(self: CompiledRule, env: Any) -> dict[str, JSON]:
    """A leak a rule's `fix:` could make: every rejection's fix names the banker's hand
    (`banker_cards` of the context), the face-down first card too."""
    if env is None:
        return {}
    return {"kind": "play_one_of", "cards": [str(c) for c in env["banker_cards"]]}


_READS_AT = RuleBook.reads_at


def reads_the_bankers_hand_too(self: RuleBook, checkpoint: str, at: str = "before") -> Any:
    """What a checkpoint with such a fix reads: its rules' names, and `banker_cards` (a move is
    judged with the names its checkpoint reads alone)."""
    return _READS_AT(self, checkpoint, at) | {"banker_cards"}


def _full_view(table: Table, seat: int | None, legal: bool = False) -> dict[str, Any]:
    view = table.game.mechanic.view(table.state, ADJUDICATOR)
    view.update(game=table.game.name, version=table.version)
    return view


# the service's modules that pass events and verdicts through the redaction point
EVENTS_WHOLE: Break = [
    (watching, "events_for", _events_whole),
    (referee_service, "events_for", _events_whole),
]
VIEWS_WHOLE: Break = [(Table, "view", _full_view)]
MECHANIC_LEAK: Break = [(BankingMechanic, "_cards_shown", banker_hand_whole)]
FIX_LEAK: Break = [
    (CompiledRule, "mend", fix_names_the_bankers_hand),
    (RuleBook, "reads_at", reads_the_bankers_hand_too),
]
REJECTIONS_WHOLE: Break = [(answers, "verdict_for", _verdict_whole), *MECHANIC_LEAK]
FIXES_WHOLE: Break = [(answers, "verdict_for", _verdict_whole), *FIX_LEAK]

# name: (a game that shows it, the break, the answer that then leaks)
CONTROLS: dict[str, tuple[str, Break, str]] = {
    "events shown whole": ("pontinho", EVENTS_WHOLE, "Watch"),
    "views shown whole": ("tarocchi_piedicavallo", VIEWS_WHOLE, "GetView"),
    "rejections unredacted": ("pontoon", REJECTIONS_WHOLE, "Propose"),
    "rejection fixes unredacted": ("pontoon", FIXES_WHOLE, "Propose"),
}
