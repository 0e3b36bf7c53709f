"""`make screenshots`: a picture of each game's table in docs/screenshots/, as the page of
`serve --http` shows it to the seat to act (its legal moves beside the table), a few bot moves
into a seeded game; and one in Portuguese.

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
    language: str = "en"

    @property
    def name(self) -> str:
        return self.game if self.language == "en" else f"{self.game}-{self.language}"


SHOTS = (
    Shot("pontinho", 3, 8),
    Shot("taradinho", 3, 6),
    Shot("pontoon", 3, 6, seed=10),  # the seat to act has bought two cards
    Shot("shoot_pontoon", 3, 6),
    Shot("tarocchi_piedicavallo", 4, 11),
    Shot("pontinho", 3, 8, language="pt"),
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
            for shot in SHOTS:
                page = context.new_page()  # a page of its own: its language read as it opens
                table = client.create_table(shot.game, shot.seats, seed=shot.seed)
                played = play(
                    client, games[shot.game], table.id, table.tokens, shot.moves, seed=shot.seed
                )
                seat = _to_act(client, table.id, table.tokens)
                page.goto(f"http://127.0.0.1:{http_port}/#lang={shot.language}")
                page.fill("#table-id", table.id)
                page.fill("#token", table.tokens[seat])
                page.click("#watch")
                view = page.locator(f".view[data-version='{len(played)}']")
                view.wait_for(timeout=WAIT_MS)
                page.locator(f"#events li[data-version='{len(played)}']").wait_for(timeout=WAIT_MS)
                page.locator("#moves button").first.wait_for(timeout=WAIT_MS)
                target = args.out / f"{shot.name}.png"
                page.locator("#live .layout").screenshot(path=str(target))
                print(
                    f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: "
                    f"{shot.game}, seat {seat}, {len(played)} moves, {shot.language}"
                )
                page.close()
    finally:
        service.close()
        server.stop(None)
    return 0


def _to_act(client: RefereeClient, table_id: str, tokens: dict[int, str]) -> int:
    """The seat with a move to make now (a move besides `contribute`, which any seat has)."""
    for seat, token in sorted(tokens.items()):
        if set(client.view(table_id, token).get("legal", {})) - {"contribute"}:
            return seat
    return 0


if __name__ == "__main__":
    sys.exit(main())
