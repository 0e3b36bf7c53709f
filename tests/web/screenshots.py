"""`make screenshots`: a picture of each game's table in docs/screenshots/, as the page of
`serve --http` shows it to the seat to act (its legal moves beside the table), a few bot moves
into a seeded game; one in Portuguese; and one of the director's desk (`/desk`) at a table where
a seat disputed a move, a rewind about to be confirmed.

    .venv/bin/python -m tests.web.screenshots [--out docs/screenshots]

A referee runs in-process on free ports, the bots play over gRPC (tests/web/bots.py), and
Debian's Chromium takes the picture (tests/web/browser.py).
"""

from __future__ import annotations

import argparse
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page

from referee.app import ServerConfig, create_server
from referee.engine.game import Game
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_client import RefereeClient
from tests.web import browser
from tests.web.bots import play
from tests.web.web_support import Http

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
    operator = secrets.token_urlsafe(16)
    server, port = create_server(service, config=ServerConfig(create_token=operator))
    server.start()
    http_port = server.serve_http("127.0.0.1", 0)
    try:
        with (
            RefereeClient(f"127.0.0.1:{port}", create_token=operator) as client,
            browser.chromium() as context,
        ):
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
            page = context.new_page()
            desk(page, Http(http_port), client, games["pontinho"], operator, args.out)
    finally:
        service.close()
        server.stop(None)
    return 0


def desk(
    page: Page, http: Http, client: RefereeClient, game: Game, operator: str, out: Path
) -> None:
    """The director's desk: a named Pontinho table where a seat disputed the discard of the seat
    before it, a rewind to the draw before the discard about to be confirmed (what it voids
    listed)."""
    body = {
        "game": "pontinho",
        "seats": 3,
        "seed": 3,
        "names": {"0": "Ana", "1": "Bruno", "2": "Carla"},
        "options": {"turn_seconds": 300},  # the clock shown running
    }
    created = http.call("POST", "/v1/tables", body, headers={"x-create-token": operator}).data
    table = created["table_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    played = play(client, game, table, tokens, 5, seed=3)
    discarded = max(n for n, (_, move) in enumerate(played, start=1) if move["type"] == "discard")
    reason = "the discard was made before I could claim the card"
    disputing = (played[discarded - 1][0] + 1) % len(tokens)
    client.propose(
        table, tokens[disputing], {"type": "dispute", "version": discarded, "reason": reason}
    )
    page.goto(f"http://127.0.0.1:{http.port}/desk#table={table}")
    page.fill("#operator-token", operator)
    page.click("#open-desk")
    page.locator(f"#chosen[data-version='{len(played) + 1}']").wait_for(timeout=WAIT_MS)
    page.check("input[name=decision][value=rewind]")
    page.click(f"#moves li[data-version='{discarded - 1}']")
    page.fill("#ruling-note", "the discard is taken back: the next seat had no time to claim it")
    page.click("#rule")
    page.locator("#confirm").wait_for(timeout=WAIT_MS)
    target = out / "desk.png"
    page.locator("#desk").screenshot(path=str(target))
    print(f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: the desk")


def _to_act(client: RefereeClient, table_id: str, tokens: dict[int, str]) -> int:
    """The seat with a move to make now (a move besides `contribute`, which any seat has)."""
    for seat, token in sorted(tokens.items()):
        if set(client.view(table_id, token).get("legal", {})) - {"contribute"}:
            return seat
    return 0


if __name__ == "__main__":
    sys.exit(main())
