"""The page of `serve --http` in a real headless browser (Debian's Chromium, Playwright): a bot
plays over gRPC and the page, open on the table, shows each move; a record with an illegal move
loaded from a file is stepped through, the illegal move marked with the referee's reasons.

One browser for the module (it starts in about a second); the whole file takes a few seconds.
Without /usr/bin/chromium (`make chromium`) it is skipped, except under CI, where it fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from referee.app import Server
from referee.cards import spoken
from referee.engine.game import Game
from referee_client import RefereeClient
from tests.support.server import DEAL
from tests.web import browser
from tests.web.bots import play
from tests.web.web_support import Http

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "docs" / "examples" / "pontinho-layoff-on-sequence.yaml"
WAIT_MS = 10_000

if not browser.available():  # never skipped: `make test` installs it first
    raise RuntimeError("no /usr/bin/chromium: `make chromium` installs it")


@pytest.fixture(scope="module")
def context() -> Iterator[BrowserContext]:
    with browser.chromium() as opened:
        yield opened


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert not errors, errors  # no script of the page failed


@pytest.fixture
def client(server: tuple[Server, int]) -> Iterator[RefereeClient]:
    with RefereeClient(f"127.0.0.1:{server[1]}") as opened:
        yield opened


def test_the_page_shows_a_bots_moves_live(
    page: Page, http: Http, client: RefereeClient, games: dict[str, Game]
) -> None:
    table = client.create_table("pontinho", 3, seed=11)
    page.goto(f"{http.url}/#table={table.id}")  # a spectator
    expect(page.locator(".view")).to_have_attribute("data-version", "0", timeout=WAIT_MS)
    played: list[tuple[int, dict[str, object]]] = []
    while not played or played[-1][1]["type"] != "discard":  # the bot's turn ends with one
        played += play(client, games["pontinho"], table.id, table.tokens, 1, seed=len(played))
        assert len(played) < 10
    discarded = played[-1][1]["card"]
    expect(page.locator(".view")).to_have_attribute(
        "data-version", str(len(played)), timeout=WAIT_MS
    )
    expect(page.locator("#events li")).to_have_count(len(played))
    told = spoken(str(discarded), "french")  # the event's text: the card as players write it
    expect(page.locator("#events li").first).to_contain_text(told)
    tile = page.locator(".tile[data-key='discard_top']")
    expect(tile.locator(f".card[data-card='{discarded}']")).to_be_visible()
    expect(page.locator(".seat.to-act")).to_have_attribute("data-seat", "2")
    page.locator("#events li").first.locator(".why").click()  # a spectator asks why
    explanation = page.locator("#explanation")
    expect(explanation).to_contain_text(f"seat 1 proposed to discard at version {len(played) - 1}")
    expect(explanation).to_contain_text("GEN-7 held")
    expect(explanation).not_to_contain_text("it read")  # another seat's values are not shown

    page.select_option("#language", "pt")  # the stream read again, its texts in Portuguese
    expect(page.locator("#events li")).to_have_count(len(played), timeout=WAIT_MS)
    expect(page.locator("#events li").first).not_to_contain_text("discarded")


def test_a_seat_sees_its_hand_and_its_verdicts(page: Page, http: Http) -> None:
    created = http.call(
        "POST",
        "/v1/tables",
        {
            "game": "pontinho",
            "seats": 3,
            "deal": DEAL,
            "options": {"joker_rule": "same_rank_other_colour"},
        },
    ).data
    page.goto(http.url)
    page.fill("#table-id", created["table_id"])
    page.fill("#token", created["seats"][1]["token"])
    page.click("#watch")
    hand = page.locator(".seat.me .my-hand .card")
    expect(hand).to_have_count(9, timeout=WAIT_MS)
    assert page.locator(".seat[data-seat='0'] .card").count() == 0  # others' cards stay hidden
    page.select_option("#move-type", "discard")
    page.fill("#move-fields", '{"card": "JH"}')
    page.click("#propose-form button")
    expect(page.locator("#verdict .rejected")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#verdict .violation").first).to_contain_text("PN-")
    page.click("#verdict .why")  # the referee explains the rejection, rule by rule
    explanation = page.locator("#explanation")
    expect(explanation).to_contain_text("seat 1 proposed to discard at version 0: rejected")
    expect(explanation).to_contain_text(
        "GEN-7 held (its sentence: \u201cit is not your turn\u201d) (it read in turn: yes)"
    )


def test_the_play_clock_counts_down_for_the_seat_awaited(page: Page, http: Http) -> None:
    created = http.call(
        "POST", "/v1/tables", {"game": "pontinho", "seats": 3, "options": {"turn_seconds": 600}}
    ).data
    page.goto(f"{http.url}/#table={created['table_id']}")
    clock = page.locator("#clock")
    expect(clock).to_be_visible(timeout=WAIT_MS)
    expect(clock).to_have_text(re.compile(r"^seat 1: (600|59\d) s left$"))


def test_a_record_is_stepped_through_with_its_illegal_move_marked(page: Page, http: Http) -> None:
    page.goto(http.url)
    page.click("#mode-record")
    page.set_input_files("#record-file", str(RECORD))
    illegal = page.locator("#steps li.illegal")
    expect(illegal).to_have_attribute("data-step", "3", timeout=WAIT_MS)
    expect(page.locator("#judgement")).to_contain_text("PN-12")
    expect(page.locator("#steps li.unreached")).to_have_count(6)
    page.click("#step-last")  # the table just before the illegal move
    expect(page.locator("#record-table .view")).to_have_attribute("data-version", "3")
    meld = page.locator("#record-table .tile[data-key='melds'] .card")
    expect(meld).to_have_count(5)  # 4C 5C 6C, 7C 8C laid off
    page.click("#step-first")
    expect(page.locator("#record-table .view")).to_have_attribute("data-version", "0")
    page.click("#step-next")
    expect(page.locator("#record-table .view")).to_have_attribute("data-version", "1")
