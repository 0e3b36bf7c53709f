"""Loading scenario files: the shape of SCENARIOS.md, and errors that name file, line and step."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import InvalidArgument
from referee.model import Move
from referee.scenario import checks
from referee.scenario.format import (
    CheckStep,
    CloseWindowStep,
    Expect,
    MoveStep,
    ScenarioError,
    load_data,
    load_file,
    load_text,
)

EXAMPLE = Path(__file__).parents[1] / "conformance/pontinho/example-layoff-on-sequence.yaml"

HEAD = """\
format: 1
scenario: t/one
game: pontinho
seats: 3
dealer: 0
"""


def scenario(steps: str, head: str = HEAD) -> str:
    return head + "steps:\n" + steps


def error_of(text: str, source: str = "cases/t.yaml") -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load_text(text, source)
    return caught.value


def test_the_example_loads_with_every_step_located() -> None:
    loaded = load_file(EXAMPLE)
    assert loaded.name == "examples/pontinho-layoff-on-sequence"
    assert loaded.setup.game == "pontinho" and loaded.setup.seats == 3
    assert loaded.setup.deal is not None and loaded.setup.deal["turned"] == "9D"
    first, fifth = loaded.steps[0], loaded.steps[4]
    assert isinstance(first, MoveStep) and first.move == Move("draw")
    assert first.expect is Expect.ACCEPT and first.where.line == 15 and first.where.step == 1
    assert isinstance(fifth, CheckStep) and fifth.checks["hand_size"] == {1: 5}
    assert not loaded.is_record


def test_a_record_has_no_expectations() -> None:
    loaded = load_text(scenario("  - {seat: 1, move: {type: draw}}\n"))
    assert loaded.is_record and loaded.name == "t/one"


def test_the_name_defaults_to_the_file_stem() -> None:
    loaded = load_text(
        scenario("  - {seat: 1, move: {type: draw}}\n").replace("scenario: t/one\n", ""),
        "cases/pn12-trio.yaml",
    )
    assert loaded.name == "pn12-trio"


@pytest.mark.parametrize(
    "head, message",
    [
        (HEAD.replace("format: 1\n", ""), "missing `format`"),
        (HEAD.replace("format: 1", "format: 2"), "unsupported format `2`"),
        (HEAD.replace("format: 1", "format: '1'"), "unsupported format `1`"),
        (HEAD.replace("game: pontinho\n", ""), "missing `game`"),
        (HEAD.replace("game: pontinho", "game:"), "missing `game`"),
        (HEAD.replace("seats: 3", "seats: three"), "`seats` must be a positive integer"),
        (HEAD.replace("dealer: 0", "dealer: 3"), "`dealer` must be a seat 0..2, got `3`"),
        (HEAD + "players: 3\n", "unknown top-level key `players`"),
        (HEAD + "options: [a]\n", "`options` must be a mapping"),
        (HEAD + "scores: {0: ten}\n", "`scores.0` must be an integer"),
        (HEAD + "scores: {5: 10}\n", "`scores key` must be a seat 0..2, got `5`"),
        (HEAD + "deal: {hands: {0: [2C]}, pile: [3C]}\n", "unknown key `deal.pile`"),
        (HEAD + "deal: {hands: [2C, 3C]}\n", "`deal.hands` must be a mapping"),
        (HEAD + "deal: {hands: {0: [2C, 7]}}\n", "`deal.hands.0[1]` must be a card code"),
        (HEAD + "deal: {turned: [9D]}\n", "`deal.turned` must be a card code"),
        (HEAD + "seed: 4\ndeal: {seed: 5}\n", "two different seeds"),
    ],
)
def test_setup_errors_name_the_file(head: str, message: str) -> None:
    error = error_of(scenario("  - {seat: 1, move: {type: draw}}\n", head))
    assert error.source == "cases/t.yaml" and message in str(error)
    assert str(error).startswith("cases/t.yaml")


@pytest.mark.parametrize(
    "step, message",
    [
        ("- check: {to_act: 1, stock: 3}", "unknown check key `stock`"),
        ("- check: {hand_size: {1: ten}}", "`check.hand_size.1` must be an integer"),
        ("- check: {melds: [4C, 5C]}", "`check.melds[0]` must be a list of card codes"),
        ("- check: {hand_over: yes please}", "`check.hand_over` must be `true` or `false`"),
        ("- check: {}", "`check` must be a mapping"),
        ("- {seat: 1, move: {type: draw}, expect: maybe}", "`expect` must be one of"),
        ("- {seat: 1, move: {type: draw}, expect: accept, rule: PN-1}", "`rule` goes with"),
        ("- {seat: 1, move: {type: draw}, expect: reject, rule: [PN-1]}", "`rule` must be one"),
        ("- {seat: 3, move: {type: draw}}", "`seat` must be a seat 0..2, got `3`"),
        ("- {move: {type: draw}}", "needs the `seat`"),
        ("- {seat: 1, move: draw}", "`move` must be a mapping"),
        ("- {seat: 1, move: {card: 2C}}", "`move` needs a `type`"),
        (
            "- {seat: 1, move: {type: discard, card: 2024-01-02}}",
            "`move.card` has a value `2024-01-02` of a type a move cannot carry (date)",
        ),
        (
            "- {seat: 1, move: {type: layoff, meld: 1, cards: [4C], 3: x}}",
            "`move` has a key `3` that is not text",
        ),
        ("- {seat: 1, move: {type: draw}, check: {to_act: 1}}", "exactly one of"),
        ("- {seat: 1, expect: accept}", "exactly one of"),
        ("- {check: {to_act: 1}, expect: accept}", "a `check` step takes no `expect`"),
        ("- {close_window: 1}", "`close_window` must be `true`"),
        ("- {seat: 1, mvoe: {type: draw}}", "unknown step key `mvoe`"),
        ("- just a string", "a step is a mapping"),
    ],
)
def test_step_errors_name_file_line_and_step(step: str, message: str) -> None:
    steps = "  - {seat: 1, move: {type: draw}}\n  " + step + "\n"
    error = error_of(scenario(steps))
    assert message in error.detail, error.detail
    assert (error.source, error.line, error.step) == ("cases/t.yaml", 8, 2)
    assert str(error).startswith("cases/t.yaml:8: step 2: ")


def test_invalid_yaml_is_located() -> None:
    error = error_of(HEAD + "steps: [\n  - {seat: 1\n")
    assert "not valid YAML" in str(error) and error.line > 0


@pytest.mark.parametrize("text", ["just text", "- a list", ""])
def test_a_document_that_is_not_a_mapping(text: str) -> None:
    assert "expected a mapping" in str(error_of(text))


def test_steps_must_be_a_list() -> None:
    assert "`steps` must be a list" in str(error_of(HEAD + "steps: {seat: 1}\n"))


def test_a_missing_file_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"nowhere\.yaml: cannot read the file"):
        load_file(tmp_path / "nowhere.yaml")


def test_scenario_errors_are_invalid_arguments() -> None:
    assert issubclass(ScenarioError, InvalidArgument)
    assert ScenarioError("x").code == "invalid_scenario"


def test_a_record_loads_from_data_with_text_seat_keys() -> None:
    record = {
        "format": 1,
        "game": "pontinho",
        "seats": 3,
        "scores": {"0": 5},
        "deal": {"hands": {"1": ["2C"]}, "seed": 9},
        "steps": [{"seat": 1, "move": {"type": "draw"}}, {"close_window": True}],
    }
    loaded = load_data(record)
    assert loaded.source == "<record>" and loaded.setup.scores == {0: 5}
    assert loaded.setup.deal == {"hands": {1: ["2C"]}} and loaded.setup.seed == 9
    assert isinstance(loaded.steps[1], CloseWindowStep) and loaded.steps[1].where.line == 0


def test_a_deal_of_only_a_seed_is_a_seeded_table() -> None:
    loaded = load_text(HEAD + "deal: {seed: 42}\nsteps: []\n")
    assert loaded.setup.deal is None and loaded.setup.seed == 42


def test_every_check_key_has_a_reader_and_a_comparer() -> None:
    assert set(checks.check_readers(4)) == set(checks.COMPARERS)
