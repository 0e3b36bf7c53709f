"""Claim-window deadlines on one scheduler (issue 10): a heap and one thread, not a thread per
window. The scheduler runs calls in due order, early ones first even when added later, skips
cancelled ones, survives a failing one; a thousand open windows hold no thread of their own."""

from __future__ import annotations

import threading
import time

from referee.clock import ManualClock
from referee.engine.game import Game
from referee.model import Move
from referee.scheduler import Scheduler
from referee.service import RefereeService
from referee.store.memory import MemoryStore


def test_calls_run_in_due_order_and_a_later_earlier_one_wakes_the_thread() -> None:
    scheduler = Scheduler()
    ran: list[str] = []
    done = threading.Event()

    def late() -> None:
        ran.append("late")
        done.set()

    scheduler.call_later(0.3, late)
    scheduler.call_later(0.05, ran.append, "early")
    cancelled = scheduler.call_later(0.1, ran.append, "cancelled")
    cancelled.cancel()
    scheduler.call_later(0.02, lambda: 1 / 0)  # a failing call stops nothing
    assert done.wait(5)
    assert ran == ["early", "late"]
    scheduler.close()


def test_a_closed_scheduler_runs_nothing_more() -> None:
    scheduler = Scheduler()
    ran: list[int] = []
    scheduler.call_later(0.05, ran.append, 1)
    scheduler.close()
    time.sleep(0.15)
    assert ran == [] and scheduler.pending == 0


DEAL = {
    "hands": {
        "1": ["5C", "2H", "KH", "KD", "QH", "JD", "TD", "8S", "7S"],
        "2": ["5S", "5H", "2S", "3S", "JC", "QC", "AD", "8C", "6D"],
        "0": ["6C", "7C", "JS", "QS", "KS", "2D", "3D", "4D", "5D"],
    },
    "turned": "9D",
    "stock": ["AH", "2C", "TC"],
}


def test_a_thousand_open_windows_hold_no_thread_each(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    before = threading.active_count()
    try:
        for _ in range(1000):
            created = service.create_table(
                "taradinho", seats=3, deal=DEAL, options={"claim_window_ms": 600_000}
            )
            token = created.tokens[1]
            service.propose(created.table_id, token, Move("draw"))
            service.propose(created.table_id, token, Move("discard", {"card": "5C"}))
        assert service.armed_deadlines == 1000
        assert threading.active_count() - before < 5 and threading.active_count() < 50
    finally:
        service.close()


def test_a_manual_clock_makes_the_calls_due_in_order_when_moved() -> None:
    """The clock deadline tests inject (`referee.clock.ManualClock`): nothing runs until it is
    moved, then each call due by then, in due order, a call added on the way too."""
    clock = ManualClock()
    ran: list[str] = []
    clock.call_later(2, ran.append, "late")

    def early() -> None:
        ran.append("early")
        clock.call_later(0.5, ran.append, "added")

    clock.call_later(1, early)
    clock.call_later(1.2, ran.append, "cancelled").cancel()
    clock.advance(1.4)
    assert ran == ["early"] and clock.now() == 1.4
    clock.advance(0.6)
    assert ran == ["early", "added", "late"] and clock.pending == 0
