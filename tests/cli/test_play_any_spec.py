"""`referee play` finishes a game of any spec, or gives up saying why (issue 29, point 3).

A mechanic's bot plays first; when its moves are spent with nothing taken, the bot of last
resort plays the seat's legal moves and the fixes its rejections offered (`legal_bot`), and
`--bot legal` plays every seat that way. A seat that can find no move the referee takes stops
the game with the seat, the state and the last rejection, and exit status 1: never a silent spin.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.commands.play import InProcess
from referee.engine.setup import TableSetup
from referee.errors import RefereeError
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.plugins.legal_bot import mended, moves_of
from referee.plugins.play_turns import play_turn
from referee.plugins.transcript import render
from referee.spec.schema import FieldSpec, MoveSpec
from tests.support.examples import GIN, TWENTY_ONE, WHIST
from tests.support.served import served

# a rule no fourth card of a trick can keep: whist's bots cannot go on after three cards
NO_FOURTH_CARD = """
  - id: WH-9
    on: [play]
    require: size(trick) < 3
    text: {en: "a trick takes three cards"}
"""


def play(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["play", *argv, "--quiet"])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("spec", "seats", "ending"),
    [(GIN, 3, "match over after 1 hands"), (WHIST, 4, "game over after 1 deal(s)")],
)
def test_the_mechanics_bots_finish_an_example_spec(
    spec: Path, seats: int, ending: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = play(capsys, spec.stem, "--specs", str(spec.parent), "--bots", str(seats))
    assert (status, err) == (0, ""), err
    assert ending in out


def test_the_legal_bot_plays_hands_of_a_banking_spec(capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(TWENTY_ONE.parent)
    status, out, err = play(
        capsys, "twenty_one", "--specs", folder, "--bot", "legal", "--hands", "3"
    )
    assert (status, err) == (0, ""), err
    assert "twenty_one: 4 bots (legal moves)" in out
    assert "after 3 hand(s): balances" in out
    assert "{'type': 'next_hand'} -> accepted" in out


@pytest.mark.parametrize("name", ["pontinho", "tarocchi_piedicavallo", "pontoon"])
def test_the_legal_bot_plays_a_shipped_spec_of_each_mechanic(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = DEFAULT_SPECS / f"{name}.yaml"
    (tmp_path / spec.name).write_text(spec.read_text(encoding="utf-8"), encoding="utf-8")
    seats = str(load_game(spec).spec.seats_min)
    argv = [name, "--specs", str(tmp_path), "--bot", "legal", "--bots", seats, "--hands", "1"]
    status, out, err = play(capsys, *argv)
    assert (status, err) == (0, ""), err
    assert "game over:" in out or "after 1 hand(s):" in out, out


def test_a_turn_whose_bot_moves_are_all_rejected_plays_a_legal_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = load_game(WHIST)
    referee = InProcess(game, TableSetup(game="whist", seats=4, seed=7))
    seat = referee.view(None)["to_act"]
    held = set(referee.view(seat)["hand"])
    not_held = next(str(c) for c in game.spec.pack() if str(c) not in held)
    proposals = play_turn(referee, seat, iter([{"type": "play", "card": not_held}]), quiet=True)
    assert proposals == 2  # the bot's move, rejected; then the first legal one, taken
    assert referee.view(seat)["hand"] != sorted(held) and len(referee.view(seat)["hand"]) == 12
    assert f"seat {seat}: {{'type': 'play', 'card': " in capsys.readouterr().out


def test_a_rejection_s_fix_mends_the_move_before_the_legal_moves_are_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = load_game(TWENTY_ONE)
    setup = TableSetup(game="twenty_one", seats=3, seed=7, balances={s: 100 for s in range(3)})
    referee = InProcess(game, setup)
    seat = referee.view(None)["to_act"]
    # TO-1 refuses a bet of 50 and says `amount_range` 1..10: its low end is proposed next
    assert play_turn(referee, seat, iter([{"type": "bet", "amount": 50}]), quiet=True) == 2
    assert f"seat {seat}: {{'type': 'bet', 'amount': 1}} -> accepted" in capsys.readouterr().out


@pytest.mark.parametrize("bot", ["mechanic", "legal"])
def test_bots_that_cannot_go_on_give_up_saying_who_where_and_why(
    bot: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "whist.yaml").write_text(WHIST.read_text(encoding="utf-8") + NO_FOURTH_CARD)
    status, out, err = play(capsys, "whist", "--specs", str(tmp_path), "--bot", bot)
    assert status == 1
    assert out.count("-> accepted") == 3  # three cards, then nobody can go on
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee play: the bots give up: seat 0 "), err
    assert "has no legal move (hand_number 1, phase play, to_act 0, version 3)" in err
    if bot == "mechanic":  # its bot proposed every card it holds: the last one's rejection
        assert "; last rejected: {'type': 'play', 'card': " in err
        assert "WH-9: a trick takes three cards" in err


def test_a_transcript_whose_bots_cannot_go_on_gives_up(tmp_path: Path) -> None:
    (tmp_path / "whist.yaml").write_text(WHIST.read_text(encoding="utf-8") + NO_FOURTH_CARD)
    with pytest.raises(RefereeError) as caught:
        render(load_game(tmp_path / "whist.yaml"), seed=7, seats=4)
    assert str(caught.value).startswith("the bots give up: seat 0 found no move the referee")
    assert "WH-9: a trick takes three cards" in str(caught.value)


def test_over_grpc_the_bots_play_legal_moves_and_give_up_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # each seat with its own token: the legal moves are its GetView's, the reasons its verdicts'
    (tmp_path / "twenty_one.yaml").write_text(TWENTY_ONE.read_text(encoding="utf-8"))
    (tmp_path / "whist.yaml").write_text(WHIST.read_text(encoding="utf-8") + NO_FOURTH_CARD)
    with served("--memory", "--allow-stacked", "--specs", str(tmp_path)) as server:
        remote = ["--specs", str(tmp_path), "--target", server.address]
        status, out, err = play(capsys, "twenty_one", *remote, "--bot", "legal", "--hands", "2")
        assert (status, err) == (0, ""), err
        assert "after 2 hand(s): balances" in out
        status, out, err = play(capsys, "whist", *remote)
        assert status == 1 and out.count("-> accepted") == 3
        assert "the bots give up: seat 0 has no legal move" in err
        assert "WH-9: a trick takes three cards" in err


def _spec(move_type: str, **fields: str) -> MoveSpec:
    return MoveSpec(move_type, tuple(FieldSpec(name, kind) for name, kind in fields.items()))


@pytest.mark.parametrize(
    ("spec", "entry", "expected"),
    [
        (_spec("next_hand"), {}, [{"type": "next_hand"}]),
        (_spec("play", card="card"), {"cards": ["2H"]}, [{"type": "play", "card": "2H"}]),
        (
            _spec("discard", cards="cards"),
            {"count": 2, "cards": ["2H", "3H"]},
            [{"type": "discard", "cards": ["2H", "3H"]}],
        ),
        (
            _spec("discard", cards="cards"),
            {"count": 1, "choices": [["2H"]]},
            [{"type": "discard", "cards": ["2H"]}],
        ),
        (
            _spec("meld", cards="cards"),
            {"melds": [["2H", "3H", "4H"]]},
            [{"type": "meld", "cards": ["2H", "3H", "4H"]}],
        ),
        (
            _spec("layoff", meld="int", cards="cards"),
            {"onto": [{"meld": 1, "cards": ["5H"]}]},
            [{"type": "layoff", "meld": 1, "cards": ["5H"]}],
        ),
        (_spec("bet", amount="int"), {"min": 3, "max": 3}, [{"type": "bet", "amount": 3}]),
        (
            _spec("offer_bank", to="int", price="int"),
            {"to": {"min": 1, "max": 1}, "price": {"min": 9, "max": 9}},
            [{"type": "offer_bank", "to": 1, "price": 9}],
        ),
    ],
)
def test_each_shape_of_a_legal_entry_makes_its_moves(
    spec: MoveSpec, entry: dict[str, Any], expected: list[dict[str, Any]]
) -> None:
    assert list(moves_of(spec.type, entry, spec, random.Random(0))) == expected


def test_a_fix_mends_the_move_it_was_given_for() -> None:
    play = _spec("play", card="card")
    assert mended(
        {"type": "play", "card": "2H"}, {"kind": "play_one_of", "cards": ["3S"]}, play
    ) == [{"type": "play", "card": "3S"}]
    bet = _spec("bet", amount="int")
    fix = {"kind": "amount_range", "field": "amount", "min": 1, "max": 10}
    assert mended({"type": "bet", "amount": 50}, fix, bet) == [
        {"type": "bet", "amount": 1},
        {"type": "bet", "amount": 10},
    ]
    instead = {"kind": "move_instead", "moves": ["draw"]}
    assert mended({"type": "discard", "card": "2H"}, instead, None) == [{"type": "draw"}]
    assert mended({"type": "play", "card": "2H"}, {"kind": "missing_cards"}, play) == []
