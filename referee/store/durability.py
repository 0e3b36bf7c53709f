"""Whether a PostgreSQL server keeps what it commits: the start-up check of `PostgresStore`.

An accepted move is returned only once it is durable. PostgreSQL says so at commit only if it
syncs its write-ahead log (`fsync`) and waits for that sync before answering
(`synchronous_commit`: any level but `off`, which answers first and may lose the last commits
in a crash). `--unsafe-durability` skips the check, for throw-away databases.
"""

from __future__ import annotations

from referee.errors import FailedPrecondition


class NotDurable(FailedPrecondition):
    """The database could lose committed moves in a crash: the referee refuses to serve on it."""

    code = "not_durable"


def durability_problem(fsync: str, synchronous_commit: str) -> str | None:
    """What makes the database lose commits in a crash, or None."""
    if fsync != "on":
        return f"`fsync` is `{fsync}`"
    if synchronous_commit == "off":
        return "`synchronous_commit` is `off`"
    return None


def check_durable(fsync: str, synchronous_commit: str) -> None:
    problem = durability_problem(fsync, synchronous_commit)
    if problem is not None:
        raise NotDurable(
            f"the database is not durable: {problem}: turn it on, "
            "or serve with --unsafe-durability to accept losing moves in a crash"
        )
