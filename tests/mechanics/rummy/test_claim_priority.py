"""Which claim on a discard wins is the spec's `rummy.claims.priority`, not the mechanic's.

The shipped Taradinho lists `[goes_out, nearest_after_discarder]` (TD-3): a going-out claim beats
nearer takes. The same table under a spec listing only `nearest_after_discarder` gives the
discard to the nearest claimant instead; an order the mechanic does not know is refused at the
spec, with the nearest known name.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import SpecErrors
from referee.model import Move
from referee.plugins.games import DEFAULT_SPECS, load_game
from tests.support.server import TARADINHO_DEAL

SHIPPED = "priority: [goes_out, nearest_after_discarder]"
DEAL = TARADINHO_DEAL


def taradinho(tmp_path: Path, priority: str) -> Game:
    for name in ("pontinho.yaml", "taradinho.yaml"):
        shutil.copy(Path(DEFAULT_SPECS) / name, tmp_path / name)
    pontinho = tmp_path / "pontinho.yaml"
    text = pontinho.read_text(encoding="utf-8")
    assert SHIPPED in text
    pontinho.write_text(text.replace(SHIPPED, f"priority: {priority}"), encoding="utf-8")
    return load_game(tmp_path / "taradinho.yaml")


def winner_of_three_claims(game: Game) -> int:
    """Seats 2 and 3 claim the discard to meld it, seat 0 (farthest) to go out."""
    table = Table.create(game, TableSetup(game="taradinho", seats=4, dealer=0, deal=DEAL))
    moves: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "draw"}),
        (1, {"type": "discard", "card": "5C"}),
        (2, {"type": "take_discard", "meld": ["5S", "5H", "5C"]}),
        (3, {"type": "take_discard", "meld": ["3C", "4C", "5C"]}),
        (
            0,
            {
                "type": "go_out",
                "take": "discard",
                "melds": [["5C", "6C", "7C"], ["JS", "QS", "KS"], ["2D", "3D", "4D", "5D"]],
            },
        ),
    ]
    for seat, move in moves:
        verdict = table.propose(seat, Move.from_data(move))
        assert not verdict.violations, verdict.violations
    won = [e for e in verdict.events if e.kind == "claim_won"]
    assert len(won) == 1
    return int(won[0].data["seat"])


def test_the_shipped_priority_lets_going_out_win(tmp_path: Path) -> None:
    assert winner_of_three_claims(taradinho(tmp_path, "[goes_out, nearest_after_discarder]")) == 0


def test_another_priority_gives_the_discard_to_the_nearest(tmp_path: Path) -> None:
    assert winner_of_three_claims(taradinho(tmp_path, "[nearest_after_discarder]")) == 2


@pytest.mark.parametrize(
    ("priority", "says"),
    [
        ("[goes_ot]", "unknown claim order `goes_ot`: did you mean `goes_out`?"),
        ("[]", "`priority` lists the orders that pick the winning claim"),
    ],
)
def test_a_priority_the_mechanic_does_not_know_is_refused(
    tmp_path: Path, priority: str, says: str
) -> None:
    with pytest.raises(SpecErrors) as caught:
        taradinho(tmp_path, priority)
    assert says in str(caught.value)
