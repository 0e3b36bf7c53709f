"""Spec errors point at the spot: file:line:col, the key path, and a caret under expressions
(STYLE.md 7). Each test breaks a copy of `specs/pontinho.yaml` in one place."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main
from referee.errors import SpecError, SpecErrors
from referee.plugins.games import load_game
from tests.support.examples import EXAMPLE_SPECS
from tests.support.spec_edits import (
    ORIGINAL,
    SPEC,
    assert_located,
    at,
    broken,
    caret_column,
    errors_of,
    only_error,
    spot,
)


def test_the_real_spec_has_no_errors() -> None:
    game = load_game(SPEC)
    assert game.name == "pontinho"


# --- one error each -----------------------------------------------------------------------


def test_unknown_section_is_reported_at_its_key(tmp_path: Path) -> None:
    path = broken(tmp_path, ("\nscoring:\n", "\nscorng:\n  rules: 1\nscoring:\n"))
    error = only_error(path)
    assert "unknown section `scorng`" in error.detail
    assert_located(error, path, spot(path, "scorng:")[0], "scorng")


def test_unknown_section_on_one_line_is_reported_at_its_line(tmp_path: Path) -> None:
    path = broken(tmp_path, ("\nscoring:\n", "\nscorng: 1\nscoring:\n"))
    error = only_error(path)
    assert "unknown section `scorng`" in error.detail
    assert_located(error, path, spot(path, "scorng:")[0], "scorng")


def test_rule_without_on_is_reported_at_the_rule(tmp_path: Path) -> None:
    path = broken(
        tmp_path, ("    on: take_discard\n    require: in_turn\n", "    require: in_turn\n")
    )
    error = only_error(path)
    assert "rule `PN-19` needs `on:`" in error.detail
    assert_located(error, path, spot(path, "- id: PN-19")[0], at("PN-19", "on"))


def test_unknown_name_suggests_the_closest_and_points_at_it(tmp_path: Path) -> None:
    path = broken(tmp_path, ("require: discarder != seat\n", "require: discarder != sat\n"))
    error = only_error(path)
    assert "unknown name `sat`" in error.detail
    assert "did you mean `seat`?" in error.detail
    line, column = spot(path, "discarder != sat")
    assert_located(error, path, line, at("PN-15", "require"), column + len("discarder != "))
    assert caret_column(error) == len("discarder != ")


def test_unknown_name_in_a_quoted_expression_points_at_it(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        (
            "'all(i in indices(cards): trio_natural_at(i))'",
            "'all(i in indices(cards): trio_natural(i))'",
        ),
    )
    error = only_error(path)
    assert "did you mean `trio_natural_at`?" in error.detail
    line, column = spot(path, "trio_natural(i)")
    assert_located(error, path, line, at("PN-8", "require"), column)


def test_unknown_name_in_a_multi_line_rule_points_at_its_line(tmp_path: Path) -> None:
    # PN-13's `require: >-` spans two lines; the typo is on the second line of the block
    path = broken(tmp_path, ("      or seq_out_of_order\n", "      or seq_out_of_ordr\n"))
    error = only_error(path)
    assert "did you mean `seq_out_of_order`?" in error.detail
    line, column = spot(path, "seq_out_of_ordr")
    assert_located(error, path, line, at("PN-13", "require"), column)


def test_unknown_name_in_a_multi_line_definition_points_at_its_line(tmp_path: Path) -> None:
    path = broken(tmp_path, ("then rank(c) == rank(turned) and", "then rank(c) == rank(turnd) and"))
    error = errors_of(path)[0]
    assert "unknown name `turnd`: did you mean `turned`?" in error.detail
    line, column = spot(path, "rank(turnd)")
    assert_located(error, path, line, "definitions[0].body", column + len("rank("))


def test_a_broken_definition_is_reported_once_without_echo_errors(tmp_path: Path) -> None:
    # `is_joker` is used at every checkpoint: one typo in it is one error, not one per rule
    path = broken(tmp_path, ("then rank(c) == rank(turned) and", "then rank(c) == rank(turnd) and"))
    errors = errors_of(path)
    assert [e.path for e in errors] == ["definitions[0].body"], "\n".join(str(e) for e in errors)


def test_type_error_names_both_types_and_points_at_the_operator(tmp_path: Path) -> None:
    path = broken(tmp_path, ("require: size(hand) != 1\n", 'require: size(hand) != "one"\n'))
    error = only_error(path)
    assert "`int`" in error.detail and "`str`" in error.detail
    line, column = spot(path, '!= "one"')
    assert_located(error, path, line, at("PN-17", "require"), column)
    assert caret_column(error) == len("size(hand) ")


def test_syntax_error_shows_the_expression_with_a_caret(tmp_path: Path) -> None:
    path = broken(tmp_path, ("require: taken in used\n", "require: taken in (used\n"))
    error = only_error(path)
    assert "expected `)`" in error.detail
    line, _ = spot(path, "taken in (used")
    assert_located(error, path, line, at("PN-18", "require"))
    text_line, caret_line = error.excerpt.splitlines()
    assert text_line.strip() == "taken in (used"
    assert caret_line.strip() == "^"
    assert caret_column(error) == len("taken in (used")  # just past the end of the expression


def test_unknown_checkpoint_is_reported_at_on(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        (
            "    on: take\n    require: taken in used\n",
            "    on: tkae\n    require: taken in used\n",
        ),
    )
    error = only_error(path)
    assert "unknown checkpoint `tkae`" in error.detail
    assert "`take`" in error.detail  # the known checkpoints are listed
    assert_located(error, path, spot(path, "on: tkae")[0], at("PN-18", "on"))


def test_bad_option_default_names_the_option_and_the_allowed_values(tmp_path: Path) -> None:
    path = broken(tmp_path, ("    default: singles\n", "    default: pairs\n"))
    error = only_error(path)
    assert "`deal_packets`" in error.detail and "`pairs`" in error.detail
    assert "`singles`, `threes`" in error.detail
    line, column = spot(path, "pairs")
    assert_located(error, path, line, "options.deal_packets.default", column)


def test_bad_bool_option_default(tmp_path: Path) -> None:
    path = broken(
        tmp_path, ("    type: bool\n    default: true\n", "    type: bool\n    default: maybe\n")
    )
    error = only_error(path)
    assert "`ace_one_at_98`" in error.detail and "`maybe`" in error.detail
    assert_located(error, path, spot(path, "maybe")[0], "options.ace_one_at_98.default")


def test_yaml_syntax_error_is_located(tmp_path: Path) -> None:
    path = broken(tmp_path, ("seats: {min: 3, max: 5}", "seats: {min: 3, max: 5"))
    with pytest.raises(SpecError) as caught:
        load_game(path)
    error = caught.value
    assert not isinstance(error, SpecErrors)
    assert "not valid YAML" in error.detail
    assert error.file == str(path)
    # the flow mapping opened on the `seats:` line is found unclosed at the start of the next
    assert error.line in (spot(path, "seats: {")[0], spot(path, "seats: {")[0] + 1)
    assert str(error).startswith(f"{path}:{error.line}:{error.column}: ")


def test_unknown_field_type_lists_the_known_ones(tmp_path: Path) -> None:
    path = broken(tmp_path, ("    fields: {card: card}\n", "    fields: {card: carte}\n"))
    error = only_error(path)
    assert "unknown field type `carte`" in error.detail
    assert "`cards`" in error.detail and "`enum`" in error.detail
    line, column = spot(path, "carte")
    assert_located(error, path, line, "moves.discard.fields.card", column)


def test_misspelt_rule_key_is_reported(tmp_path: Path) -> None:
    path = broken(tmp_path, ("require: taken in used\n", "requires: taken in used\n"))
    errors = errors_of(path)
    assert any(
        "unknown rule key `requires`" in e.detail and e.path == at("PN-18", "requires")
        for e in errors
    ), "\n".join(str(e) for e in errors)


# --- several errors in one file -----------------------------------------------------------

EXPRESSION_ERRORS = [
    ("require: discarder != seat\n", "require: discarder != sat\n"),
    ("require: size(hand) != 1\n", 'require: size(hand) != "one"\n'),
    ("require: taken in used\n", "require: taken in (used\n"),
]
SCHEMA_ERRORS = [
    ("\nscoring:\n", "\nscorng: 1\nscoring:\n"),
    ("    default: singles\n", "    default: pairs\n"),
    ("    fields: {card: card}\n", "    fields: {card: carte}\n"),
]


def test_every_expression_error_is_reported(tmp_path: Path) -> None:
    errors = errors_of(broken(tmp_path, *EXPRESSION_ERRORS))
    assert [e.path for e in errors] == [at(rule, "require") for rule in ("PN-15", "PN-17", "PN-18")]


def test_every_schema_error_is_reported(tmp_path: Path) -> None:
    errors = errors_of(broken(tmp_path, *SCHEMA_ERRORS))
    assert sorted(e.path for e in errors) == [
        "moves.discard.fields.card",
        "options.deal_packets.default",
        "scorng",
    ]


def test_schema_and_expression_errors_are_reported_together(tmp_path: Path) -> None:
    errors = errors_of(broken(tmp_path, *SCHEMA_ERRORS, *EXPRESSION_ERRORS))
    assert sorted(e.path for e in errors) == sorted(
        [
            "moves.discard.fields.card",
            "options.deal_packets.default",
            "scorng",
            at("PN-15", "require"),
            at("PN-17", "require"),
            at("PN-18", "require"),
        ]
    ), "\n".join(str(e) for e in errors)


# --- the command --------------------------------------------------------------------------


def test_check_spec_command_accepts_the_real_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-spec", str(SPEC)]) == 0
    out, err = capsys.readouterr()
    assert f"{SPEC}: ok: `pontinho`" in out
    assert err == ""


def test_check_spec_command_lists_every_error_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = broken(tmp_path, *EXPRESSION_ERRORS)
    assert main(["check-spec", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    for needle in ("discarder != sat", 'size(hand) != "one"', "taken in (used"):
        line = spot(path, needle)[0]
        assert f"{path}:{line}:" in err
    assert "did you mean `seat`?" in err
    assert "^" in err
    assert f"{path}: 3 error(s)" in err


def test_check_spec_command_reports_yaml_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = broken(tmp_path, ("seats: {min: 3, max: 5}", "seats: {min: 3, max: 5"))
    assert main(["check-spec", str(path)]) == 1
    _, err = capsys.readouterr()
    assert f"{path}:" in err and "not valid YAML" in err


def test_check_spec_command_fails_if_any_file_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = broken(tmp_path, ("    default: singles\n", "    default: pairs\n"))
    assert main(["check-spec", str(SPEC), str(path)]) == 1
    out, err = capsys.readouterr()
    assert f"{SPEC}: ok" in out
    assert f"{path}:" in err and "options.deal_packets.default" in err


def test_check_spec_command_reports_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-spec", str(tmp_path / "absent.yaml")]) == 2
    _, err = capsys.readouterr()
    assert err == f"referee check-spec: no such spec file: `{tmp_path / 'absent.yaml'}`\n"


# --- every section's errors in one run ----------------------------------------------------

# per example spec: three edits, each breaking a different section (the common schema, a rule,
# the mechanic's own section), and the key path each error is reported at
THREE_SECTIONS = {
    "whist.yaml": [
        ("default: H", "default: X", "options.trumps.default"),
        ("require: move.card in hand\n", "require: move.card in hands\n", "rules[1].require"),
        ("teams: [[0, 2], [1, 3]]", "teams: [[0, 2], [1]]", "tricks.teams"),
    ],
    "gin.yaml": [
        ("max: 4}", "max: two}", "seats.max"),
        ('require: phase == "take"', "require: phase == tak", "rules[1].require"),
        ("  hand_size: 7", "  hand_size: seven", "rummy.hand_size"),
    ],
    "twenty_one.yaml": [
        ("kind: french", "kind: frnch", "pack.kind"),
        ("    require: in_turn\n", "    require: in_tun\n", "rules[0].require"),
        ("bust: 'is_bust(cards)'", "bust: 'is_bust(card)'", "banking.bust"),
    ],
}


def _broken_example(tmp_path: Path, example: str, edits: list[tuple[str, str, str]]) -> Path:
    text = (EXAMPLE_SPECS / example).read_text(encoding="utf-8")
    for old, new, _ in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / Path(example).name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("example", sorted(THREE_SECTIONS))
def test_errors_in_three_sections_are_all_reported_in_one_run(
    example: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a rule that does not compile used to hide the errors of the mechanic's section
    edits = THREE_SECTIONS[example]
    path = _broken_example(tmp_path, example, edits)
    assert main(["check-spec", str(path)]) == 1
    _, err = capsys.readouterr()
    assert f"{path}: 3 error(s)" in err, err
    for _, new, key_path in edits:
        line = spot(path, new.strip().split("\n")[0])[0]
        assert f"{path}:{line}:" in err and f"at `{key_path}`" in err, err


def test_a_broken_definition_hides_no_section_error_and_adds_no_echo(tmp_path: Path) -> None:
    # `is_trump` does not compile: `tricks.winner` reads it, yet is not reported as unknown
    path = _broken_example(
        tmp_path,
        "whist.yaml",
        [
            ("options.trumps'", "options.trump'", ""),
            ("hand_size: 13", "hand_size: 0", ""),
        ],
    )
    errors = errors_of(path)
    assert [e.path for e in errors] == ["definitions[0].body", "tricks.hand_size"], errors


# --- a YAML file that is no spec ----------------------------------------------------------

NOT_A_SPEC = "not a game spec: a spec is a mapping that starts with `format: 1`"


@pytest.mark.parametrize("text", ["hello: world\n", "- a list\n", ""])
def test_check_spec_says_a_yaml_file_is_not_a_spec(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["check-spec", str(path)]) == 1
    _, err = capsys.readouterr()
    assert f"{path}:1:1: {NOT_A_SPEC}" in err, err


def test_a_specs_folder_holding_a_yaml_file_that_is_not_a_spec_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pontinho.yaml").write_text(ORIGINAL, encoding="utf-8")
    proofs = SPEC.with_name("pontinho.proofs.yaml")
    (tmp_path / proofs.name).write_text(proofs.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["describe", "--specs", str(tmp_path), "pontinho"]) == 0  # a proofs file is fine
    capsys.readouterr()
    (tmp_path / "notes.yaml").write_text("todo: [write the rules]\n", encoding="utf-8")
    assert main(["describe", "--specs", str(tmp_path), "pontinho"]) != 0
    _, err = capsys.readouterr()
    assert f"{tmp_path / 'notes.yaml'}:1:1: {NOT_A_SPEC}" in err, err


def test_a_play_clock_error_is_reported_with_the_schema_errors(tmp_path: Path) -> None:
    # the play clock is read once the game compiles: its errors used to wait for the others'
    edits = [
        ("\ntricks:\n", "\ntrick: 1\ntricks:\n", ""),
        ("\nrules:\n", "\nclock: 3\nrules:\n", ""),
    ]
    path = _broken_example(tmp_path, "whist.yaml", edits)
    assert sorted(e.path for e in errors_of(path)) == ["clock", "trick"]
