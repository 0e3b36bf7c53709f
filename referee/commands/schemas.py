"""Write the typed contract of each game: docs/schemas/GAME.json, a JSON Schema (draft 2020-12)
for each move type, for the view and for each event kind (what DescribeGame gives under `schemas`).

Run it after changing a spec or a `schemas.yaml` and commit the result: `tests/docs/test_schemas.py`
fails while the committed files differ from what the specs and declarations give.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from referee.engine.game import Game
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.schemas import schemas_of

DEFAULT_OUT = Path("docs") / "schemas"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=str(DEFAULT_OUT),
        help="the folder to write to (default: docs/schemas)",
    )
    parser.add_argument(
        "--specs",
        metavar="DIR",
        default=str(DEFAULT_SPECS),
        help="the folder of specs (default: the shipped ones)",
    )


def document(game: Game) -> str:
    """One game's schemas as the committed file holds them."""
    return json.dumps({"game": game.name, **schemas_of(game)}, indent=2, ensure_ascii=False) + "\n"


def run(args: argparse.Namespace) -> int:
    games = load_games(args.specs)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, game in games.items():
        (out / f"{name}.json").write_text(document(game), encoding="utf-8")
    print(f"{out}: {len(games)} files ({', '.join(f'{name}.json' for name in games)})")
    return 0
