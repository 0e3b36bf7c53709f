"""The page of `serve --http` in a real headless browser (Debian's Chromium, Playwright), as a
player uses it: a seat plays by clicking cards and choosing among its legal moves, and sees its
verdicts and why; a spectator watches a bot play, with no move to make; a table switch leaves
nothing of the table before; Pontoon's hands are drawn once with their whole stake; every game's
table reads in Portuguese with no English word of the page left; a record is stepped through
with its steps numbered as `referee replay` numbers them.

One browser for the module (it starts in about a second); the whole file takes some seconds.
Without /usr/bin/chromium (`make chromium`) it is not skipped: `make test` installs it first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from referee.app import Server
from referee.cards import spoken
from referee.cli import main as referee_cli
from referee.engine.game import Game
from referee_client import RefereeClient
from tests.support.server import DEAL
from tests.web import browser
from tests.web.bots import play
from tests.web.page_support import english_left, explained, open_table, page_words, table_calls
from tests.web.web_support import Http, bearer

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "docs" / "examples" / "pontinho-layoff-on-sequence.yaml"
WAIT_MS = 10_000
# Pontoon, PO-5's buys (tests/conformance/pontoon/po5-buy-limits.yaml): seat 1 is dealt 2H 3H
BUYS_DECK = ["2H", "9S", "TC", "3H", "2D", "7C", "2C", "3C", "4D", "8D"]
# each game a few bot moves in (as docs/screenshots), its table read by the seat to act
GAMES = (
    ("pontinho", 3, 8),
    ("taradinho", 3, 6),
    ("pontoon", 3, 4),
    ("shoot_pontoon", 3, 6),
    ("tarocchi_piedicavallo", 4, 11),
)

if not browser.available():  # never skipped: `make test` installs it first
    raise RuntimeError("no /usr/bin/chromium: `make chromium` installs it")


@pytest.fixture
def client(server: tuple[Server, int]) -> Iterator[RefereeClient]:
    with RefereeClient(f"127.0.0.1:{server[1]}") as opened:
        yield opened


def test_a_spectator_watches_a_bots_moves_with_no_move_to_make(
    page: Page, http: Http, client: RefereeClient, games: dict[str, Game]
) -> None:
    table = client.create_table("pontinho", 3, seed=11)
    page.goto(f"{http.url}/#table={table.id}")  # a spectator
    expect(page.locator(".view")).to_have_attribute("data-version", "0")
    expect(page.locator("#play")).to_be_hidden()  # no move to make: no Propose
    expect(page.get_by_role("button", name="Propose")).to_have_count(0)
    played: list[tuple[int, dict[str, object]]] = []
    while not played or played[-1][1]["type"] != "discard":  # the bot's turn ends with one
        played += play(client, games["pontinho"], table.id, table.tokens, 1, seed=len(played))
        assert len(played) < 10
    discarded = played[-1][1]["card"]
    expect(page.locator(".view")).to_have_attribute("data-version", str(len(played)))
    expect(page.locator("#events li")).to_have_count(len(played))
    told = spoken(str(discarded), "french")  # the event's text: the card as players write it
    expect(page.locator("#events li").first).to_contain_text(told)
    tile = page.locator(".tile[data-key='discard_top']")
    expect(tile.locator(f".card[data-card='{discarded}']")).to_be_visible()
    expect(page.locator(".seat.to-act")).to_have_attribute("data-seat", "2")
    expect(page.locator(".seat[data-seat='1'] .seat-name")).to_have_text("seat 1")
    # why?, as a spectator: the referee's sentences (another seat's outcomes only)
    answer = explained(page, page.locator("#events li").first.locator(".why"))
    assert answer["text"][0].startswith("seat 1 proposed")
    expect(page.locator("#explanation .sentences p").first).to_have_text(answer["text"][0])
    expect(page.locator("#explanation")).not_to_contain_text("it read")

    page.select_option("#language", "pt")  # the stream read again, its texts in Portuguese
    expect(page.locator("#events li")).to_have_count(len(played))
    expect(page.locator("#events li").first).not_to_contain_text("discarded")
    expect(page.locator("#explanation")).to_be_hidden()  # the table opened again, anew
    expect(page.locator("#play")).to_be_hidden()


def test_a_seat_plays_by_clicking_cards_and_a_legal_move(page: Page, http: Http) -> None:
    """Seat 1 draws, lays 6C 4C 5C clicked out of order (sent low to high, as the legal meld
    lists them), then tries a two-card meld: the verdicts, and why? in sentences with the
    rules as judged folded away. Switching tables then leaves nothing of the first. Every call
    of a table names it in `x-referee-table`."""
    calls = table_calls(page)
    first = http.call("POST", "/v1/tables", {"game": "pontinho", "seats": 3, "deal": DEAL}).data
    token = first["seats"][1]["token"]
    open_table(page, http, first["table_id"], token)
    hand = page.locator(".seat.me .my-hand .card")
    expect(hand).to_have_count(9)
    assert page.locator(".seat[data-seat='0'] .card").count() == 0  # others' cards stay hidden
    expect(page.locator("#moves button")).to_have_text(["draw"])  # the legal moves alone
    expect(page.locator("#propose")).to_be_disabled()  # no move chosen yet

    page.click("#moves [data-move='draw']")
    page.click("#propose")
    expect(page.locator("#verdict .accepted")).to_have_text("accepted")
    expect(page.locator(".view")).to_have_attribute("data-version", "1")
    expect(hand).to_have_count(10)

    for card in ("6C", "4C", "5C"):  # chosen out of order
        page.click(f".my-hand .card[data-card='{card}']")
    expect(page.locator(".my-hand .card.chosen")).to_have_count(3)
    expect(page.locator("#chosen")).to_have_text("Chosen: 6♣ 4♣ 5♣")
    page.click("#moves [data-move='meld']")
    page.click("#propose")
    expect(page.locator(".view")).to_have_attribute("data-version", "2")
    expect(page.locator("#verdict .accepted")).to_be_visible()
    laid = page.locator(".tile[data-key='melds'] .card")
    expect(laid).to_have_count(3)
    assert [laid.nth(i).get_attribute("data-card") for i in range(3)] == ["4C", "5C", "6C"]
    expect(page.locator(".my-hand .card.chosen")).to_have_count(0)  # the cards went down

    page.click(".my-hand .card[data-card='7C']")  # laid off: onto the one meld it fits
    page.click("#moves [data-move='layoff']")
    expect(page.locator("#move-fields select[name='meld'] option")).to_have_text(
        ["meld 1: 4♣ 5♣ 6♣"]
    )
    page.click("#propose")
    expect(page.locator(".view")).to_have_attribute("data-version", "3")
    expect(laid).to_have_count(4)

    # the expert's JSON entry, for a move the list leaves out: a two-card meld, judged alike
    page.click("#expert summary")
    page.select_option("#expert-type", "meld")
    page.fill("#expert-fields", '{"cards": ["KH", "KS"]}')
    page.click("#expert-propose")
    expect(page.locator("#verdict .rejected")).to_have_text("rejected")
    expect(page.locator("#verdict .violation").first).to_contain_text("three cards")
    answer = explained(page, page.locator("#verdict .why"))
    sentences = page.locator("#explanation .sentences p")
    expect(sentences).to_have_text([line.strip() for line in answer["text"]])
    judged = page.locator("#explanation details.judged")
    assert judged.evaluate("node => node.open") is False  # the expert's view, folded
    expect(judged.locator("p").first).to_be_hidden()
    rule_ids = {rule["rule"] for part in answer["judged"] for rule in part["rules"]}
    assert "PN-13-size" in rule_ids
    expect(judged).to_contain_text("PN-13-size: broken")
    expect(judged).to_contain_text("cards = ")  # the values the rule read, for the expert

    page.click(".my-hand .card[data-card='JH']")
    page.click("#moves [data-move='discard']")
    page.click("#propose")
    expect(page.locator(".view")).to_have_attribute("data-version", "4")
    page.select_option("#expert-type", "dispute")  # the seat calls the director (dispute 5)
    page.fill("#expert-fields", '{"version": 4, "reason": "a wrong card"}')
    page.click("#expert-propose")
    expect(page.locator(".tile[data-key='disputes']")).to_have_text(
        "open disputes" + "dispute 5: seat 1, on the move that made version 4"
    )

    # another table: nothing of the first is left (its why?, verdict, chosen cards, events)
    page.click(".my-hand .card[data-card='KH']")
    second = http.call("POST", "/v1/tables", {"game": "pontinho", "seats": 3, "seed": 5}).data
    open_table(page, http, second["table_id"], second["seats"][2]["token"])
    expect(page.locator(".view")).to_have_attribute("data-version", "0")
    expect(page.locator("#explanation")).to_be_hidden()
    expect(page.locator("#explanation p")).to_have_count(0)
    expect(page.locator("#verdict")).to_be_empty()
    expect(page.locator(".card.chosen")).to_have_count(0)
    expect(page.locator("#chosen")).to_have_text("Chosen: no card chosen")
    expect(page.locator("#events li")).to_have_count(0)
    expect(page.locator("#play-hint")).to_have_text("Not your turn: waiting for seat 1.")
    assert {route for route, _, _ in calls} == {"view", "events", "moves", "explain"}
    assert [named for _, table, named in calls if named != table] == []


def test_pontoon_draws_each_hand_once_with_its_stake_and_buys(page: Page, http: Http) -> None:
    created = http.call(
        "POST",
        "/v1/tables",
        {
            "game": "pontoon",
            "seats": 3,
            "options": {"min_bet": 5, "max_bet": 50},
            "deal": {"deck": BUYS_DECK},
        },
    ).data
    table, tokens = created["table_id"], [s["token"] for s in created["seats"]]
    open_table(page, http, table, tokens[1])
    page.click("#moves [data-move='bet']")
    amount = page.locator("#move-fields input[name='amount']")  # bounded by the legal range
    expect(amount).to_have_attribute("min", "5")
    expect(amount).to_have_attribute("max", "50")
    amount.fill("10")
    page.click("#propose")
    expect(page.locator(".view")).to_have_attribute("data-version", "1")
    http.call(
        "POST",
        f"/v1/tables/{table}/moves",
        {"move": {"type": "bet", "fields": {"amount": 50}}},
        headers=bearer(tokens[2]),
    )
    expect(page.locator(".view")).to_have_attribute("data-version", "2")
    page.click("#moves [data-move='buy']")
    expect(amount).to_have_attribute("min", "10")  # PO-5: the 3rd card, 10 to 20
    expect(amount).to_have_attribute("max", "20")
    amount.fill("20")
    page.click("#propose")
    expect(page.locator(".view")).to_have_attribute("data-version", "3")

    mine = page.locator(".seat.me")
    expect(mine.locator(".holding")).to_have_count(1)  # its one hand, drawn once
    expect(mine.locator(".card")).to_have_count(3)
    expect(page.locator("#table .card[data-card='2H']")).to_have_count(1)
    expect(mine.locator(".holding .caption")).to_have_text("stake 30 (bet 10 + bought 20)")
    other = page.locator(".seat[data-seat='2'] .holding .caption")
    expect(other).to_have_text("stake 50")


def test_every_game_reads_in_portuguese_and_tagalog_with_no_english_word_left(
    page: Page, http: Http, client: RefereeClient, games: dict[str, Game]
) -> None:
    """Every game's table in Portuguese (and the banking games', written in Tagalog, in Tagalog):
    each view key under a label of the dictionary, no word of the page left in English."""
    page.goto(f"{http.url}/#lang=pt")
    words = page.evaluate("window.refereePage.dictionary()")
    assert set(words["en"]) == set(words["pt"]) == set(words["tl"])
    assert all(text.strip() for language in words.values() for text in language.values())
    tables = {game: _seat_to_act(client, games[game], seats, moves) for game, seats, moves in GAMES}
    for language, shown_games in (("pt", list(tables)), ("tl", ["pontoon", "shoot_pontoon"])):
        page.select_option("#language", language)
        own = set(words[language].values())
        for game in shown_games:
            table_id, token, version = tables[game]
            open_table(page, http, table_id, token)
            expect(page.locator(".view")).to_have_attribute("data-version", str(version))
            expect(page.locator("#moves button").first).to_be_visible()
            left = english_left(page_words(page), words["en"], words[language])
            assert not left, (game, language, left)
            labels = page.locator("#table .label[data-key]").all_text_contents()  # a view's keys
            assert labels and set(labels) <= own, (game, language)
            assert set(page.locator("#moves button").all_text_contents()) <= own, game
            for node in page.locator("[data-word]").all():
                assert node.text_content() == words[language][node.get_attribute("data-word") or ""]


def _seat_to_act(client: RefereeClient, game: Game, seats: int, moves: int) -> tuple[str, str, int]:
    """A table of `game` some bot moves in: its id, the token of the seat to act, its version."""
    table = client.create_table(game.name, seats, seed=3)
    played = play(client, game, table.id, table.tokens, moves, seed=3)
    for seat in range(seats):
        if set(client.view(table.id, table.tokens[seat])["legal"]) - {"contribute"}:
            return table.id, table.tokens[seat], len(played)
    raise AssertionError(f"{game.name}: no seat to act")


def test_display_names_are_shown_as_text(page: Page, http: Http) -> None:
    """`names` (a seat's display name, user input) drawn as text, never read as HTML."""
    created = http.call("POST", "/v1/tables", {"game": "pontinho", "seats": 3, "seed": 2}).data
    name = "<img src=x onerror=window.hacked=1>Ana"

    def with_names(route: Route) -> None:
        answer: dict[str, Any] = route.fetch().json()
        answer["view"]["names"] = {"1": name}
        route.fulfill(json=answer)

    page.route(re.compile(r".*/view$"), with_names)
    page.goto(f"{http.url}/#table={created['table_id']}")
    expect(page.locator(".seat[data-seat='1'] .seat-name")).to_have_text(name)
    expect(page.locator(".seat[data-seat='2'] .seat-name")).to_have_text("seat 2")  # unnamed
    expect(page.locator(".headline .turn")).to_have_text(f"{name} to act")
    assert page.locator("#table img").count() == 0
    assert page.evaluate("window.hacked") is None


def test_a_record_is_stepped_through_numbered_as_replay_numbers_it(
    page: Page, http: Http, capsys: pytest.CaptureFixture[str]
) -> None:
    assert referee_cli(["replay", str(RECORD)]) == 1
    replayed = re.search(r": step (\d+) \(", capsys.readouterr().out)
    assert replayed is not None
    step = int(replayed.group(1))  # the illegal move as `referee replay` calls it (4)
    page.goto(http.url)
    page.click("#mode-record")
    page.set_input_files("#record-file", str(RECORD))
    illegal = page.locator("#steps li.illegal")
    expect(illegal).to_have_attribute("data-step", str(step))
    expect(illegal.locator(".number")).to_have_text(f"{step}.")
    expect(page.locator("#judgement")).to_contain_text(f"step {step}: seat 1, lay a meld: illegal")
    expect(page.locator("#judgement")).to_contain_text("PN-12")
    expect(page.locator("#steps li.unreached")).to_have_count(6)
    second = page.locator("#steps li[data-step='2']")  # in words, cards as players write them
    expect(second).to_have_text("2. seat 1: lay a meld (cards 4♣ 5♣ 6♣)")
    page.click("#step-last")  # the table after the step before the illegal move
    expect(page.locator("#step-at")).to_have_text(f"after step {step - 1} of 10")
    expect(page.locator("#steps li.current")).to_have_attribute("data-step", str(step - 1))
    expect(page.locator("#record-table .view")).to_have_attribute("data-version", str(step - 1))
    meld = page.locator("#record-table .tile[data-key='melds'] .card")
    expect(meld).to_have_count(5)  # 4C 5C 6C, 7C 8C laid off
    page.click("#step-first")
    expect(page.locator("#record-table .view")).to_have_attribute("data-version", "0")
    expect(page.locator("#step-at")).to_have_text("before step 1 of 10")
    page.click("#step-next")
    expect(page.locator("#record-table .view")).to_have_attribute("data-version", "1")


def test_the_play_clock_counts_down_for_the_seat_awaited(page: Page, http: Http) -> None:
    created = http.call(
        "POST", "/v1/tables", {"game": "pontinho", "seats": 3, "options": {"turn_seconds": 600}}
    ).data
    page.goto(f"{http.url}/#table={created['table_id']}")
    clock = page.locator("#clock")
    expect(clock).to_be_visible()
    expect(clock).to_have_text(re.compile(r"^seat 1: (600|59\d) s left$"))
