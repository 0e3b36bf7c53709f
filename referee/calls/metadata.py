"""The request metadata the referee reads: a seat's token, the operator's create token, and the
languages the caller reads."""

from __future__ import annotations

from collections.abc import Iterable

TOKEN_HEADER = "x-seat-token"  # acts for one seat: CreateTable gave it
CREATE_HEADER = "x-create-token"  # the operator's: CreateTable needs it when the server asks
LANGUAGE_HEADER = "accept-language"  # `pt-BR, pt;q=0.9`: the language of verdicts and texts


def metadata_value(metadata: Iterable[tuple[str, str | bytes]] | None, key: str) -> str | None:
    """The first value of `key`, or None."""
    for name, value in metadata or ():
        if name == key:
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return None
