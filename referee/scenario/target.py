"""Where scenarios run: a `Target` is anything that can create a table and judge moves.

`InProcessTarget` drives the engine directly; `referee.scenario.remote.GrpcTarget` drives a
running referee over gRPC. The runner only sees this small interface, so the same scenarios
check both, and any other implementation of the API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.errors import NotFound, RefereeError
from referee.model import ADJUDICATOR, JSON, Move, Verdict
from referee.scenario.format import Setup


class Unsupported(RefereeError):
    """The target or the game cannot do what a step asks (a claim window where none opens)."""

    code = "unsupported"


class CannotRun(Unsupported):
    """The target cannot run such a step at all (a remote server's clock cannot be moved): the
    scenario is skipped there, with this reason, not failed."""


class Target(Protocol):
    def create_table(self, setup: Setup) -> Any:
        """A handle for a new table; raises `SetupError` / `OptionError` for a bad setup."""

    def propose(self, handle: Any, seat: int, move: Move) -> Verdict:
        """The verdict on `move` proposed by `seat`."""

    def view(self, handle: Any, seat: int) -> dict[str, JSON]:
        """What `seat` sees; `ADJUDICATOR` (-1): the full view (`hands` of every seat)."""

    def close_window(self, handle: Any) -> None:
        """Make the table's deadline (an open claim window's) pass; `Unsupported` if none."""

    def close(self) -> None:
        """Release what the target holds (channels, servers)."""


def table_setup(setup: Setup) -> TableSetup:
    """The engine's `TableSetup` for a scenario's setup."""
    return TableSetup(
        game=setup.game,
        options=dict(setup.options),
        seats=setup.seats,
        dealer=setup.dealer,
        seed=scenario_seed(setup),
        secret=setup.secret,
        entropy=setup.entropy,
        names=dict(setup.names) if setup.names is not None else None,
        deal=dict(setup.deal) if setup.deal is not None else None,
        scores=dict(setup.scores) if setup.scores is not None else None,
        balances=dict(setup.balances) if setup.balances is not None else None,
    )


def scenario_seed(setup: Setup) -> int | None:
    """A scenario is deterministic (SCENARIOS.md): without a seed (nor a fair table's revealed
    secret) its shuffles use seed 0, given explicitly, since a table without one is dealt fair."""
    if setup.seed is None and setup.secret is None:
        return 0
    return setup.seed


def game_named(games: Mapping[str, Any], name: str) -> Any:
    if name not in games:
        known = ", ".join(f"`{n}`" for n in sorted(games)) or "none"
        raise NotFound(f"unknown game `{name}`: known games are {known}")
    return games[name]


class InProcessTarget:
    """Tables of the engine in this process; the handle is the `Table` itself."""

    def __init__(self, games: Mapping[str, Any]) -> None:
        self.games = games

    def create_table(self, setup: Setup) -> Any:
        return Table.create(game_named(self.games, setup.game), table_setup(setup))

    def propose(self, handle: Any, seat: int, move: Move) -> Verdict:
        verdict: Verdict = handle.propose(seat, move)
        return verdict

    def view(self, handle: Any, seat: int = ADJUDICATOR) -> dict[str, JSON]:
        view: dict[str, JSON] = handle.view(seat)
        return view

    def close_window(self, handle: Table) -> None:
        """The step `deadline` (`close_window`): the table's deadline passes, a claim window's
        or a turn's clock's."""
        if handle.expire() is None:
            raise Unsupported(
                "`deadline`: the table has no deadline now (no claim window, no clock)"
            )

    def close(self) -> None:
        return None
