"""An explanation agrees with its verdict: on random bot games of every shipped game, each
proposal's explanation (`Table.explain`) reports broken exactly the rules its verdict cites, of
those it judged; and explaining changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.bench import recorded_game
from referee.engine.game import Game
from referee.engine.table import Table
from referee.model import ADJUDICATOR, Move, Outcome
from referee.spec import explaining
from referee.spec.explaining import BLIND, BROKEN, HELD, NOT_APPLICABLE, TRIED

GAMES = ["pontinho", "taradinho", "pontoon", "shoot_pontoon", "tarocchi_piedicavallo"]
MOST = 600  # proposals of each game (a Pontinho match is some 10,000)


def agreement(judgements: list[explaining.Judged], cited: set[str]) -> str | None:
    """Why the explanation and the verdict's rule ids disagree, or None."""
    deciding = [j for j in judgements if j.role != TRIED]
    broken = {rule for j in deciding for rule in j.broken}
    judged = {r.rule for j in deciding for r in j.rules}
    if not broken <= cited:
        return f"reported broken but not cited: {sorted(broken - cited)}"
    if not cited & judged <= broken:
        return f"cited, judged, but not reported broken: {sorted(cited & judged - broken)}"
    return None


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_explanation_reports_broken_the_rules_the_verdict_cites(
    games: dict[str, Game], name: str, seed: int
) -> None:
    game = games[name]
    setup, log = recorded_game(game, seed, MOST)
    table = Table.create(game, setup)
    for seat, move in log:
        judgements = table.explain(seat, move)
        before = table.view(None)
        verdict = table.propose(seat, move)
        cited = {v.rule for v in verdict.violations}
        problem = agreement(judgements, cited)
        assert problem is None, f"{move} by seat {seat} at version {table.version}: {problem}"
        if verdict.outcome is Outcome.REJECTED:
            assert table.view(None) == before
        for judged in judgements:
            assert {r.outcome for r in judged.rules} <= {HELD, BROKEN, NOT_APPLICABLE}


def test_explaining_leaves_the_table_as_it_was(games: dict[str, Game]) -> None:
    game = games["pontinho"]
    setup, log = recorded_game(game, 7, 200)
    explained, plain = Table.create(game, setup), Table.create(game, setup)
    for seat, move in log:
        explained.explain(seat, move)
        assert explained.propose(seat, move) == plain.propose(seat, move)
    for seat in (None, *range(setup.seats)):  # each table has a commitment of its own
        assert {**explained.view(seat), "commitment": ""} == {**plain.view(seat), "commitment": ""}


def test_a_blind_banker_s_rejection_is_explained_by_its_blind_judgements(
    games: dict[str, Game],
) -> None:
    """The banker does not see its first card before its turn: its rejection then is judged
    with each card of the pack in that card's place (GEN-3), and so is its explanation."""
    game = games["pontoon"]
    setup, log = recorded_game(game, 1, 300)
    table = Table.create(game, setup)
    for seat, move in log:
        table.propose(seat, move)
        if table.view(ADJUDICATOR)["phase"] == "play":
            break
    banker = table.view(ADJUDICATOR)["banker"]
    for move in (Move("stick"), Move("twist"), Move("buy", {"amount": 10})):
        judgements = table.explain(banker, move)
        verdict = table.propose(banker, move)
        assert verdict.outcome is Outcome.REJECTED
        assert [j.role for j in judgements].count(BLIND) == 52  # one a card of the pack
        assert agreement(judgements, {v.rule for v in verdict.violations}) is None
