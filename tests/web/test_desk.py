"""The director's desk (`/desk`, docs/desk.md) in a real headless browser (Debian's Chromium,
Playwright): a seat disputes a move over the API; the director, with the operator's token, sees
the table and the open dispute with its reason, rewinds to a version picked in the move list
(what it voids shown first), and every seat's view, and the player page of the seat, show the
table rewound; uphold and adjust go through the same form, and a ruling refused shows its
reason. A wrong operator's token is refused, the right one opens the desk (the control).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.support.server import DEAL
from tests.web import browser
from tests.web.page_support import table_calls
from tests.web.web_support import Http, bearer

OPERATOR = "the-director's-token"
AS_DIRECTOR = {"x-create-token": OPERATOR}
REASON = "the discard came before I could claim it"
LISTED = re.compile(r".*/v1/tables\?.*")  # ListTables
WAIT_MS = 10_000

if not browser.available():  # never skipped: `make test` installs it first
    raise RuntimeError("no /usr/bin/chromium: `make chromium` installs it")


@pytest.fixture
def create_token() -> str:
    """The referee of tests/web/conftest.py, with an operator (`serve --create-token`)."""
    return OPERATOR


def pages_of_one(route: Route) -> None:
    """ListTables asked for pages of one table, whatever size the desk asks for."""
    route.continue_(url=re.sub(r"page_size=\d+", "page_size=1", route.request.url))


def open_table(http: Http, names: dict[str, str] | None = None) -> tuple[str, dict[int, str]]:
    """A Pontinho table of `DEAL`: seat 1 draws 4C (version 1) and discards JH (2)."""
    body: dict[str, Any] = {"game": "pontinho", "seats": 3, "seed": 0, "deal": DEAL}
    if names:
        body["names"] = names
    created = http.call("POST", "/v1/tables", body, headers=AS_DIRECTOR)
    assert created.status == 200, created.data
    table = created.data["table_id"]
    tokens = {seat["seat"]: seat["token"] for seat in created.data["seats"]}
    propose(http, table, tokens[1], "draw")
    propose(http, table, tokens[1], "discard", card="JH")
    return table, tokens


def propose(http: Http, table: str, token: str, kind: str, **fields: Any) -> dict[str, Any]:
    answer = http.call(
        "POST",
        f"/v1/tables/{table}/moves",
        {"move": {"type": kind, "fields": fields}},
        headers=bearer(token),
    )
    assert answer.data["verdict"]["outcome"] == "OUTCOME_ACCEPTED", answer.data
    return answer.data["verdict"]  # type: ignore[no-any-return]


def view_of(http: Http, table: str, token: str) -> dict[str, Any]:
    return http.call("GET", f"/v1/tables/{table}/view", headers=bearer(token)).data  # type: ignore[no-any-return]


def open_desk(page: Page, http: Http, token: str, table: str | None = None) -> None:
    page.goto(f"{http.url}/desk" + (f"#table={table}" if table else ""))
    page.fill("#operator-token", token)
    page.click("#open-desk")


def test_the_director_rewinds_a_disputed_move_from_the_desk(page: Page, http: Http) -> None:
    table, tokens = open_table(http, names={"1": "Ana", "2": "Bia"})
    quiet, _ = open_table(http)
    disputed = propose(http, table, tokens[2], "dispute", version=2, reason=REASON)
    assert disputed["version"] == 3

    open_desk(page, http, "a guess", table)  # a wrong token: refused, the desk stays shut
    expect(page.locator("#desk-status.refused")).to_contain_text("refused")
    expect(page.locator("#desk")).to_be_hidden()
    assert page.evaluate("sessionStorage.length") == 0  # a refused token is not kept
    assert "guess" not in page.url

    sent: list[tuple[str, str | None]] = []  # each request's URL and operator's header
    page.on("request", lambda r: sent.append((r.url, r.headers.get("x-create-token"))))
    page.route(LISTED, pages_of_one)  # two tables, a page each: newest first
    open_desk(page, http, OPERATOR)  # the control: the right token opens the desk
    rows, pages = page.locator("#tables tbody tr"), page.locator("#pages")
    expect(rows).to_have_count(1)
    expect(rows).to_have_attribute("data-table", quiet)
    expect(pages.locator("#newer")).to_be_disabled()
    pages.locator("#older").click()
    row = page.locator(f"#tables tr[data-table='{table}']")
    expect(row.locator("[data-column='disputes']")).to_have_text("3")  # its open dispute
    expect(row.locator("[data-column='players']")).to_have_text("1: Ana, 2: Bia")
    expect(row.locator("[data-column='game']")).to_have_text("Pontinho")
    expect(pages).to_contain_text("page 2")
    expect(pages.locator("#older")).to_be_disabled()  # the last page
    pages.locator("#newer").click()
    expect(rows).to_have_attribute("data-table", quiet)
    page.unroute(LISTED)
    expect(rows).to_have_count(2)  # one page holds both
    expect(pages).to_be_hidden()
    page.select_option("#only-game", "pontoon")  # the filters: ListTables' own
    expect(page.locator("#tables tbody tr")).to_have_count(0)
    page.select_option("#only-game", "pontinho")
    page.check("#only-disputed")  # a table without an open dispute leaves the list
    expect(page.locator("#tables tbody tr")).to_have_count(1)
    row.click()
    expect(page.locator("#chosen")).to_have_attribute("data-version", "3")
    # the director's view shows every hand: seat 0's too
    expect(page.locator("#table .seat[data-seat='0'] .card")).not_to_have_count(0)
    expect(page.locator("#table .headline .who")).to_have_text("the director's view: every card")
    dispute = page.locator("#disputes li[data-dispute='3']")
    expect(dispute).to_contain_text("seat 2 (Bia)")
    expect(dispute.locator(".reason")).to_have_text(REASON)
    moves = page.locator("#moves li")
    expect(moves).to_have_count(4)  # the start, then steps 1 to 3 as `referee replay` counts
    moves_said = {  # in words, cards as players write them
        "2": "seat 1 (Ana): discard (card J♥)",
        "3": f"seat 2 (Bia): call the director on step 2: “{REASON}”",
    }
    for version, said in moves_said.items():
        expect(page.locator(f"#moves li[data-version='{version}']")).to_have_text(said)

    page.check("input[name=decision][value=rewind]")
    page.click("#moves li[data-version='2']")  # not before the move disputed: refused here
    expect(page.locator("#rewind-to")).to_contain_text("only a version before 2")
    page.click("#moves li[data-version='1']")
    expect(page.locator("#rewind-to")).to_contain_text("version 1")
    expect(page.locator("#voids li")).to_have_count(1)  # the discard, and not the dispute
    expect(page.locator("#voids li")).to_have_attribute("data-version", "2")
    expect(page.locator("#voids li")).to_have_text(moves_said["2"])
    page.fill("#ruling-note", "the discard is taken back: seat 2 may claim")
    page.click("#rule")
    expect(page.locator("#confirm")).to_be_visible()  # nothing sent yet
    assert view_of(http, table, tokens[1])["version"] == 3
    page.click("#confirm")
    expect(page.locator("#ruling-verdict .accepted")).to_be_visible()
    expect(page.locator("#chosen")).to_have_attribute("data-version", "4")
    expect(page.locator("#moves li[data-version='2']")).to_have_class("voided")
    expect(page.locator("#moves li[data-version='4']")).to_have_text(
        "the director: rule on dispute 3: the table goes back to version 1:"
        " “the discard is taken back: seat 2 may claim”"
    )
    expect(page.locator("#disputes li.none")).to_be_visible()

    for seat, token in tokens.items():  # every seat's view is the table at version 1
        seen = view_of(http, table, token)
        assert seen["version"] == 4 and seen["view"]["phase"] == "play", seen
        assert seen["view"]["to_act"] == 1 and seen["view"]["hand_sizes"]["1"] == 10
        assert ("JH" in seen["view"]["hand"]) == (seat == 1)

    page.select_option("#language", "tl")  # the table open is said again in the new language
    expect(page.locator("#moves li[data-version='2']")).to_have_text(
        "upuan 1 (Ana): magtapon (baraha J♥)"
    )
    expect(page.locator("#table .headline .who")).to_have_text(
        "ang tanaw ng direktor: lahat ng baraha"
    )

    # the token went in its header alone: in no address the page asked for
    assert any(header == OPERATOR for _, header in sent)
    assert not any(OPERATOR in url or "director" in url for url, _ in sent)

    player = page.context.new_page()  # the player page of seat 1 shows its JH back in hand
    player.goto(http.url)
    player.fill("#table-id", table)
    player.fill("#token", tokens[1])
    player.click("#watch")
    expect(player.locator(".view")).to_have_attribute("data-version", "4", timeout=WAIT_MS)
    expect(player.locator(".seat.me .card[data-card='JH']")).to_be_visible()
    player.close()


def test_the_desk_upholds_adjusts_and_reissues(page: Page, http: Http) -> None:
    """In Portuguese: uphold, a refused adjustment with its reason, then one made; a dispute
    raised while the desk is open shows up by itself; a seat's token reissued. Every call of
    the table names it in `x-referee-table`."""
    calls = table_calls(page)
    table, tokens = open_table(http)
    propose(http, table, tokens[2], "dispute", version=1, reason="I saw the card")  # 3
    propose(http, table, tokens[0], "dispute", version=2, reason="slow play")  # 4
    page.goto(f"{http.url}/desk")
    page.select_option("#language", "pt")
    page.fill("#operator-token", OPERATOR)
    page.click("#open-desk")
    page.fill("#table-id", table)
    page.click("#open-table button")
    expect(page.locator("#disputes li")).to_have_count(2)
    expect(page.locator("#disputes li[data-dispute='4']")).to_contain_text("lugar 0")

    page.select_option("#ruling-dispute", "3")  # uphold: nothing changes
    page.fill("#ruling-note", "a carta foi vista por todos")
    page.click("#rule")
    expect(page.locator("#ruling-verdict .accepted")).to_have_text("decisão aceita")
    expect(page.locator("#disputes li")).to_have_count(1)
    propose(http, table, tokens[1], "dispute", version=1, reason="vi tudo")  # 6: seen live
    expect(page.locator("#disputes li[data-dispute='6'] .reason")).to_have_text("vi tudo")
    listed = page.locator(f"#tables tr[data-table='{table}'] [data-column='disputes']")
    expect(listed).to_have_text("4, 6")

    page.check("input[name=decision][value=adjust]")  # an amount of 0 is refused, with why
    page.select_option("#ruling-dispute", "4")
    page.select_option("#adjust-seat", "0")
    page.select_option("#adjust-tally", "score")
    page.fill("#adjust-amount", "0")
    page.fill("#ruling-note", "jogo lento")
    page.click("#rule")
    expect(page.locator("#ruling-verdict .rejected")).to_have_text("decisão recusada")
    expect(page.locator("#ruling-verdict .violation")).to_contain_text("GEN-8")
    page.fill("#adjust-amount", "10")
    page.click("#rule")
    expect(page.locator("#ruling-verdict .accepted")).to_be_visible()
    expect(listed).to_have_text("6")
    expect(page.locator("#disputes li")).to_have_count(1)
    seen = view_of(http, table, tokens[0])
    assert seen["version"] == 7 and seen["view"]["scores"]["0"] == 10, seen

    page.select_option("#reissue-seat", "1")  # seat 1 lost its token: a new one, asked twice
    page.click("#reissue-ask")
    assert view_of(http, table, tokens[1])["seat"] == 1  # not yet
    page.click("#reissue-confirm")
    expect(page.locator("#new-token")).not_to_be_empty()
    new_token = page.locator("#new-token").text_content() or ""
    old = http.call("GET", f"/v1/tables/{table}/view", headers=bearer(tokens[1]))
    assert old.status == 401, old.data  # the old token is refused from then on
    assert view_of(http, table, new_token)["seat"] == 1

    # the table and its moves in Portuguese: the page's words, and the desk's
    expect(page.locator("#table .headline .who")).to_have_text(
        "a visão do diretor: todas as cartas"
    )
    expect(page.locator("#table .label[data-key='hand_sizes']").first).to_have_text("cartas na mão")
    for version, said in {
        "2": "lugar 1: descartar (carta J♥)",
        "3": "lugar 2: chamar o diretor sobre o passo 1: “I saw the card”",
        "5": "o diretor: decidir a disputa 3: o veredito fica: “a carta foi vista por todos”",
        "7": "o diretor: decidir a disputa 4: +10 em pontuação para lugar 0: “jogo lento”",
        "8": "o diretor: dar um token novo para lugar 1",
    }.items():
        expect(page.locator(f"#moves li[data-version='{version}']")).to_have_text(said)
    assert {route for route, _, _ in calls} >= {"view", "record", "rulings", "seats"}
    assert [named for _, table, named in calls if named != table] == []


def test_the_desk_is_a_page_of_its_own_with_the_page_s_headers(http: Http) -> None:
    served = http.call("GET", "/desk")
    assert served.status == 200 and served.headers["Content-Type"].startswith("text/html")
    assert "frame-ancestors 'none'" in served.headers["Content-Security-Policy"]
    assert http.call("GET", "/web/desk.js").status == 200
