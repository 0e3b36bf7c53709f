"""Judging never changes a state a move made, now that judging copies less: a rejected proposal
leaves the table's state as it was, and an accepted one leaves the state before it as it was too
(a rummy state's copy shares its melds, replaced copy on write, never changed; what a fix's search
found is kept with the state it searched, `PerState`). Over recorded bot games of each mechanic,
every state judged on is compared with a deep copy taken before the proposal."""

from __future__ import annotations

import copy
import gc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.bench import recorded_game
from referee.engine.game import Game
from referee.engine.table import Table
from referee.mechanics.banking.state import BankState
from referee.mechanics.per_state import KEPT_MOST, PerState
from referee.mechanics.rummy.state import Meld
from referee.mechanics.rummy.turn import Turn
from referee.model import Outcome
from referee.plugins.games import load_games

GAMES = load_games()
MOST = 150  # proposals of each recorded game: its first hands, rejections and all


def changed_states(game: Game, seed: int, most: int = MOST) -> int:
    """How many proposals of a recorded game changed the state they were judged on (counted
    up to the first)."""
    setup, log = recorded_game(game, seed, most=most)
    table = Table.create(game, setup)
    for seat, move in log:
        before, kept = table.state, copy.deepcopy(table.state)
        verdict = table.propose(seat, move)
        if before != kept:
            return 1
        if verdict.outcome is Outcome.REJECTED:
            assert table.state is before  # a rejection leaves the very state in place
    return 0


@pytest.mark.parametrize(
    "name", ["pontinho", "taradinho", "pontoon", "shoot_pontoon", "tarocchi_piedicavallo"]
)
def test_no_proposal_changes_the_state_it_is_judged_on(name: str) -> None:
    @settings(
        max_examples=2,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(0, 2**16))
    def games(seed: int) -> None:
        assert changed_states(GAMES[name], seed) == 0

    games()


def test_the_control_a_meld_written_in_place_changes_the_state_judged_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The control: a lay-off written into the shared meld itself (as before copy on write) is
    seen to change the state it was judged on."""

    def in_place(turn: Turn, meld: Meld, reading: object) -> Meld:
        meld.cards, meld.wild = reading.cards, reading.wild  # type: ignore[attr-defined]
        return meld

    monkeypatch.setattr(Turn, "_apply", in_place)
    assert changed_states(GAMES["pontinho"], 7, most=1500) > 0  # past its first lay-offs


def test_the_control_a_hand_changed_unowned_changes_the_state_judged_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The control: a banking move changing a hand it shares with the state it was judged on
    (taken without `own`'s copy) is seen to change that state."""
    monkeypatch.setattr(BankState, "own", lambda state, seat, index: state.hands[seat][index])
    assert changed_states(GAMES["pontoon"], 3) > 0


class Held:
    """A state stand-in: any object that can be held weakly."""


def test_values_are_kept_per_state_object_while_it_lives() -> None:
    kept, computed = PerState(), []
    first, second = Held(), Held()

    def compute(value: int) -> int:
        computed.append(value)
        return value

    assert kept.get(first, "key", lambda: compute(1)) == 1
    assert kept.get(first, "key", lambda: compute(2)) == 1  # kept: not computed again
    assert kept.get(second, "key", lambda: compute(3)) == 3  # another state: its own values
    assert computed == [1, 3] and len(kept) == 2
    del first
    gc.collect()
    assert len(kept) == 1  # a state gone takes its values with it


def test_the_values_kept_for_one_state_are_bounded() -> None:
    kept, state = PerState(), Held()
    for key in range(KEPT_MOST * 3):
        kept.get(state, key, lambda key=key: key)  # type: ignore[misc]
    values = kept.values(state)
    assert len(values) <= KEPT_MOST
    assert KEPT_MOST * 3 - 1 in values  # the newest stay, the oldest went first
