"""The one byte form of a record that is signed: RFC 8785 canonical JSON (JCS: keys sorted by
UTF-16 code units, no spaces, shortest numbers, UTF-8), which any language can produce again, then
one newline. A record in any other form, however equal its data, is not the signed one: so every
changed byte of a signed record is caught, a space or a newline included."""

from __future__ import annotations

import json
from typing import Any

import rfc8785

from referee.errors import InvalidArgument


def canonical(value: Any) -> bytes:
    """`value` as RFC 8785 canonical JSON (InvalidArgument for what JSON cannot say)."""
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError) as error:
        raise InvalidArgument(f"not representable as canonical JSON: {error}") from None


def signed_form(value: Any) -> str:
    """The text of a signed record: its canonical JSON and a newline."""
    return canonical(value).decode("utf-8") + "\n"


def read_signed_form(text: str) -> tuple[Any, str | None]:
    """The data of a record's text, and what keeps the text from being its signed form (None if
    nothing does). Data None: no JSON a record can be."""
    try:
        data = json.loads(text)
    except ValueError as error:
        return None, f"not JSON: {error}"
    except RecursionError:
        return None, "not JSON a record can be: nested too deep"
    try:
        expected = signed_form(data)
    except InvalidArgument as error:  # NaN, a number past 2^53: no JSON a record holds
        return None, error.message
    if text == expected:
        return data, None
    at = next((i for i, (a, b) in enumerate(zip(text, expected, strict=False)) if a != b), None)
    where = f"character {at + 1}" if at is not None else "its length"
    return data, f"not in its signed form (RFC 8785 canonical JSON and a newline): {where} differs"
