"""Running scenarios: every failing step is reported, and a bad setup is a scenario error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine.game import Game
from referee.errors import OptionError
from referee.model import ADJUDICATOR, JSON, Move, Outcome, Verdict, Violation
from referee.scenario.format import Setup, load_text
from referee.scenario.runner import Report, run_file, run_scenario, scenario_files
from referee.scenario.target import InProcessTarget, Unsupported

HEAD = "format: 1\ngame: pontinho\nseats: 3\nsteps:\n"
PN12 = Violation("PN-12", "a trio is cards of one rank in three different suits", ("PN-12",))


class FakeTarget:
    """Answers from a script: a verdict per move type, one fixed view."""

    def __init__(self, view: dict[str, JSON] | None = None, fail_setup: bool = False) -> None:
        self.verdicts = {
            "draw": Verdict(Outcome.ACCEPTED),
            "meld": Verdict.reject(PN12),
            "go_out": Verdict(Outcome.PENDING),
        }
        self.shown = view or {"to_act": 1, "hand_sizes": {"1": 10}}
        self.fail_setup = fail_setup
        self.proposed: list[tuple[int, Move]] = []

    def create_table(self, setup: Setup) -> Any:
        if self.fail_setup:
            raise OptionError("unknown option `speed`: this game's options are `joker_rule`")
        return "table"

    def propose(self, handle: Any, seat: int, move: Move) -> Verdict:
        self.proposed.append((seat, move))
        return self.verdicts[move.type]

    def view(self, handle: Any, seat: int) -> dict[str, JSON]:
        assert seat == ADJUDICATOR
        return self.shown

    def close_window(self, handle: Any) -> None:
        raise Unsupported("`close_window` is not supported by this game: no claim window")

    def close(self) -> None:
        return None


def run_text(steps: str, target: Any, source: str = "cases/t.yaml") -> Report:
    return run_scenario(load_text(HEAD + steps, source), target)


def messages(report: Report) -> list[str]:
    return [str(f) for f in report.failures]


def test_a_scenario_that_gets_every_answer_passes() -> None:
    target = FakeTarget()
    report = run_text(
        """\
  - {seat: 1, move: {type: draw}, expect: accept}
  - {seat: 1, move: {type: meld, cards: [3H, 3S, 3D, 3C]}, expect: reject, rule: PN-12}
  - {seat: 2, move: {type: go_out, take: discard}, expect: pending}
  - {seat: 1, move: {type: meld, cards: [3H]}}
  - check: {to_act: 1, hand_size: {1: 10}}
""",
        target,
    )
    assert report.passed and report.steps == 5
    assert target.proposed[1] == (1, Move("meld", {"cards": ["3H", "3S", "3D", "3C"]}))


def test_every_failing_step_is_reported_with_what_it_got() -> None:
    report = run_text(
        """\
  - {seat: 1, move: {type: draw}, expect: reject}
  - {seat: 1, move: {type: meld, cards: [3H]}, expect: accept}
  - {seat: 1, move: {type: meld, cards: [3H]}, expect: reject, rule: PN-13}
  - check: {to_act: 2, hand_size: {1: 9}}
  - {close_window: true}
