"""The vocabulary of a golden transcript's adapter (`referee.plugins.transcript`): each mechanic's
plugin (`referee.plugins`) says, with these parts, how its views read as lines, and which bot
plays its seats."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from referee.model import JSON
from referee.scenario import comparers

View = Mapping[str, Any]
Candidates = Callable[[View, random.Random], Iterator[Mapping[str, JSON]]]
Part = Callable[[View], "str | None"]  # one part of a line, or None to leave it out


def show(value: Any) -> str:
    """Compact, stable text for event fields: `[4C 5C 6C]`, `{0: 12, 1: 0}`, `null`."""
    return comparers.show(value, between=" ")


# --- lines built from a view's keys ------------------------------------------------------------


def field(
    key: str, label: str | None = None, render: Callable[[Any], str] = show, *, if_set: bool = False
) -> Part:
    """`label value` for the view's `key`; with `if_set`, left out when empty, zero or null."""

    def part(view: View) -> str | None:
        value = view.get(key)
        if if_set and not value:
            return None
        return f"{label or key} {render(value)}"

    return part


def join_parts(parts: Iterable[Part], view: View, between: str) -> str:
    return between.join(text for part in parts if (text := part(view)) is not None)


COMMITMENT = field("commitment", render=lambda value: str(value)[:16])


def to_act(view: View) -> str:
    """Who is to act, and in which phase of the turn: `to act 1 (take)`."""
    return f"to act {show(view.get('to_act'))} ({view.get('phase')})"


@dataclass(frozen=True)
class Adapter:
    """What a transcript needs from one mechanic; everything else is shared."""

    bot: str  # named in the transcript's first lines
    candidates: Callable[[Mapping[str, Any]], Candidates]  # the bot, for the table's options
    next_seat: Callable[[View], int]  # who must act now, from the full view
    header: tuple[Part, ...]  # `=== hand n: ...`, from the full view
    view: tuple[Part, ...]  # one seat's view line
    summary: tuple[Part, ...]  # the closing line, from the full view
    hands: int | None = None  # default hand limit (None: to the end)
    chips: int | None = None  # each seat's starting balance
    legend: tuple[str, ...] = ()  # more `#` lines explaining the views
    legal: bool = False  # the bot is given the seat's view with its `legal` moves

    def header_line(self, full: View) -> str:
        return f"=== hand {full['hand_number']}: " + join_parts(self.header, full, ", ")

    def view_line(self, view: View) -> str:
        return join_parts(self.view, view, " | ")

    def summary_line(self, full: View) -> str:
        return join_parts(self.summary, full, "; ")
