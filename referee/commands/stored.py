"""The store a command reads, named as `serve` names it: `--db FILE` (SQLite, the default) or
`--store postgresql://...`."""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.commands.serve import postgres_url
from referee.errors import RefereeError
from referee.store.base import Store
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore


def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", default="var/referee.db", help="the SQLite file of the tables")
    where.add_argument("--store", type=postgres_url, help="a PostgreSQL database of the tables")


def opened_store(args: argparse.Namespace) -> Store:
    if args.store:  # not a server: the durability a server needs is not this command's concern
        return PostgresStore(args.store, unsafe_durability=True)
    path = Path(args.db)
    if not path.is_file():
        raise RefereeError(f"no tables' database at `{path}`")
    return SqliteStore(path)
