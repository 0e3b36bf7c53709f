"""The `banking` section's own errors point at the spot, like every spec error (STYLE.md 7):
the mechanic's verdicts (`banking.violations`) and the expressions it computes with
(`banking.reshuffle`, ...) are the spec's, and a spec without them is refused where it says so.
Each test breaks a copy of `specs/pontoon.yaml` in one place."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import SpecError, SpecErrors
from referee.mechanics.banking.mechanic import BankingMechanic
from referee.plugins.games import DEFAULT_SPECS, load_game
from tests.support.mechanic_of import mechanic_of

ORIGINAL = (DEFAULT_SPECS / "pontoon.yaml").read_text(encoding="utf-8")
VERDICT = """    split_pack_short:
      id: PO-5-split-pack
      source: [PO-5]
      text:
        en: "the pack holds fewer than two cards: a split needs one for each of its hands"
"""


def broken(tmp_path: Path, old: str, new: str) -> Path:
    assert ORIGINAL.count(old) == 1, old
    path = tmp_path / "broken.yaml"
    path.write_text(ORIGINAL.replace(old, new), encoding="utf-8")
    return path


def only_error(path: Path) -> SpecError:
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    assert len(caught.value.errors) == 1, caught.value.errors
    return caught.value.errors[0]


def line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if needle in line)


def test_the_mechanics_verdicts_are_the_specs() -> None:
    game = load_game(DEFAULT_SPECS / "pontoon.yaml")
    verdict = mechanic_of(game, BankingMechanic).config.split_pack_short
    assert (verdict.rule, verdict.cites, verdict.code) == (
        "PO-5-split-pack",
        ("PO-5",),
        "split_pack_short",
    )
    assert verdict.message.startswith("the pack holds fewer than two cards")


def test_a_missing_violations_section_is_refused_at_banking(tmp_path: Path) -> None:
    path = broken(tmp_path, "  violations:  ", "  unused:  ")
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    unknown, missing = caught.value.errors  # the renamed key is unknown, and the verdicts missing
    assert (
        unknown.path == "banking.unused" and "unknown key `unused` in `banking`" in unknown.message
    )
    assert (
        "`banking.violations` gives an id, sources and a text for: `split_pack_short`"
        in missing.message
    )
    assert (missing.file, missing.path) == (str(path), "banking")


def test_a_missing_verdict_is_named_at_the_violations_section(tmp_path: Path) -> None:
    path = broken(tmp_path, VERDICT, VERDICT.replace("split_pack_short", "other_verdict"))
    error = only_error(path)
    assert error.message.endswith(": `banking.violations` is missing `split_pack_short`")
    # (a mapping is located where its first entry begins)
    assert (error.path, error.line) == ("banking.violations", line_of(path, "other_verdict:"))


def test_a_verdict_without_an_id_is_refused_at_the_verdict(tmp_path: Path) -> None:
    path = broken(tmp_path, "      id: PO-5-split-pack\n", "")
    error = only_error(path)
    assert "expected `{id: ..., source: [...], text: ...}`" in error.message
    assert error.path == "banking.violations.split_pack_short"


def test_a_misspelt_verdict_key_is_refused_at_the_key(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        '      source: [PO-5]\n      text:\n        en: "the pack',
        '      sources: [PO-5]\n      text:\n        en: "the pack',
    )
    error = only_error(path)
    assert error.message.endswith(
        "at `banking.violations.split_pack_short.sources`: unknown key `sources` in "
        "`banking.violations.split_pack_short`: did you mean `source`?"
    )
    assert error.line == line_of(path, "sources:")


def test_a_missing_reshuffle_expression_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "  reshuffle: is_pontoon(cards)\n", "")
    error = only_error(path)
    assert error.message.endswith("at `banking`: `banking.reshuffle` is missing")
