"""Hearing what other processes write to a shared PostgreSQL store: LISTEN on one connection of
this process's own, each move another process commits told to a `Follower`.

An announcement is a small JSON payload: the table, the version the move made, the process that
made it (a process ignores its own), and the table's pending deadline after it. NOTIFY is sent on
commit and heard in commit order, but only while listening: when the connection is lost, the
listener reconnects (waiting a little longer each time, up to `MOST_WAIT_S`) and tells the
follower it may have missed some, which then checks what it holds against the store.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

import psycopg
import structlog

from referee.store.base import KEEP, Due, Follower, Keep

log = structlog.get_logger("referee.store")

CHANNEL = "referee_moves"
APPLICATION_NAME = "referee-listener"  # how the listening connection shows in pg_stat_activity
FIRST_WAIT_S = 0.1  # before reconnecting, doubled each failure up to MOST_WAIT_S
MOST_WAIT_S = 2.0
POLL_S = 0.5  # how often the listening thread looks up from the socket (to notice `stop`)


def announcement(instance: str, table_id: str, version: int, deadline: Due | Keep | None) -> str:
    """The payload announcing move `version` of `table_id`, made by process `instance`."""
    said: dict[str, object] = {"by": instance, "table": table_id, "version": version}
    if deadline is not KEEP:
        said["deadline"] = None if deadline is None else [deadline.number, deadline.at]
    return json.dumps(said, separators=(",", ":"))


@dataclass(frozen=True)
class Heard:
    by: str
    table_id: str
    version: int
    deadline: Due | Keep | None


def heard(payload: str) -> Heard | None:
    """An announcement read back; None for a payload that is not one (nothing to act on)."""
    try:
        said = json.loads(payload)
        deadline: Due | Keep | None = KEEP
        if "deadline" in said:
            due = said["deadline"]
            deadline = None if due is None else Due(int(due[0]), float(due[1]))
        return Heard(str(said["by"]), str(said["table"]), int(said["version"]), deadline)
    except (ValueError, TypeError, KeyError, IndexError):
        return None


class Listener:
    """A thread listening on `CHANNEL` for as long as the store is open."""

    def __init__(
        self, url: str, instance: str, follower: Follower, *, connect_timeout: int
    ) -> None:
        self._url = url
        self._instance = instance
        self._follower = follower
        self._connect_timeout = connect_timeout
        self._stopping = threading.Event()
        self.listening = threading.Event()  # set while LISTEN holds
        self._thread = threading.Thread(target=self._run, name="referee-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2 * POLL_S + self._connect_timeout)

    def _run(self) -> None:
        wait = FIRST_WAIT_S
        while not self._stopping.is_set():
            try:
                self._listen()
            except psycopg.Error as problem:  # the database is down or the connection was cut
                log.warning("store_not_listening", error=_first_line(problem))
            except Exception:  # a follower's failure must not end the listening
                log.exception("store_listener_failed")
            # a connection that held gets another at once; a database still down, less often
            wait = FIRST_WAIT_S if self.listening.is_set() else min(2 * wait, MOST_WAIT_S)
            self.listening.clear()
            self._stopping.wait(wait)

    def _listen(self) -> None:
        with psycopg.connect(
            self._url,
            autocommit=True,
            connect_timeout=self._connect_timeout,
            application_name=APPLICATION_NAME,
        ) as db:
            db.execute(f"LISTEN {CHANNEL}")  # a name of ours: LISTEN takes no parameter
            self.listening.set()
            self._follower.missed()  # what was written while nobody listened
            while not self._stopping.is_set():
                for notice in db.notifies(timeout=POLL_S):
                    said = heard(notice.payload)
                    if said is not None and said.by != self._instance:
                        self._follower.moved(said.table_id, said.version, said.deadline)


def _first_line(problem: Exception) -> str:
    text = str(problem).strip()
    return text.splitlines()[0] if text else type(problem).__name__
