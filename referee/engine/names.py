"""Display names: what CreateTable may call each seat (issue 27). A name is a label for people,
shown in every view (`names`) and record; it is never an identity: a seat's token alone says
who acts, and two seats may even share a name.

A name is 1 to `MAX_NAME_CHARS` characters, not blank, with no control, formatting or line
separating character (Unicode's categories Cc, Cf, Cs, Co, Cn, Zl, Zp and spaces other than
the ASCII one: what `str.isprintable` refuses), so a name cannot forge a line of a log, hide
text, or turn a page's text around (U+202E).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import SetupError
from referee.model import JSON

MAX_NAME_CHARS = 40


def check_names(names: Mapping[Any, Any] | None, seats: int) -> None:
    """`SetupError` unless every key is a seat of the table and every name a good one."""
    for seat, name in (names or {}).items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise SetupError(f"`names`: `{seat}` is not a seat of this table")
        problem = name_problem(name)
        if problem is not None:
            raise SetupError(f"`names` of seat {seat}: {problem}")


def name_problem(name: Any) -> str | None:
    """What is wrong with a display name, in English; None when nothing is."""
    if not isinstance(name, str):
        return "a name is a text"
    if not 1 <= len(name) <= MAX_NAME_CHARS:
        return f"a name is 1 to {MAX_NAME_CHARS} characters, not {len(name)}"
    if not name.isprintable():
        return "a name holds no control, formatting or line separating character"
    if not name.strip():
        return "a name is not blank"
    return None


def shown(names: Mapping[int, str] | None) -> dict[str, JSON]:
    """The names as views and records show them: by seat, its number in decimal."""
    return {str(seat): name for seat, name in sorted((names or {}).items())}
