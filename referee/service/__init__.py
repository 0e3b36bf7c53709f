"""The application service (`RefereeService`), split by concern: the live-table cache
(`tables`), watching (`watching`), deadlines (`deadlines`), seat tokens (`auth`) and what it
answers (`answers`). Callers import from here."""

from referee.service.answers import CreatedTable, Ruling, SeatView
from referee.service.referee_service import MAX_STREAMS_PER_TABLE, WATCH_CAPACITY, RefereeService
from referee.service.tables import MAX_LIVE_TABLES
from referee.service.watching import (
    SeenMove,
    ShuttingDown,
    Subscription,
    TooManyWatchers,
    WatcherTooSlow,
)

__all__ = [
    "MAX_LIVE_TABLES",
    "MAX_STREAMS_PER_TABLE",
    "WATCH_CAPACITY",
    "CreatedTable",
    "RefereeService",
    "Ruling",
    "SeatView",
    "SeenMove",
    "ShuttingDown",
    "Subscription",
    "TooManyWatchers",
    "WatcherTooSlow",
]
