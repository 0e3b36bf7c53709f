"""A game's properties live in `specs/GAME.proofs.yaml`, beside its rules: found by every loader
(`load_game`, `load_games`, `referee check-spec` and `prove`), located in that file when wrong,
inherited by a variant and merged with its own by `id`; `properties:` in a rules file is refused,
pointing at the proofs file beside it (whether or not there is one yet)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.commands.serve import load_served_games
from referee.errors import SpecError, SpecErrors
from referee.plugins.games import DEFAULT_SPECS, load_game, load_games
from referee.proofs.properties import read_properties
from referee.spec.proofs_file import proofs_path, spec_files

POINTS = [
    "rank-total-preorder",
    "banker-wins-ties",
    "pontoon-beats-every-hand",
    "best-total-largest-not-over-21",
    "settle-moves-the-whole-stake",
    "buy-within-PO-5",
    "forfeit-before-bet-costs-a-bet",
    "smallest-bet-accepted",
]


def pontoon_copy(tmp_path: Path, proofs: str | None = None) -> Path:
    """Pontoon's rules in `tmp_path`, with its proofs file, or with `proofs` as that file."""
    path = tmp_path / "pontoon.yaml"
    shutil.copy(DEFAULT_SPECS / "pontoon.yaml", path)
    if proofs is None:
        shutil.copy(DEFAULT_SPECS / "pontoon.proofs.yaml", proofs_path(path))
    else:
        proofs_path(path).write_text(proofs, encoding="utf-8")
    return path


def errors_of(path: Path) -> list[SpecError]:
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    return caught.value.errors


def test_the_shipped_games_read_their_properties_from_their_proofs_files() -> None:
    games = load_games()
    assert "pontoon.proofs" not in " ".join(games)  # a proofs file is no game
    assert [p.id for p in read_properties(games["pontoon"])] == POINTS
    assert {p.origin.file for p in read_properties(games["pontoon"])} == {
        str(DEFAULT_SPECS / "pontoon.proofs.yaml")
    }
    assert len(read_properties(games["tarocchi_piedicavallo"])) == 5
    assert "properties" not in games["pontoon"].spec.located.data


def test_spec_files_leave_the_proofs_files_out() -> None:
    names = [p.name for p in spec_files(DEFAULT_SPECS)]
    assert "pontoon.yaml" in names and not any(n.endswith(".proofs.yaml") for n in names)


def test_a_variant_inherits_its_bases_properties() -> None:
    assert [p.id for p in read_properties(load_games()["shoot_pontoon"])] == POINTS


def test_a_variants_proofs_file_replaces_removes_and_adds_by_id(tmp_path: Path) -> None:
    pontoon_copy(tmp_path)
    shutil.copy(DEFAULT_SPECS / "shoot_pontoon.yaml", tmp_path / "shoot_pontoon.yaml")
    (tmp_path / "shoot_pontoon.proofs.yaml").write_text(
        "properties:\n"
        "  - {id: banker-wins-ties, remove: true}\n"
        "  - {id: rank-total-preorder, on: hand, premise: none, over: {}, claim: 'true'}\n"
        "  - {id: own, on: hand, premise: none, over: {}, claim: 'true'}\n",
        encoding="utf-8",
    )
    game = load_game(tmp_path / "shoot_pontoon.yaml")
    props = read_properties(game)
    assert [p.id for p in props] == [POINTS[0], *POINTS[2:], "own"]
    assert props[0].origin.file == str(tmp_path / "shoot_pontoon.proofs.yaml")
    assert props[1].origin.file == str(tmp_path / "pontoon.proofs.yaml")


def test_properties_in_the_rules_beside_a_proofs_file_are_refused(tmp_path: Path) -> None:
    path = pontoon_copy(tmp_path)
    with path.open("a", encoding="utf-8") as spec:
        spec.write("properties: []\n")
    (error,) = errors_of(path)
    assert error.file == str(path) and error.path == "properties"
    assert "move them there" in error.message and "`pontoon.proofs.yaml`" in error.message


