"""Write the signed game record of a stored table (docs/records.md): `referee export TABLE_ID
--db FILE` (or `--store postgresql://...`), to stdout or `--out FILE`. The record is the full one
(the operator's), signed with the store's key (or `--signing-key FILE`); it replays with
`referee replay` and Adjudicate to the same result, and `referee verify` checks it
(`referee.service.records`). Exit status 0, or 2 when the table or the store cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.commands.stored import add_store_arguments, opened_store
from referee.plugins.games import default_specs, load_specs
from referee.records.seal import sealed
from referee.records.signing import signing_key
from referee.service.records import stored_record
from referee.service.rules_versions import RulesVersions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table_id", metavar="TABLE_ID", help="the table, as CreateTable named it")
    add_store_arguments(parser)
    parser.add_argument(
        "--specs",
        metavar="DIR",
        default=None,
        help="the game specs (default: the shipped ones); a table plays the version it was "
        "created under, kept in the store",
    )
    parser.add_argument("--out", metavar="FILE", help="write the record here, not to stdout")
    parser.add_argument(
        "--reveal-secret",
        action="store_true",
        help="include the deal's secret of a table still in play, so that its record replays: "
        "it shows every card still to come (for a table nobody will play on)",
    )
    parser.add_argument(
        "--signing-key",
        metavar="FILE",
        type=Path,
        help="sign with this key (as serve's --signing-key), not the store's",
    )


def run(args: argparse.Namespace) -> int:
    games = load_specs(args.specs or default_specs())
    store = opened_store(args)
    try:
        key = signing_key(args.signing_key, store)
        record = stored_record(
            store, RulesVersions(store, games), args.table_id, reveal_secret=args.reveal_secret
        )
    finally:
        store.close()
    text = sealed(record, key)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
