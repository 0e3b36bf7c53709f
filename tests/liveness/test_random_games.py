"""No table waits forever (issue 9): long random games of every shipped game, played by
adversarial bots, with a witness of liveness at every state.

At every state of a table whose game is not over, some seat must have a legal move (the oracle,
`tests/liveness/oracle.py`, finds one and the rules accept it). The bots are adversarial: besides
the game's own client bot for the seat to act, they propose moves the oracle finds for any seat
(out-of-turn claims in Taradinho, passes, splits, buys and twists that drain a Pontoon pack),
moves of random seats with random fields (out of turn, malformed, out of range), and they let
claim windows run to their deadline. Tables have many seats as often as few. A rejected move
must change nothing.

`LIVENESS_SCALE` multiplies the games played (`make soak` runs the long version) and
`LIVENESS_REPORT=1` prints how many games, states and witnesses were covered.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.table import TableSetup
from tests.support.games import shipped_games
from tests.support.random_games import COVERED, play, setups

pytestmark = pytest.mark.slow  # every test here is a long run

GAMES = shipped_games()
SCALE = int(os.environ.get("LIVENESS_SCALE", "1"))


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield
    if os.environ.get("LIVENESS_REPORT"):
        print("\nliveness (random games):", dict(sorted(COVERED.items())))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_table_waits_forever(name: str) -> None:
    game = GAMES[name]

    @settings(
        max_examples=2 * SCALE,  # `make soak`: 40
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(setup=setups(game), seed=st.integers(0, 2**32))
    def games(setup: TableSetup, seed: int) -> None:
        play(game, setup, seed)

    games()