def test_properties_in_the_rules_are_refused_where_no_proofs_file_is_either(tmp_path: Path) -> None:
    # pontinho's properties written back into its rules, as they were before they moved
    rules = (DEFAULT_SPECS / "pontinho.yaml").read_text(encoding="utf-8")
    proofs = (DEFAULT_SPECS / "pontinho.proofs.yaml").read_text(encoding="utf-8")
    path = tmp_path / "pontinho.yaml"
    path.write_text(rules + proofs, encoding="utf-8")
    (error,) = errors_of(path)
    key_line = (rules + proofs).splitlines().index("properties:") + 1
    assert (error.file, error.line, error.column) == (str(path), key_line, 1)
    assert "move them there" in error.message and "`pontinho.proofs.yaml`" in error.message


def test_an_unknown_key_of_a_proofs_file_is_located_there(tmp_path: Path) -> None:
    path = pontoon_copy(tmp_path, "properties: []\nproprties: []\n")
    (error,) = errors_of(path)
    assert (error.file, error.line, error.column) == (str(proofs_path(path)), 2, 1)
    assert "unknown key `proprties`" in error.message


def test_a_wrong_property_is_located_in_the_proofs_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = pontoon_copy(
        tmp_path, "properties:\n  - {id: x, on: hand, claim: 'true', colour: red}\n"
    )
    assert main(["check-spec", str(path)]) == 1
    assert capsys.readouterr().err.startswith(
        f"{proofs_path(path)}:2:38: at `properties[0].colour`: unknown property key `colour`"
    )


def test_check_spec_and_prove_take_a_proofs_file_for_its_spec(
    capsys: pytest.CaptureFixture[str],
) -> None:
    proofs = DEFAULT_SPECS / "pontoon.proofs.yaml"
    assert main(["check-spec", str(proofs)]) == 0
    assert capsys.readouterr().out.endswith(
        "ok: `pontoon`, 18 rules, 9 moves, 10 options, 8 properties\n"
    )
    assert main(["prove", str(proofs), "--only", "buy-within-PO-5"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 properties, 0 not proved"


# a property that reads as YAML but does not type: refused by `serve` and `check-spec`, unproved
WRONG_CLAIMS = {  # a claim, and what the error says of it
    "unknown name": ("nosuchname", "unknown name `nosuchname`"),
    "type error": ("size(cards) + 1", "the expression must be `bool`, found `int`"),
}


def wrong_claim(tmp_path: Path, name: str) -> Path:
    """Pontoon with a seventh property, whose claim is `WRONG_CLAIMS[name]`."""
    path = pontoon_copy(tmp_path)
    with proofs_path(path).open("a", encoding="utf-8") as proofs:
        proofs.write(
            f"  - {{id: x, on: hand, premise: none, over: {{}}, "
            f"claim: '{WRONG_CLAIMS[name][0]}'}}\n"
        )
    return path


@pytest.mark.parametrize("name", list(WRONG_CLAIMS))
def test_serve_refuses_a_property_that_does_not_type(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = wrong_claim(tmp_path, name)
    with pytest.raises(SpecErrors) as caught:
        load_served_games(str(tmp_path))
    (error,) = caught.value.errors
    assert error.file == str(proofs_path(path)) and error.path == f"properties[{len(POINTS)}].claim"
    assert WRONG_CLAIMS[name][1] in error.message
    assert main(["serve", "--specs", str(tmp_path), "--port", "0"]) == 2
    assert capsys.readouterr().err.startswith(f"referee serve: {proofs_path(path)}:")


@pytest.mark.parametrize("name", list(WRONG_CLAIMS))
def test_check_spec_refuses_a_property_that_does_not_type(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = wrong_claim(tmp_path, name)
    assert main(["check-spec", str(path)]) == 1
    assert WRONG_CLAIMS[name][1] in capsys.readouterr().err


def test_serve_loads_the_shipped_games_with_their_properties_checked() -> None:
    assert set(load_served_games(str(DEFAULT_SPECS))) == set(load_games())
