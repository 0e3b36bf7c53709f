"""Helpers of the page's browser tests (test_page.py): open a table as a person does, read what
the referee answered to why?, find English words of the page left in another language, and hear
the page's calls of a table."""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

from playwright.sync_api import Locator, Page, Request

from tests.web.web_support import Http

# the page's own texts: its labels, badges, buttons, headings, captions, hints, card names; not
# the referee's (events, violations, explanations, the game's title) nor the JSON shown whole
PAGE_WORDS_JS = """() => {
  const own = "#live .label, #live .badge, #live .turn, #live .part, #live .caption, #live button,"
    + " #live h2, #live h3, #live summary, #live .hint, #live .chosen, #live .need, #live label,"
    + " #live .value, #live .none, #live .flag, #live-status, #events strong, header h1, header nav";
  const theirs = "#events .event, #verdict .violation, #explanation, pre, select, .game, input, #expert form";
  const texts = [...document.querySelectorAll(own)]
    .filter((node) => !node.closest(theirs) && node.offsetParent !== null)
    .map((node) => node.textContent.trim());
  const cards = [...document.querySelectorAll("#live .card[title]")].map((node) => node.title);
  return [...texts, ...cards].filter((text) => text);
}"""


def open_table(page: Page, http: Http, table_id: str, token: str | None) -> None:
    """Open a table from the page's form (the page stays loaded: a table switch, not a reload)."""
    if not page.url.startswith(http.url):
        page.goto(http.url)
    page.fill("#table-id", table_id)
    page.fill("#token", token or "")
    page.click("#watch")


TABLE_CALL = re.compile(r"^/v1/tables/([^/]+)/(\w+)")  # its table, its route: `view`, `moves`


def table_calls(page: Page) -> list[tuple[str, str, str | None]]:
    """The page's calls of a table from now on, each its route, the table of its path and the
    table its `x-referee-table` header names, as the page makes them."""
    calls: list[tuple[str, str, str | None]] = []

    def heard(request: Request) -> None:
        found = TABLE_CALL.match(urllib.parse.urlsplit(request.url).path)
        if found:
            table = urllib.parse.unquote(found[1])
            calls.append((found[2], table, request.headers.get("x-referee-table")))

    page.on("request", heard)
    return calls


def explained(page: Page, why: Locator) -> dict[str, Any]:
    """Click a why? button; the referee's Explain answer the page was given."""
    with page.expect_response(lambda response: "/explain?" in response.url) as answered:
        why.click()
    answer: dict[str, Any] = answered.value.json()
    return answer


def page_words(page: Page) -> list[str]:
    texts: list[str] = page.evaluate(PAGE_WORDS_JS)
    return texts


def english_left(texts: list[str], english: dict[str, str], other: dict[str, str]) -> list[str]:
    """The texts holding a word of the page in English where the other language has its own: a
    whole word or phrase of it (between its `{values}`, 3 letters or more, not inside a word)."""
    pieces = {
        piece.strip()
        for key, word in english.items()
        if word != other[key]
        for piece in re.split(r"\{\w+\}", word)
        if len(re.sub(r"\W", "", piece)) >= 3
    }
    # a hyphen joins a word (Tagalog's `mag-twist` borrows the word, as the players do)
    patterns = [re.compile(rf"(?<![\w-]){re.escape(piece)}(?![\w-])") for piece in pieces]
    return [
        f"{text!r} holds {pattern.pattern!r}"
        for text in texts
        for pattern in patterns
        if pattern.search(text)
    ]
