"""The request metadata the referee reads: a seat's token, the operator's create token, the
languages the caller reads, and the table a call is about."""

from __future__ import annotations

import re
from collections.abc import Iterable

from google.protobuf import message

from referee.errors import InvalidArgument, shortened

TOKEN_HEADER = "x-seat-token"  # acts for one seat: CreateTable gave it
CREATE_HEADER = "x-create-token"  # the operator's: CreateTable needs it when the server asks
LANGUAGE_HEADER = "accept-language"  # `pt-BR, pt;q=0.9`: the language of verdicts and texts
TABLE_HEADER = "x-referee-table"  # the request's `table_id`, where a proxy can hash on it

# what a table id can be: one URL path segment of unreserved characters, short
TABLE_ID = re.compile(r"[A-Za-z0-9._~-]{1,64}", re.ASCII)


def metadata_value(metadata: Iterable[tuple[str, str | bytes]] | None, key: str) -> str | None:
    """The first value of `key`, or None."""
    for name, value in metadata or ():
        if name == key:
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return None


def verify_table_header(
    metadata: Iterable[tuple[str, str | bytes]] | None, request: message.Message
) -> None:
    """A call that names a table in `x-referee-table` names a table id, and the request's own
    `table_id` when it has one (a proxy routed it by the header: a call about another table
    would be judged where that table does not live); an InvalidArgument if not. A call
    without the header is served as before."""
    named = metadata_value(metadata, TABLE_HEADER)
    if named is None:
        return
    if not TABLE_ID.fullmatch(named):
        raise InvalidArgument(
            f"the header `{TABLE_HEADER}` is not a table id: `{shortened(named, 80)}`"
        )
    field = request.DESCRIPTOR.fields_by_name.get("table_id")
    if field is None:
        return  # a call about no table (CreateTable, ListTables): the header names nothing here
    table_id = str(getattr(request, field.name))
    if named != table_id:
        raise InvalidArgument(
            f"the header `{TABLE_HEADER}` names table `{named}`, not the request's "
            f"`{shortened(table_id, 80)}`"
        )
