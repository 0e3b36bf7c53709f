"""Broken copies of the shipped specs, and where their errors point: the helpers of the spec
error tests (tests/spec)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from referee.errors import SpecError, SpecErrors
from referee.plugins.games import DEFAULT_SPECS, load_game

SPEC = DEFAULT_SPECS / "pontinho.yaml"
ORIGINAL = SPEC.read_text(encoding="utf-8")
RULE_IDS = [rule["id"] for rule in yaml.safe_load(ORIGINAL)["rules"]]


def at(rule_id: str, key: str) -> str:
    """The key path of a rule's key, e.g. `rules[9].require`."""
    return f"rules[{RULE_IDS.index(rule_id)}].{key}"


def broken(tmp_path: Path, *edits: tuple[str, str], name: str = "broken.yaml") -> Path:
    """A copy of the Pontinho spec with each `old` text replaced (once) by `new`."""
    text = ORIGINAL
    for old, new in edits:
        assert text.count(old) == 1, f"the edit target `{old}` is not unique in the spec"
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path) -> list[SpecError]:
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    return caught.value.errors


def only_error(path: Path) -> SpecError:
    errors = errors_of(path)
    assert len(errors) == 1, "\n".join(str(e) for e in errors)
    return errors[0]


def spot(path: Path, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """The 1-based line and column of the `occurrence`-th `needle` in the file."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        start = line.find(needle)
        while start >= 0:
            found.append((number, start + 1))
            start = line.find(needle, start + 1)
    return found[occurrence]


def assert_located(
    error: SpecError, path: Path, line: int, key_path: str, column: int | None = None
) -> None:
    assert error.file == str(path)
    assert (error.line, error.path) == (line, key_path), str(error)
    if column is not None:
        assert error.column == column, str(error)
    assert str(error).startswith(f"{path}:{error.line}:{error.column}: at `{key_path}`: ")


def caret_column(error: SpecError) -> int:
    """The column of the caret in the error's excerpt, within the excerpt's expression line."""
    text_line, caret_line = error.excerpt.splitlines()[-2:]
    assert caret_line.strip() == "^", error.excerpt
    return caret_line.index("^") - (len(text_line) - len(text_line.lstrip()))


def edited(tmp_path: Path, name: str, old: str, new: str) -> Path:
    for spec in DEFAULT_SPECS.glob("*.yaml"):  # a spec may extend another
        (tmp_path / spec.name).write_text(spec.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def refusal(path: Path) -> tuple[int, str]:
    """The first error (a typo may also leave a needed key missing: that error comes after)."""
    with pytest.raises(SpecErrors) as caught:
        load_game(path)
    error = caught.value.errors[0]
    return error.line, f"{error.path}: {error.detail}"
