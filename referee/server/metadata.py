"""The request metadata the referee reads: a seat's token and the operator's create token."""

from __future__ import annotations

from typing import Iterable

TOKEN_HEADER = "x-seat-token"      # acts for one seat: CreateTable gave it
CREATE_HEADER = "x-create-token"   # the operator's: CreateTable needs it when the server asks


def metadata_value(metadata: Iterable[tuple[str, str | bytes]] | None, key: str) -> str | None:
    """The first value of `key`, or None."""
    for name, value in metadata or ():
        if name == key:
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return None
