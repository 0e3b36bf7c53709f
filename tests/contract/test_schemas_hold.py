"""The typed contract holds (issue 11, point 6): on random games of every shipped game, what the
referee sends validates against the game's JSON Schemas, and what it accepts against its moves'.

The random games are the liveness driver's (`tests/support/random_games.py`: the game's
bot, the oracle's legal moves, junk moves, claim windows closed at their deadline). After every
accepted move each seat's view, the public view and the adjudicator's validate against the
view schema; each event, as every one of them receives it, against its kind's schema (a secret
field must be marked `x-secret`); the accepted move against its type's schema. Everything goes
through JSON first, as through a Struct: keys become text, tuples lists. The controls check
that a malformed move, a view with a key missing and an event with an unknown field fail.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from referee.engine.game import Game
from referee.engine.table import SYSTEM, Table, TableSetup
from referee.model import ADJUDICATOR, DIRECTOR, JSON, Move, Outcome, Verdict
from referee.schemas import SECRET, schemas_of
from tests.support.games import shipped_games
from tests.support.random_games import play, setups

pytestmark = pytest.mark.slow  # every test here is a long run

GAMES = shipped_games()
CHECKED: Counter[str] = Counter()
EVERY_VIEW = 8  # accepted moves between two checks of every viewer's view
ENDS = {"hand_over", "deal_over", "match_over", "game_over"}  # and after these


@cache
def validator(game: str, *path: str) -> Draft202012Validator:
    schema: Any = schemas_of(GAMES[game])
    for key in path:
        schema = schema[key]
    Draft202012Validator.check_schema(schema)
    # the same schema with its references replaced by what they name: validating is then about
    # three times faster (the `$defs` hold no cycle)
    return Draft202012Validator(inlined(schema, schema.get("$defs", {})))


def inlined(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    body = {k: inlined(v, defs) for k, v in node.items() if k not in ("$ref", "$defs")}
    if "$ref" in node:
        return {**inlined(defs[node["$ref"].removeprefix("#/$defs/")], defs), **body}
    return body


@cache
def _problems(game: str, text: str, path: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator(game, *path).iter_errors(json.loads(text))
    )


def problems(game: str, value: JSON, *path: str) -> tuple[str, ...]:
    """Why `value`, as a client gets it (through JSON, as through a Struct: keys become text,
    tuples lists), does not fit the schema at `path`. Remembered: most events reach every
    viewer alike, and most views do not change from one rejected move to the next."""
    return _problems(game, json.dumps(value, sort_keys=True), path)


def check_verdict(table: Table, seat: int, move: Move, verdict: Verdict) -> None:
    if verdict.outcome is Outcome.REJECTED:
        return
    game = table.game.name
    viewers = [*range(table.setup.seats), None, ADJUDICATOR]
    # the table's own move (a claim window closed) is no client's, nor is the director's ruling
    if seat not in (SYSTEM, DIRECTOR):
        assert not problems(game, move.to_data(), "moves", move.type), (
            move,
            problems(game, move.to_data(), "moves", move.type),
        )
        CHECKED["moves"] += 1
    for event in verdict.events:
        assert event.kind in schemas_of(GAMES[game])["events"], (
            f"event `{event.kind}` has no schema"
        )
        secret = schemas_of(GAMES[game])["events"][event.kind]["properties"]
        unmarked = [k for k in event.secret if not secret.get(k, {}).get(SECRET)]
        assert not unmarked, (
            f"event `{event.kind}`: secret fields not marked `{SECRET}`: {unmarked}"
        )
        for viewer in viewers:
            seen = event.seen_by(viewer)
            assert not problems(game, seen, "events", event.kind), (
                seen,
                problems(game, seen, "events", event.kind),
            )
            CHECKED["events"] += 1
    # a view takes milliseconds to validate: every viewer's every few moves, else one in turn
    every = table.version % EVERY_VIEW == 0 or any(e.kind in ENDS for e in verdict.events)
    for viewer in viewers if every else [viewers[table.version % len(viewers)]]:
        view = table.view(viewer)
        assert not problems(game, view, "view"), (viewer, problems(game, view, "view"))
        CHECKED["views"] += 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_the_referee_sends_and_accepts_fits_the_schemas(name: str) -> None:
    game = GAMES[name]
    first = Table.create(
        game,
        TableSetup(
            game=name,
            seats=game.spec.seats_max,
            seed=1,
            balances=_balances(game, game.spec.seats_max),
        ),
    )
    for viewer in [*range(first.setup.seats), None, ADJUDICATOR]:  # before any move
        assert not problems(name, first.view(viewer), "view")

    @settings(
        max_examples=2,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # a failure: its message says all
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(setup=setups(game), seed=st.integers(0, 2**32))
    def games(setup: TableSetup, seed: int) -> None:
        play(game, setup, seed, watch=check_verdict)

    games()
    assert CHECKED["views"] and CHECKED["events"] and CHECKED["moves"]


@pytest.mark.parametrize("name", ["pontinho", "pontoon", "tarocchi_piedicavallo"])
def test_disputes_and_rulings_fit_the_schemas(name: str) -> None:
    """Each way to dispute, each ruling, a token reissued, at a table whose seats have names:
    the moves, their events, every view after."""
    game = GAMES[name]
    seats = game.spec.seats_min
    names = {0: "Ana", 1: "Bé 🂡"}
    table = Table.create(
        game,
        TableSetup(game=name, seats=seats, seed=2, balances=_balances(game, seats), names=names),
    )
    tally = game.mechanic.tallies[0]
    adjust = {"decision": "adjust", "seat": 1, "amount": -3, "tally": tally}
    for seat, move in [
        (0, Move("dispute", {"proposal": "m-1", "reason": "why"})),
        (1, Move("dispute", {"version": 1, "reason": "why"})),
        (DIRECTOR, Move("ruling", {"dispute": 1, "note": "n", "decision": "uphold"})),
        (DIRECTOR, Move("ruling", {"dispute": 2, "note": "n", **adjust})),
        (0, Move("dispute", {"version": 4, "reason": "why"})),
        (DIRECTOR, Move("ruling", {"dispute": 5, "note": "n", "decision": "rewind", "to": 2})),
        (DIRECTOR, Move("reissue", {"seat": 1})),
    ]:
        verdict = table.propose(seat, move)
        assert verdict.outcome is Outcome.ACCEPTED, verdict
        check_verdict(table, seat, move, verdict)
        assert table.version % EVERY_VIEW == 0 or all(
            not problems(name, table.view(viewer), "view")
            for viewer in [*range(seats), None, ADJUDICATOR]
        )


def _balances(game: Game, seats: int) -> dict[int, int] | None:
    return {s: 1000 for s in range(seats)} if game.spec.mechanics == "banking" else None


# --- the controls: the schemas refuse what does not fit -----------------------------------------


def test_a_malformed_move_fails_its_schema() -> None:
    assert not problems("pontinho", {"type": "discard", "card": "7H"}, "moves", "discard")
    for bad in (
        {"type": "discard"},
        {"type": "discard", "card": "7X"},
        {"type": "discard", "card": "7H", "cards": ["7H"]},
        {"type": "meld", "card": "7H"},
        {"type": "discard", "card": ["7H"]},
    ):
        assert problems("pontinho", bad, "moves", "discard"), bad
    assert problems("pontoon", {"type": "bet", "amount": 2**53}, "moves", "bet")
    assert problems("pontoon", {"type": "bet", "amount": 2.5}, "moves", "bet")
    assert not problems(
        "shoot_pontoon", {"type": "bet", "amount": 5, "shoot": None}, "moves", "bet"
    )
    assert problems("tarocchi_piedicavallo", {"type": "play", "card": "ZZ"}, "moves", "play")
    assert not problems("tarocchi_piedicavallo", {"type": "play", "card": "T21"}, "moves", "play")
    assert problems("pontinho", {"type": "contribute", "entropy": "x" * 65}, "moves", "contribute")


def test_a_view_with_a_key_missing_or_unknown_fails() -> None:
    table = Table.create(
        GAMES["tarocchi_piedicavallo"], TableSetup(game="tarocchi_piedicavallo", seats=4, seed=3)
    )
    view = table.view(1)
    assert not problems("tarocchi_piedicavallo", view, "view")
    assert not problems("tarocchi_piedicavallo", {**view, "legal": {"play": []}}, "view")
    missing = {k: v for k, v in view.items() if k != "hand_sizes"}
    assert any("hand_sizes" in p for p in problems("tarocchi_piedicavallo", missing, "view"))
    assert problems("tarocchi_piedicavallo", {**view, "secret_deck": []}, "view")
    assert problems("tarocchi_piedicavallo", {**view, "hand": ["T22"]}, "view")
    assert not problems("tarocchi_piedicavallo", {**view, "names": {"0": "x" * 40}}, "view")
    for names in ({"0": "x" * 41}, {"0": ""}, {"zero": "Ana"}, {"0": 7}):
        assert problems("tarocchi_piedicavallo", {**view, "names": names}, "view"), names


def test_an_event_with_an_unknown_field_or_a_wrong_kind_fails() -> None:
    played = {"kind": "played", "seat": 1, "card": "T1"}
    assert not problems("tarocchi_piedicavallo", played, "events", "played")
    assert problems("tarocchi_piedicavallo", {**played, "extra": 1}, "events", "played")
    assert problems("tarocchi_piedicavallo", {**played, "kind": "trick_won"}, "events", "played")
    assert problems("tarocchi_piedicavallo", {"kind": "played", "seat": 1}, "events", "played")
