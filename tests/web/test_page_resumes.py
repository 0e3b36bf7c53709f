"""The page's event stream outlives its referee: the process serving the page is killed with
kill -9 while a spectator watches, and started again on its ports and SQLite file; the page
reads the stream again from the last event it showed and shows every move once. Its connection
is cut as HAProxy cuts a client's when the process behind it dies (the response's chunks end
short): the browser's read fails, as it does behind the proxy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from referee.engine.game import Game
from referee_client import RefereeClient
from tests.support import served
from tests.support.server import ServerProcess
from tests.web.bots import play

MOVES = 3  # before the kill, and as many after it


def serving_page(db: Path, grpc_port: int = 0, http_port: int = 0) -> tuple[ServerProcess, str]:
    """`serve --db DB --http` on those ports (0: any free one): the process and the page's URL."""
    process = ServerProcess(
        store=["--db", str(db), "--port", str(grpc_port), "--http", str(http_port)]
    )
    return process, f"http://127.0.0.1:{served.http_port(process.process)}"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "referee.db"


@pytest.mark.slow
def test_the_page_watches_on_across_its_referee_s_kill_and_restart(
    page: Page, db: Path, games: dict[str, Game]
) -> None:
    first, url = serving_page(db)
    client = RefereeClient(first.address, channel=first.channel)
    table = client.create_table("pontinho", 3, seed=11)
    page.goto(f"{url}/#table={table.id}")  # a spectator
    played = play(client, games["pontinho"], table.id, table.tokens, MOVES)
    expect(page.locator("#events li")).to_have_count(MOVES)
    grpc_port = int(first.address.rsplit(":", 1)[1])
    http_port = int(url.rsplit(":", 1)[1])
    first.kill()

    again, _ = serving_page(db, grpc_port, http_port)
    try:
        client = RefereeClient(again.address, channel=again.channel)
        played += play(client, games["pontinho"], table.id, table.tokens, MOVES, seed=1)
        expect(page.locator(".view")).to_have_attribute("data-version", str(len(played)))
        expect(page.locator("#events li")).to_have_count(len(played))  # each move once
    finally:
        assert again.stop() == 0
