"""A claim window: the claims and passes given on one discard while it is open.

Its own module, below the state that holds it and the claims that settle it: it knows neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Window:
    number: int  # counts the windows of a table: a timer closes its own
    discarder: int
    claims: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    passed: list[int] = field(default_factory=list)

    def clone(self) -> Window:
        return Window(self.number, self.discarder, dict(self.claims), list(self.passed))

    def answered(self, seat: int) -> bool:
        return seat in self.claims or seat in self.passed
