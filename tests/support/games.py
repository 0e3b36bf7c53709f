"""The shipped games (specs/), loaded once for the whole test run.

The session-scoped `games` fixture (tests/conftest.py) is this; module-level code that needs the
games before any fixture runs (hypothesis strategies, `parametrize`) calls `shipped_games()`."""

from __future__ import annotations

from functools import lru_cache

from referee.engine.game import Game
from referee.plugins.games import load_games


@lru_cache(maxsize=1)
def shipped_games() -> dict[str, Game]:
    return load_games()
