"""Gin (docs/example-specs/gin.yaml, an example spec): a plain rummy on the `rummy` mechanic.

It selects none of the mechanic's optional parts: no elimination match (`rummy.match`), no
turned card (`rummy.turned_card`), no claim windows (`rummy.claims`), no jokers (`is_joker`),
and no moves but draw, take the discard, meld, lay off and discard. Each absent part is a no-op:
the discard pile starts empty, a discard opens no window, nothing blows and nobody is asked to
re-enter, and the hand that someone goes out of ends the game. The mechanic's own verdicts
carry the ids the spec gives them (`GN-6`), never Pontinho's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import SpecError, SpecErrors
from referee.mechanics.rummy.contexts import checkpoint_scopes
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.model import ADJUDICATOR, Move, Verdict
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.schemas import schemas_of
from tests.support import examples
from tests.support.mechanic_of import mechanic_of

SPEC = examples.GIN
GIN = load_game(SPEC)
DEAL = {
    "hands": {
        "1": ["2C", "3C", "4C", "7H", "7S", "7D", "KD"],
        "0": ["AS", "2S", "9H", "TD", "JC", "QH", "4D"],
    },
    "stock": ["QS", "5C", "8C"],
}


def propose(table: Table, seat: int, move: dict[str, Any]) -> Verdict:
    return table.propose(seat, Move.from_data(move))


def accept(table: Table, seat: int, move: dict[str, Any]) -> Verdict:
    verdict = propose(table, seat, move)
    assert verdict.accepted, verdict.violations
    return verdict


def fits(value: Any, *path: str) -> list[str]:
    """Why `value`, as a client gets it (through JSON), does not fit gin's schema at `path`."""
    schema: Any = schemas_of(GIN)
    for key in path:
        schema = schema[key]
    return [
        e.message for e in Draft202012Validator(schema).iter_errors(json.loads(json.dumps(value)))
    ]


def stacked() -> Table:
    return Table.create(GIN, TableSetup(game="gin", seats=2, dealer=0, deal=DEAL))


def test_a_seeded_deal_turns_no_card() -> None:
    table = Table.create(GIN, TableSetup(game="gin", seats=3, seed=7))
    view = table.view(ADJUDICATOR)
    assert view["hand_sizes"] == {"0": 7, "1": 7, "2": 7}
    assert view["stock_size"] == 52 - 21 and view["discard_size"] == 0
    assert view["turned"] is None and view["jokers"] == []


def test_a_hand_played_to_its_end() -> None:
    table = stacked()
    start = table.view(1)
    assert start["to_act"] == 1 and start["discard_top"] is None and start["turned"] is None
    assert start["legal_moves"] == ["draw"]  # no discard to take; no move gin lacks
    refused = propose(table, 1, {"type": "take_discard"})
    assert refused.rule_ids() == {"GN-6"}  # the mechanic's own verdict, with the spec's id

    accept(table, 1, {"type": "draw"})  # QS
    assert table.view(1)["legal_moves"] == ["meld", "layoff", "discard"]
    discarded = accept(table, 1, {"type": "discard", "card": "QS"})
    assert "claim_window" not in {e.kind for e in discarded.events}  # no claims part: no window
    assert table.view(0)["claim_window"] is None and table.view(0)["to_act"] == 0

    accept(table, 0, {"type": "take_discard"})  # into the hand: gin has no rule against it
    assert table.view(0)["hand"].count("QS") == 1 and table.view(0)["discard_size"] == 0
    accept(table, 0, {"type": "discard", "card": "9H"})

    accept(table, 1, {"type": "draw"})  # 5C
    accept(table, 1, {"type": "meld", "cards": ["2C", "3C", "4C", "5C"]})
    accept(table, 1, {"type": "meld", "cards": ["7H", "7S", "7D"]})
    out = accept(table, 1, {"type": "discard", "card": "KD"})  # the last card: out
    kinds = [e.kind for e in out.events]
    assert kinds == ["discarded", "went_out", "hand_over", "match_over"]  # no blow, no next deal
    assert table.is_over
    end = table.view(ADJUDICATOR)
    assert end["winner"] == 1 and end["match_over"]
    assert end["scores"] == {"0": 1 + 2 + 10 + 10 + 10 + 4 + 10, "1": 0}
    assert end["blown"] == [] and end["deciding"] == [] and end["pot"] == 0
    assert end["balances"] == {"0": 0, "1": 0}
    assert propose(table, 0, {"type": "draw"}).rule_ids() == {"GEN-8"}  # the game is over
    for viewer in (0, 1, None, ADJUDICATOR):  # the mechanic's schemas hold without the parts
        assert fits(table.view(viewer), "view") == []
    for event in (*discarded.events, *out.events):
        for viewer in (0, 1, None, ADJUDICATOR):
            assert fits(event.seen_by(viewer), "events", event.kind) == []


