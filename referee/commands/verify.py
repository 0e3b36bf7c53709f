"""Check a signed game record (docs/records.md): `referee verify RECORD [--key PUBLIC]`.

Checks its form, the referee's signature (by the trusted `--key` when given: a public key in hex,
as `referee key` prints it, or a file holding it or its PEM), the chain of its steps, the deal's
commitments against the revealed secret and decks, and replays it under the rules version it
names, every shuffle re-derived, to the recorded result (`--specs DIR`, as often as needed, for
versions other than the shipped specs'). One line per check: `ok`, `FAILED`, or `cannot check yet`
and why. Exit status 0 when no check fails, 1 when one does, 2 when the record cannot be read.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from referee.errors import RefereeError
from referee.plugins.games import default_specs, load_specs
from referee.records.signing import read_public_key
from referee.records.verification import Verification, verify
from referee.scenario.format import MAX_RECORD_CHARS

SAID = {True: "ok", False: "FAILED", None: "cannot check yet"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="a signed record (referee export)")
    parser.add_argument(
        "--key", metavar="PUBLIC", help="the referee's public key (hex, or a file holding it)"
    )
    parser.add_argument(
        "--specs",
        metavar="DIR",
        action="append",
        default=[],
        help="game specs to replay under, besides the shipped ones (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="the checks as one JSON object")


def run(args: argparse.Namespace) -> int:
    trusted = None if args.key is None else read_public_key(_key_text(args.key))
    path = Path(args.record)
    try:
        if path.stat().st_size > MAX_RECORD_CHARS * 4:
            raise RefereeError(f"`{path}` is larger than a record may be")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RefereeError(f"`{path}` cannot be read: {error}") from None
    games = [*load_specs(default_specs()).values()]
    for folder in args.specs:
        games.extend(load_specs(folder).values())
    verified = verify(text, games, trusted)
    print(json.dumps(verified.to_data(), sort_keys=True) if args.json else _told(verified))
    return 0 if verified.holds else 1


def _key_text(given: str) -> str:
    path = Path(given)
    return path.read_text(encoding="ascii", errors="replace") if path.is_file() else given


def _told(verified: Verification) -> str:
    lines = [f"{check.name}: {SAID[check.holds]}: {check.said}" for check in verified.checks]
    lines.append("verified" if verified.holds else "NOT verified")
    return "\n".join(lines)
