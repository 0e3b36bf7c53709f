"""The request metadata the referee reads: a seat's token, the operator's create token, the
languages the caller reads, and the table a call is about."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from google.protobuf import message

from referee.errors import InvalidArgument, shortened

TOKEN_HEADER = "x-seat-token"  # acts for one seat: CreateTable gave it
CREATE_HEADER = "x-create-token"  # the operator's: CreateTable needs it when the server asks
LANGUAGE_HEADER = "accept-language"  # `pt-BR, pt;q=0.9`: the language of verdicts and texts
TABLE_HEADER = "x-referee-table"  # the request's `table_id`, where a proxy can hash on it

# what a table id can be: one URL path segment of unreserved characters, short
TABLE_ID = re.compile(r"[A-Za-z0-9._~-]{1,64}", re.ASCII)


Metadata = Iterable[tuple[str, str | bytes]] | None


def metadata_values(metadata: Metadata, key: str) -> Iterator[str]:
    """Every value of `key`, in order (a caller may send a key twice)."""
    for name, value in metadata or ():
        if name == key:
            yield value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def metadata_value(metadata: Metadata, key: str) -> str | None:
    """The first value of `key`, or None."""
    return next(metadata_values(metadata, key), None)


def verify_table_header(metadata: Metadata, request: message.Message) -> None:
    """A call that names a table in `x-referee-table` names a table id, and the request's own
    `table_id` when it has one (a proxy routed it by the header: a call about another table
    would be judged where that table does not live); an InvalidArgument if not. A call
    without the header is served as before."""
    field = request.DESCRIPTOR.fields_by_name.get("table_id")
    table_id = None if field is None else str(getattr(request, field.name))
    for named in metadata_values(metadata, TABLE_HEADER):  # each: a proxy may read the last
        verify_named(named, table_id)


def verify_named(named: str, table_id: str | None) -> None:
    """`named` is a table id, and `table_id`'s if the call is about a table."""
    if not TABLE_ID.fullmatch(named):
        raise InvalidArgument(
            f"the header `{TABLE_HEADER}` is not a table id: `{shortened(named, 80)}`"
        )
    if table_id is not None and named != table_id:
        raise InvalidArgument(
            f"the header `{TABLE_HEADER}` names table `{named}`, not the request's "
            f"`{shortened(table_id, 80)}`"
        )