def test_the_mechanic_checks_the_spec_rules() -> None:
    table = stacked()
    accept(table, 1, {"type": "draw"})
    assert propose(table, 1, {"type": "meld", "cards": ["2C", "3C"]}).rule_ids() == {"GN-3-size"}
    assert propose(table, 1, {"type": "meld", "cards": ["2C", "3C", "7H"]}).rule_ids() == {"GN-3"}
    assert "GEN-7" in propose(table, 0, {"type": "draw"}).rule_ids()  # not its turn


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = SPEC.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "gin.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_game(path)
    return str(caught.value)


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        # a rule naming the turned card, where the deal turns none
        ("require: in_turn\n", "require: in_turn and rank(turned) > 0\n", "unknown name `turned`"),
        # a rule reading the match, or a claim window, where the spec selects neither
        (
            "require: in_turn\n",
            "require: in_turn and blows == 0\n",
            "at `rules[0].require`: unknown name `blows`",
        ),
        (
            "require: in_turn\n",
            "require: in_turn and not window_open\n",
            "at `rules[0].require`: unknown name `window_open`",
        ),
        (
            "hand_points: '",
            "hand_points: 'score + ",
            "at `scoring.hand_points`: unknown name `score`",
        ),
        # a move of the match, without the match
        ("moves:\n", "moves:\n  reenter:\n    text: {en: come back}\n", "needs `rummy.match`"),
        # claim windows with a misspelt priority
        (
            "  hand_size: 7\n",
            "  hand_size: 7\n  claims: {option: o, window: w, deadline: d, priorty: []}\n",
            "did you mean `priority`",
        ),
        # a verdict of the mechanic misspelt
        ("    no_discard:\n", "    no_discrad:\n", "did you mean `no_discard`"),
    ],
)
def test_a_part_the_spec_leaves_out_cannot_be_half_used(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    path = edited(tmp_path, old, new)
    refused = refusal(path)
    assert says in refused and refused.startswith(f"{path}:")  # located in the spec


MATCH_NAMES = {"score", "deciding", "reentries", "blows", "under", "playing"}
CLAIM_NAMES = {"window_open", "responded", "claims_closed"}


def test_the_rules_know_only_the_names_of_the_parts_selected() -> None:
    pontinho = load_game(Path(DEFAULT_SPECS) / "pontinho.yaml")
    for checkpoint in ("discard", "take", "set"):
        names = set(checkpoint_scopes(GIN.spec)[checkpoint].names())
        assert {"in_turn", "hand", "laid"} <= names
        assert not names & (MATCH_NAMES | CLAIM_NAMES | {"turned", "turned_covered"}), checkpoint
    for checkpoint in ("discard", "take", "trio"):
        names = set(checkpoint_scopes(pontinho.spec)[checkpoint].names())
        assert MATCH_NAMES | CLAIM_NAMES | {"turned", "turned_covered"} <= names, checkpoint
    assert "score" not in checkpoint_scopes(GIN.spec)["scoring"]
    assert "score" in checkpoint_scopes(pontinho.spec)["scoring"]


def test_the_game_is_its_spec() -> None:
    assert isinstance(GIN, Game) and GIN.spec.mechanics == "rummy"
    config = mechanic_of(GIN, RummyMechanic).config
    assert config.match is None and not config.turned_card
