"""The `tricks` keys a game of deals to a target needs, on a small test spec (below): a card
turned at the deal (`tricks.turned`), read by every context of the deal and shown to every seat
and a spectator while it is face up; the game points of a deal (`tricks.game_points`, at
`deal_end`), added up deal after deal; the game's end (`tricks.game_over`, at `match_end`).

The spec is whist whose trump is the suit of the dealer's last card, turned; a team scores a game
point for each trick over six, and the game is played to `match_to` game points. Its rules in
plain Python: tests/oracles/whist.py, with the turned card's suit as trumps.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.cards import Card
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import SpecErrors
from referee.model import ADJUDICATOR, Move, Outcome, Verdict
from referee.plugins.games import load_game
from tests.oracles import whist

SPEC = """\
format: 1
game: turned_whist
title: {en: Whist with a turned trump (test spec)}
source: [tests only]
mechanics: tricks
seats: {min: 4, max: 4}
pack: {kind: french, copies: 1}
options:
  match_to: {type: int, default: 2, min: 1, max: 20, source: [tests only], text: {en: "target"}}
tricks:
  teams: [[0, 2], [1, 3]]
  hand_size: 13
  packet: 1
  turned: {card: dealer_last, visibility: public, until: played}
  winner: >-
    if any(c in trick: is_trump(c))
    then best_index(c in trick: if is_trump(c) then high(c) else 0)
    else best_index(c in trick: if suit(c) == suit(trick[0]) then high(c) else 0)
  owner: taker
  points: 1
  game_points: max(points[team] // 4 - 6, 0)
  game_over: 'any(p in game_points: p >= options.match_to)'
definitions:
  - name: "is_trump(c: card)"
    on: [play, trick_end]  # where the deal is under way (`setup` comes before the turn)
    body: suit(c) == suit(turned)
  - name: "high(c: card)"
    body: if rank(c) == ace then 14 else rank(c)
moves:
  play:
    fields: {card: card}
rules:
  - id: GEN-7
    on: [play]
    require: in_turn
    text: {en: "it is not your turn"}
  - id: WH-1
    on: [play]
    when: size(trick) > 0
    require: 'suit(move.card) == suit(trick[0]) or not any(c in hand: suit(c) == suit(trick[0]))'
    text: {en: "follow the suit led when you can"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    path = tmp_path_factory.mktemp("specs") / "turned_whist.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return load_game(path)


def views(table: Table) -> list[dict[str, Any]]:
    """Every seat's view and a spectator's."""
    return [table.view(seat) for seat in (0, 1, 2, 3, None)]


def play_a_card(table: Table, rng: random.Random) -> tuple[int, Card, Verdict]:
    """The seat in turn plays a random card the rules accept."""
    full = table.view(ADJUDICATOR)
    seat = full["to_act"]
    hand = [Card.parse(c) for c in full["hands"][str(seat)]]
    for card in rng.sample(hand, len(hand)):
        verdict = table.propose(seat, Move.from_data({"type": "play", "card": str(card)}))
        if verdict.outcome is not Outcome.REJECTED:
            return seat, card, verdict
    raise AssertionError("no card accepted")


def test_the_dealers_last_card_is_turned_shown_to_all_until_played(game: Game) -> None:
    table = Table.create(game, TableSetup(game=game.name, seats=4, dealer=2, seed=7))
    full = table.view(ADJUDICATOR)
    turned = full["hands"]["2"][-1]  # the dealer's last card dealt
    for view in views(table):
        assert view["turned"] == {"seat": 2, "card": turned}
        assert "game_points" in view and view["game_points"] == {"0": 0, "1": 0}
    for seat in (None, 0, 1, 3):  # the others and a spectator know it, as their views show it
        assert turned in table.game.mechanic.knowable(table.state, seat)
    rng = random.Random(1)
    while True:
        seat, card, _ = play_a_card(table, rng)
        if seat == 2 and str(card) == turned:
            break
        assert all(view["turned"] == {"seat": 2, "card": turned} for view in views(table))
    assert all(view["turned"] is None for view in views(table))  # face up until played
    if table.view(None)["trick"]:  # still on the table: seen as played
        assert turned in table.game.mechanic.knowable(table.state, 1)


def test_a_tricks_trump_is_the_suit_of_the_turned_card(game: Game) -> None:
    table = Table.create(game, TableSetup(game=game.name, seats=4, dealer=0, seed=11))
    trumps = Card.parse(table.view(None)["turned"]["card"]).suit
    rng = random.Random(2)
    trick: list[tuple[int, Card]] = []
    for _ in range(52):
        seat, card, verdict = play_a_card(table, rng)
        trick.append((seat, card))
        if len(trick) == 4:
            won = next(e for e in verdict.events if e.kind == "trick_won").data["seat"]
            assert won == trick[whist.trick_winner([c for _, c in trick], trumps)][0]
            trick = []
        if table.view(None)["hand_number"] > 1:
            break


def test_game_points_add_up_deal_after_deal_to_the_target(game: Game) -> None:
    table = Table.create(
        game, TableSetup(game=game.name, seats=4, dealer=3, seed=3, options={"match_to": 3})
    )
    rng = random.Random(3)
    kept = [0, 0]
    dealers = [3]
    while not table.is_over:
        _, _, verdict = play_a_card(table, rng)
        for event in verdict.events:
            if event.kind == "deal_over":
                tricks = [event.data["tricks"][t] for t in ("0", "1")]
                won = [max(n - 6, 0) for n in tricks]  # a point a trick over six
                assert event.data["game_points_won"] == {"0": won[0], "1": won[1]}
                kept = [k + w for k, w in zip(kept, won)]
                assert event.data["game_points"] == {"0": kept[0], "1": kept[1]}
            if event.kind == "hand_dealt":
                dealers.append(event.data["dealer"])
                view = table.view(None)
                assert view["leader"] == view["to_act"] == (view["dealer"] + 1) % 4
                assert view["turned"]["card"] == event.data["turned"]
        if not table.is_over:
            assert max(kept) < 3  # the game goes on below the target
    view = table.view(None)
    assert view["game_points"] == {"0": kept[0], "1": kept[1]} and max(kept) >= 3
    assert view["winner"] == kept.index(max(kept)) and view["match_over"]
    assert dealers == [(3 + k) % 4 for k in range(len(dealers))]  # the deal passes on


@pytest.mark.parametrize(
    ("text", "wrong", "message"),
    [
        ("card: dealer_last,", "card: dealer_first,", "`tricks.turned.card` must be one of"),
        ("until: played", "until: never", "`tricks.turned.until` must be one of"),
        ("visibility: public", "visibility: owner", "`tricks.turned.visibility` must be"),
        ("  owner: taker", "  owner: taker\n  deals: 2", "`tricks.deals` or `tricks.game_over`"),
        ("game_points: max(", "game_points: deals + max(", "unknown name `deals`"),
        ("'any(p in game", "'hand_number > 1 or any(p in game", "unknown name `hand_number`"),
    ],
)
def test_a_wrong_key_is_a_spec_error(tmp_path: Path, text: str, wrong: str, message: str) -> None:
    path = tmp_path / "turned_whist.yaml"
    assert text in SPEC
    path.write_text(SPEC.replace(text, wrong), encoding="utf-8")
    with pytest.raises(SpecErrors, match=message):
        load_game(path)


def test_a_spec_without_the_keys_has_no_turned_card_in_its_contexts(tmp_path: Path) -> None:
    path = tmp_path / "turned_whist.yaml"
    turned = "  turned: {card: dealer_last, visibility: public, until: played}\n"
    path.write_text(SPEC.replace(turned, ""), encoding="utf-8")
    with pytest.raises(SpecErrors, match="turned"):
        load_game(path)


def test_a_spec_without_the_keys_keeps_its_views_and_checkpoints(games: dict[str, Game]) -> None:
    """Tarocchi states none of the keys: no `turned` or `game_points` in any view, no
    `deal_end` or `match_end` checkpoint (its golden transcript shows the rest unchanged)."""
    tarocchi = games["tarocchi_piedicavallo"]
    table = Table.create(tarocchi, TableSetup(game=tarocchi.name, seats=4, seed=1))
    for view in [*views(table), table.view(ADJUDICATOR)]:
        assert "turned" not in view and "game_points" not in view
    assert {"deal_end", "match_end"}.isdisjoint(tarocchi.mechanic.rules.programs)


def test_a_card_turned_until_the_deal_end_stays_shown_once_played(tmp_path: Path) -> None:
    path = tmp_path / "turned_whist.yaml"
    path.write_text(SPEC.replace("until: played", "until: deal_end"), encoding="utf-8")
    game = load_game(path)
    table = Table.create(game, TableSetup(game=game.name, seats=4, dealer=1, seed=4))
    turned = {"seat": 1, "card": table.view(ADJUDICATOR)["hands"]["1"][-1]}
    rng = random.Random(4)
    played = False
    for _ in range(51):  # every card of the deal but the last
        seat, card, _ = play_a_card(table, rng)
        played = played or (seat == 1 and str(card) == turned["card"])
        assert all(view["turned"] == turned for view in views(table))
        assert turned["card"] in table.game.mechanic.knowable(table.state, 3)
    assert played
