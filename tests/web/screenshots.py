"""`make screenshots`: a picture of each game's table in docs/screenshots/, as the page of
`serve --http` shows it to a seat, a few bot moves into a seeded game.

    .venv/bin/python -m tests.web.screenshots [--out docs/screenshots]

A referee runs in-process on free ports, the bots play over gRPC (tests/web/bots.py), and
Debian's Chromium takes the picture (tests/web/browser.py).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from referee.app import create_server
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_client import RefereeClient
from tests.web import browser
from tests.web.bots import play

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "screenshots"
WAIT_MS = 10_000


@dataclass(frozen=True)
class Shot:
    game: str
    seats: int
    moves: int  # bot moves before the picture
    seed: int = 3


SHOTS = (
    Shot("pontinho", 3, 8),
    Shot("taradinho", 3, 6),
    Shot("pontoon", 3, 6),
    Shot("shoot_pontoon", 3, 6),
    Shot("tarocchi_piedicavallo", 4, 11),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    games = load_games(DEFAULT_SPECS)
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    server, port = create_server(service)
    server.start()
    http_port = server.serve_http("127.0.0.1", 0)
    try:
        with RefereeClient(f"127.0.0.1:{port}") as client, browser.chromium() as context:
            page = context.new_page()
            for shot in SHOTS:
                table = client.create_table(shot.game, shot.seats, seed=shot.seed)
                played = play(
                    client, games[shot.game], table.id, table.tokens, shot.moves, seed=shot.seed
                )
                seat = played[-1][0] if played else 1  # the seat that moved last
                page.goto(f"http://127.0.0.1:{http_port}/")
                page.fill("#table-id", table.id)
                page.fill("#token", table.tokens[seat])
                page.click("#watch")
                view = page.locator(f".view[data-version='{len(played)}']")
                view.wait_for(timeout=WAIT_MS)
                page.locator(f"#events li[data-version='{len(played)}']").wait_for(timeout=WAIT_MS)
                target = args.out / f"{shot.game}.png"
                page.locator("#live .layout").screenshot(path=str(target))
                print(
                    f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: "
                    f"{shot.game}, seat {seat}, {len(played)} moves"
                )
    finally:
        service.close()
        server.stop(None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
