"""The lobby (issue 27): the tables a referee keeps, as the operator lists them (ListTables).

A table is listed from the store's summary of it (`referee.store.base.Summary`, written with the
moves that change it), never by loading it: a page reads `page_size` rows. Pages run newest
first; a page token is where the next page starts, opaque to the caller (its form may change:
only a token this referee gave is read, anything else is INVALID_ARGUMENT).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import structlog

from referee.engine.table import Table
from referee.errors import InvalidArgument, RefereeError
from referee.store.base import Listed, Store, Summary, TableFilter

log = structlog.get_logger("referee.service")

DEFAULT_PAGE_SIZE = 50  # a page_size of 0
MAX_PAGE_SIZE = 200  # a larger page_size is cut to it (as AIP-158 has it), not refused
TOKEN_PREFIX = "tables1:"  # the page token's form, inside its base64
MAX_PAGE_TOKEN_CHARS = 64  # a position of several databases' (2**128 at most) takes them all
BAD_PAGE_TOKEN = "`page_token` is not one this referee gave: ask for the first page (empty)"
SUMMARISED_AT_ONCE = 100  # tables from before the summaries, filled in a batch at a time


@dataclass(frozen=True)
class TableEntry:
    """One table of the lobby (`TableSummary`)."""

    table_id: str
    game: str
    seats: int
    names: Mapping[int, str]
    version: int
    over: bool
    open_disputes: tuple[int, ...]
    clock_due_ms: int | None  # when its pending deadline falls due; None: no clock runs
    created_at: str
    rules_version: str


@dataclass(frozen=True)
class Page:
    tables: Sequence[TableEntry]
    next_page_token: str  # '': the last page


def page(store: Store, where: TableFilter, below: int | None, size: int) -> Page:
    """The tables `where` asks for, `size` at most, from the newest below `below` (a page
    token's position), and the token of the page after it."""
    found = store.list_tables(where, below=below, limit=size + 1)
    shown = found[:size]
    more = len(found) > size
    return Page([entry(listed) for listed in shown], page_token(shown[-1].position) if more else "")


class OlderTables:
    """The tables a store kept before it kept summaries: each is given its own once, by
    loading it (at the first ListTables after the upgrade); one that does not load is logged
    and left out (listed as in play, without disputes) rather than tried at every listing."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._failed: set[str] = set()

    def summarise(self, summarise: Callable[[str], None]) -> None:
        """`summarise(table_id)` each table without a summary (none, mostly: one query)."""
        while True:
            waiting = self._store.unsummarised(SUMMARISED_AT_ONCE + len(self._failed))
            todo = [table_id for table_id in waiting if table_id not in self._failed]
            if not todo:
                return
            for table_id in todo:
                try:
                    summarise(table_id)
                except RefereeError as error:
                    self._failed.add(table_id)
                    log.error("table_not_summarised", table=table_id, error=str(error))


def summary_of(table: Table) -> Summary:
    """What the store keeps of the table for the lobby, as the table is now."""
    return Summary(table.is_over, tuple(dispute.number for dispute in table.open_disputes))


def page_size(asked: int) -> int:
    if asked < 0:
        raise InvalidArgument(f"`page_size` is 0 (the default, {DEFAULT_PAGE_SIZE}) or more")
    return min(asked or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def page_token(position: int) -> str:
    """The token of the page that starts below the table at `position`."""
    return base64.urlsafe_b64encode(f"{TOKEN_PREFIX}{position}".encode()).decode()


def below(token: str, positions_below: int = 2**63) -> int | None:
    """The position a page token starts below (None: the first page), one of a store whose
    positions are below `positions_below` (`Store.positions_below`)."""
    if not token:
        return None
    try:
        if len(token) > MAX_PAGE_TOKEN_CHARS:
            raise ValueError(token)
        text = base64.urlsafe_b64decode(token.encode("ascii")).decode("ascii")
    except (ValueError, binascii.Error, UnicodeError):
        raise InvalidArgument(BAD_PAGE_TOKEN) from None
    prefix, _, digits = text.partition(":")
    if f"{prefix}:" != TOKEN_PREFIX or not digits.isdecimal() or not digits.isascii():
        raise InvalidArgument(BAD_PAGE_TOKEN)
    position = int(digits)
    if not 0 < position < positions_below:
        raise InvalidArgument(BAD_PAGE_TOKEN)
    return position


def entry(listed: Listed) -> TableEntry:
    setup = listed.setup
    summary = listed.summary or Summary()  # not known yet: the store is filled in first
    names = {int(seat): str(name) for seat, name in (setup.get("names") or {}).items()}
    return TableEntry(
        table_id=listed.table_id,
        game=str(setup.get("game", "")),
        seats=int(setup.get("seats", 0)),
        names=names,
        version=listed.version,
        over=summary.over,
        open_disputes=summary.open_disputes,
        clock_due_ms=None if listed.deadline is None else round(listed.deadline.at * 1000),
        created_at=listed.created_at,
        rules_version=listed.rules_version or "",
    )
