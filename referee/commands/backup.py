"""Copy the tables' SQLite file to a new file, whole and consistent, even while a referee serves it.

`referee backup --db var/referee.db --to BACKUP.db` uses SQLite's online backup: it reads one
snapshot of the file (every move committed before it, none half-written) through a read-only
connection, so the serving referee goes on accepting moves meanwhile, and it takes no claim on
the file. The copy is written beside its target and renamed into place once whole and checked
(`PRAGMA integrity_check`), readable by its owner only: it holds the seat tokens' digests and
the signing key. It prints what it copied. To restore, stop the referee and put the copy in
place of its `--db` file (docs/deploying.md, "Backups"). PostgreSQL's are pg_dump's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from referee.errors import RefereeError

BUSY_TIMEOUT_S = 30.0  # how long the copy may wait for the serving referee's checkpoint
PARTIAL_SUFFIX = ".partial"
ACCEPTED_MOVES = "SELECT count(*) FROM proposals WHERE seq IS NOT NULL"  # not rejections kept


@dataclass(frozen=True)
class Copied:
    tables: int
    moves: int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", default="var/referee.db", help="the SQLite file of the tables, served or not"
    )
    parser.add_argument(
        "--to", required=True, type=Path, help="the copy's file (a new one: never overwritten)"
    )


def run(args: argparse.Namespace) -> int:
    copied = backup(Path(args.db), args.to)
    print(f"referee backup: {args.db} -> {args.to}: {copied.tables} tables, {copied.moves} moves")
    return 0


def backup(source: Path, target: Path) -> Copied:
    """Copy `source` to the new file `target`: a RefereeError if either is not as it must be."""
    if not source.is_file():
        raise RefereeError(f"no tables' database at `{source}`")
    if target.exists():
        raise RefereeError(f"`{target}` exists: a backup goes to a new file")
    partial = target.with_name(target.name + PARTIAL_SUFFIX)
    try:
        # the owner's alone from the start: no moment where another user could open it
        os.close(os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as problem:
        raise RefereeError(f"cannot write `{partial}`: {problem.strerror or problem}") from None
    try:
        copied = _copy(source, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return copied


def _copy(source: Path, partial: Path) -> Copied:
    uri = f"{source.resolve().as_uri()}?mode=ro"
    try:
        with (
            contextlib.closing(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S)) as reader,
            contextlib.closing(sqlite3.connect(partial)) as copy,
        ):
            reader.backup(copy)  # all pages in one step: one snapshot, the writer not stopped
            checked = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if checked != "ok":
                raise RefereeError(f"the copy of `{source}` is not sound: {checked}")
            tables = copy.execute("SELECT count(*) FROM tables").fetchone()[0]
            moves = copy.execute(ACCEPTED_MOVES).fetchone()[0]
    except sqlite3.Error as problem:
        raise RefereeError(f"cannot back up `{source}`: {problem}") from None
    return Copied(int(tables), int(moves))
