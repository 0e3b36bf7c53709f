"""Committed files a command makes (the rulebook, the schemas): the same as it makes them now."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from referee.cli import main

MAX_DIFF_LINES = 60


def assert_fresh(command: str, committed_folder: Path, pattern: str, tmp_path: Path) -> None:
    """`referee COMMAND --out DIR` makes exactly the committed `pattern` files of the folder."""
    assert main([command, "--out", str(tmp_path)]) == 0
    folder = f"{committed_folder.parent.name}/{committed_folder.name}"
    made = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob(pattern)}
    committed = {p.name: p.read_text(encoding="utf-8") for p in committed_folder.glob(pattern)}
    assert sorted(committed) == sorted(made), f"run `referee {command}` and commit {folder}/"
    for name, text in made.items():
        if committed[name] != text:
            diff = difflib.unified_diff(
                committed[name].splitlines(),
                text.splitlines(),
                f"{folder}/{name}",
                f"referee {command}",
                lineterm="",
            )
            shown = "\n".join(list(diff)[:MAX_DIFF_LINES])
            pytest.fail(f"{folder}/{name} is stale: run `referee {command}` and commit it\n{shown}")
