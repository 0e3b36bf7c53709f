"""The rummy mechanic's move table says what its code does (that its `KEYS` say every key of its
sections: tests/spec/test_mechanic_declarations.py).

- `moves.MOVES`: each move's `judged` lists exactly the checkpoints whose rules are judged while a
  turn of that move runs. Every rule book call is traced to the `Turn` it is made for (the
  nearest one on the call stack) while the conformance scenarios of Pontinho and Taradinho run.
  Which meld kinds a meld is read as depends on its cards: the rows say them all (`MELD_KINDS`).
  The control: a row left short (`take_discard` without `take`) or too long is caught.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from referee.engine.game import Game
from referee.mechanics.rummy.moves import MELD_KINDS, MOVES
from referee.mechanics.rummy.turn import Turn
from referee.scenario.runner import run_file, scenario_files
from referee.scenario.target import InProcessTarget
from referee.spec.rules import RuleBook

CONFORMANCE = Path(__file__).parents[2] / "conformance"
GAMES = ("pontinho", "taradinho")


def as_rows_say(checkpoints: set[str], kinds: set[str]) -> set[str]:
    """The checkpoints judged, each meld kind's as the rows say them (`MELD_KINDS`): which
    kinds a meld is read as depends on its cards."""
    return {MELD_KINDS if c in kinds else c for c in checkpoints}


def turn_on_stack() -> Turn | None:
    """The `Turn` whose method is the nearest caller, if any."""
    frame = inspect.currentframe()
    while frame is not None:
        caller = frame.f_locals.get("self")
        if isinstance(caller, Turn):
            return caller
        frame = frame.f_back
    return None


@pytest.fixture(scope="module")
def judged_in_scenarios(games: dict[str, Game]) -> dict[str, set[str]]:
    """Move type -> the checkpoints judged for its turns, over the games' scenarios."""
    seen: dict[str, set[str]] = defaultdict(set)
    judge, accepts = RuleBook.judge, RuleBook.accepts

    def note(checkpoint: str) -> None:
        turn = turn_on_stack()
        if turn is not None:
            seen[turn.move_type].add(checkpoint)

    def traced_judge(book: RuleBook, checkpoint: str, *args: Any, **kw: Any) -> Any:
        note(checkpoint)
        return judge(book, checkpoint, *args, **kw)

    def traced_accepts(book: RuleBook, checkpoint: str, *args: Any, **kw: Any) -> bool:
        note(checkpoint)
        return accepts(book, checkpoint, *args, **kw)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RuleBook, "judge", traced_judge)
        patch.setattr(RuleBook, "accepts", traced_accepts)
        target = InProcessTarget(games)
        for path in scenario_files([CONFORMANCE / game for game in GAMES]):
            assert run_file(path, target).passed, path
    return dict(seen)


def kinds(games: dict[str, Game]) -> set[str]:
    return {str(kind) for game in GAMES for kind in games[game].spec.sections["meld_kinds"]}


@pytest.mark.parametrize("move_type", sorted(MOVES))
def test_a_move_judges_the_checkpoints_its_row_says(
    move_type: str, judged_in_scenarios: dict[str, set[str]], games: dict[str, Game]
) -> None:
    judged = as_rows_say(judged_in_scenarios[move_type], kinds(games))
    assert judged == set(MOVES[move_type].judged)


def test_a_row_left_short_or_too_long_is_caught(
    judged_in_scenarios: dict[str, set[str]], games: dict[str, Game]
) -> None:
    """The control: `take_discard` without `take`, `draw` with it."""
    take_discard = as_rows_say(judged_in_scenarios["take_discard"], kinds(games))
    assert take_discard != {"take_discard", MELD_KINDS}
    assert as_rows_say(judged_in_scenarios["draw"], kinds(games)) != {"draw", "take"}
