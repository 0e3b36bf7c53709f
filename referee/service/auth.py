"""Seat tokens: made once per seat at CreateTable, stored only as sha256 digests, and asked of
every act (a seat's own view too). An unknown token answers as a wrong one does."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping

from referee.errors import PermissionDenied, Unauthenticated

TOKEN_BYTES = 32


def new_tokens(seats: int) -> dict[int, str]:
    """A secret token per seat, given out once."""
    return {seat: new_token() for seat in range(seats)}


def new_token() -> str:
    """One seat's secret token (CreateTable's, or ReissueSeat's)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    # Only digests are stored and compared: a leaked database gives no seat away, and a dict
    # lookup by digest leaks nothing useful through timing about the token itself.
    return hashlib.sha256(token.encode()).hexdigest()


def not_valid(table_id: str) -> str:
    return f"the seat token is not valid for table `{table_id}`"


def viewer(
    table_id: str, seat_of_digest: Mapping[str, int], token: str | None, claimed: int | None
) -> int | None:
    """The seat the token stands for, or None (the public) without a token."""
    if not token:
        if claimed is not None:
            raise Unauthenticated(f"missing seat token: seat {claimed}'s view needs it")
        return None
    seat = seat_of_digest.get(digest(token))
    if seat is None:
        raise Unauthenticated(not_valid(table_id))
    if claimed is not None and claimed != seat:
        raise PermissionDenied(f"the token is seat {seat}'s: it cannot act for seat {claimed}")
    return seat


def actor(
    table_id: str, seat_of_digest: Mapping[str, int], token: str | None, claimed: int | None
) -> int:
    """The seat the token stands for: acting needs a token."""
    seat = viewer(table_id, seat_of_digest, token, claimed)
    if seat is None:
        raise Unauthenticated("missing seat token")
    return seat
