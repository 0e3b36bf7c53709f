"""The store a command reads, named as `serve` names it: `--db FILE` (SQLite, the default) or
`--store postgresql://...`, given several times for tables partitioned across databases (in the
order `serve` has them)."""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.commands.arguments import Several
from referee.commands.serve import postgres_urls
from referee.errors import RefereeError
from referee.store.base import Store
from referee.store.partitioned import open_databases
from referee.store.sqlite import SqliteStore


def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", default="var/referee.db", help="the SQLite file of the tables")
    where.add_argument(
        "--store",
        type=postgres_urls,
        action=Several,
        metavar="URL",
        help="a PostgreSQL database of the tables; several times: each of serve's, in its order",
    )


def opened_store(args: argparse.Namespace) -> Store:
    if args.store:  # not a server: the durability a server needs is not this command's concern
        return open_databases(args.store, unsafe_durability=True)
    path = Path(args.db)
    if not path.is_file():
        raise RefereeError(f"no tables' database at `{path}`")
    return SqliteStore(path)
