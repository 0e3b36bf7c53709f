"""What a mechanic declares to the referee's tools, so that they iterate over mechanics instead
of naming them: the games' loader (`games`) finds its class, `referee transcript` its adapter (whose bot
`referee play`, `make bench` and the tests drive too), the scenario loader and checker its
`check` keys."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.engine.game import Game
from referee.engine.mechanic import Mechanic
from referee.engine.setup import TableSetup
from referee.plugins.play_turns import PlayContext
from referee.plugins.transcript_parts import Adapter
from referee.scenario.checks import CheckKey


@dataclass(frozen=True)
class Plugin:
    mechanic: type[Mechanic[Any]]
    # the bot and how a golden transcript shows the game; None: no transcript (nor bot) yet
    transcript: Adapter | None = None
    # `referee play`: the bots play a table to its end (or its hand limit); the exit status
    play: Callable[[PlayContext], int] | None = None
    # `make bench`: the table a recorded bot game is played on (the game, seed), and its limit
    bench_setup: Callable[[Game, int], TableSetup] | None = None
    bench_hands: int | None = None
    checks: Mapping[str, CheckKey] = field(default_factory=dict)
    # the view keys a hand just ended keeps in `last_hand`, which a check after it speaks of
    finished_view_keys: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.mechanic.name
