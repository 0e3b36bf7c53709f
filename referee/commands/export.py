"""Write the game record of a stored table (docs/scenarios.md): `referee export TABLE_ID --db
FILE` (or `--store postgresql://...`), to stdout or `--out FILE`. The record replays with
`referee replay` and Adjudicate to the same result (`referee.service.records`). Exit status 0, or
2 when the table or the store cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from referee.commands.serve import postgres_url
from referee.errors import RefereeError
from referee.scenario.target import default_specs, load_specs
from referee.service.records import stored_record
from referee.store.base import Store
from referee.store.postgres import PostgresStore
from referee.store.sqlite import SqliteStore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table_id", metavar="TABLE_ID", help="the table, as CreateTable named it")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", default="var/referee.db", help="the SQLite file of the tables")
    where.add_argument("--store", type=postgres_url, help="a PostgreSQL database of the tables")
    parser.add_argument(
        "--specs",
        metavar="DIR",
        default=None,
        help="the game specs (default: the shipped ones); a table plays the version it was "
        "created under, kept in the store",
    )
    parser.add_argument("--out", metavar="FILE", help="write the record here, not to stdout")


def run(args: argparse.Namespace) -> int:
    games = load_specs(args.specs or default_specs())
    store = _opened(args)
    try:
        record = stored_record(store, games, args.table_id)
    finally:
        store.close()
    text = yaml.safe_dump(record, sort_keys=False, allow_unicode=True, width=100)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _opened(args: argparse.Namespace) -> Store:
    if args.store:  # read only: the durability a server needs is not this command's concern
        return PostgresStore(args.store, unsafe_durability=True)
    path = Path(args.db)
    if not path.is_file():
        raise RefereeError(f"no tables' database at `{path}`")
    return SqliteStore(path)