""",
        FakeTarget(),
    )
    assert messages(report) == [
        "cases/t.yaml:5: step 1 (seat 1 `draw`): expected reject, got accepted",
        "cases/t.yaml:6: step 2 (seat 1 `meld`): expected accept, got rejected: PN-12: a trio "
        "is cards of one rank in three different suits",
        "cases/t.yaml:7: step 3 (seat 1 `meld`): expected a rejection citing `PN-13`, got "
        "rejected: PN-12: a trio is cards of one rank in three different suits",
        "cases/t.yaml:8: step 4 (check): `to_act` expected 2, got 1",
        "cases/t.yaml:8: step 4 (check): `hand_size` of seat 1: expected 9, got 10",
        "cases/t.yaml:9: step 5 (close_window): `close_window` is not supported by this game: "
        "no claim window",
    ]


def test_a_setup_the_referee_refuses_is_a_scenario_error() -> None:
    report = run_text("  - {seat: 1, move: {type: draw}}\n", FakeTarget(fail_setup=True))
    assert messages(report) == [
        "cases/t.yaml: error in the scenario: the table cannot be set "
        "up: unknown option `speed`: this game's options are `joker_rule`"
    ]


def test_a_file_that_does_not_load_is_one_failure(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD + "  - check: {stock: 3}\n")
    report = run_file(path, FakeTarget())
    [failure] = messages(report)
    assert failure.startswith(f"{path}: error in the scenario: line 5: step 1: unknown check key")


def test_folders_are_searched_for_yaml_files(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    for name in ("b/2.yaml", "a.yaml", "notes.txt"):
        (tmp_path / name).write_text("")
    found = list(scenario_files([tmp_path, tmp_path / "notes.txt"]))
    assert found == [tmp_path / "a.yaml", tmp_path / "b/2.yaml", tmp_path / "notes.txt"]


# --- with the engine: PN-1 and deals that do not fit the pack --------------------------------


@pytest.fixture(scope="module")
def engine(games: dict[str, Game]) -> InProcessTarget:
    return InProcessTarget(games)


HANDS = {
    0: "[2S, 3S, 5H, 6H, JD, JS, KC, AD, 7S]",
    1: "[5C, 6C, 7C, 8C, KH, KS, 2D, 3D, JH]",
    2: "[4S, 4H, 6D, TS, TC, QD, QC, AH, 8H]",
}


def deal_file(tmp_path: Path, hands: dict[int, str], seats: int = 3, extra: str = "") -> Path:
    listed = "\n".join(f"    {seat}: {cards}" for seat, cards in hands.items())
    path = tmp_path / "deal.yaml"
    path.write_text(
        f"format: 1\ngame: pontinho\nseats: {seats}\n{extra}deal:\n  hands:\n"
        f"{listed}\n  turned: 9D\nsteps:\n  - {{seat: 1, move: {{type: draw}}}}\n"
    )
    return path


def setup_error(report: Report, path: Path) -> str:
    [failure] = messages(report)
    assert failure.startswith(f"{path}: error in the scenario: the table cannot be set up: ")
    return failure


def test_a_good_deal_runs(tmp_path: Path, engine: InProcessTarget) -> None:
    assert run_file(deal_file(tmp_path, HANDS), engine).passed


def test_a_card_dealt_more_often_than_the_pack_holds(
    tmp_path: Path, engine: InProcessTarget
) -> None:
    hands = {**HANDS, 0: "[2S, 3S, 5H, 6H, JD, JS, KC, 7C, 7C]"}
    path = deal_file(tmp_path, hands)
    assert "7C" in setup_error(run_file(path, engine), path)


def test_a_hand_of_the_wrong_size(tmp_path: Path, engine: InProcessTarget) -> None:
    path = deal_file(tmp_path, {**HANDS, 2: "[4S, 4H, 6D]"})
    assert setup_error(run_file(path, engine), path).endswith(
        "stacked deal: seat 2 gets 3 cards, not 9"
    )


def test_a_malformed_card_in_the_deal(tmp_path: Path, engine: InProcessTarget) -> None:
    path = deal_file(tmp_path, {**HANDS, 2: "[4S, 4H, 6D, TS, TC, QD, QC, AH, ZZ]"})
    assert "ZZ" in setup_error(run_file(path, engine), path)


@pytest.mark.parametrize("seats", [2, 6])
def test_pn1_three_to_five_seats(tmp_path: Path, engine: InProcessTarget, seats: int) -> None:
    path = tmp_path / "seats.yaml"
    path.write_text(f"format: 1\ngame: pontinho\nseats: {seats}\nseed: 1\nsteps: []\n")
    assert "3 to 5" in setup_error(run_file(path, engine), path)


@pytest.mark.parametrize(
    "options, name",
    [
        ("{speed: fast}", "speed"),
        ("{joker_rule: any_card}", "joker_rule"),
        ("{ace_one_at_98: 1}", "ace_one_at_98"),
    ],
)
def test_bad_options(tmp_path: Path, engine: InProcessTarget, options: str, name: str) -> None:
    path = deal_file(tmp_path, HANDS, extra=f"options: {options}\n")
    assert f"`{name}`" in setup_error(run_file(path, engine), path)


def test_an_unknown_game(tmp_path: Path, engine: InProcessTarget) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("format: 1\ngame: canasta\nseats: 4\nseed: 1\nsteps: []\n")
    assert "unknown game `canasta`" in setup_error(run_file(path, engine), path)


def test_close_window_when_none_is_open(tmp_path: Path, engine: InProcessTarget) -> None:
    path = tmp_path / "window.yaml"
    path.write_text(
        "format: 1\ngame: pontinho\nseats: 3\nseed: 1\nsteps:\n  - {close_window: true}\n"
    )
    [failure] = messages(run_file(path, engine))
    assert failure.endswith(
        "step 1 (close_window): `deadline`: the table has no deadline now (no claim window, no clock)"
    )
