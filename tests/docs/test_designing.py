"""The tutorial of docs/designing.md is what the referee does: its files are written block by
block (`<!-- file: NAME -->` before a block: added to the end of NAME) and each command shown
(`<!-- run -->` before a block starting `$ referee ...`) prints the lines the page shows, in
order (`...` stands for any lines; a line ending `…` for any line it starts)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from referee.cli import main

PAGE = Path(__file__).resolve().parents[2] / "docs" / "designing.md"
BLOCK = re.compile(r"<!-- (file: (?P<file>\S+)|run) -->\n```\w*\n(?P<body>.*?)```", re.DOTALL)


def steps() -> list[tuple[str | None, str]]:
    """(the file a block is added to, or None for a command; the block)."""
    text = PAGE.read_text(encoding="utf-8")
    return [(m.group("file"), m.group("body")) for m in BLOCK.finditer(text)]


def shows(expected: list[str], printed: list[str]) -> bool:
    """Each expected line printed, in order; `...` any lines between."""
    at, skipping = 0, False
    for line in expected:
        if line == "...":
            skipping = True
            continue
        while at < len(printed) and not _same(line, printed[at]):
            if not skipping:
                return False
            at += 1
        if at == len(printed):
            return False
        at, skipping = at + 1, False
    return True


def _same(expected: str, printed: str) -> bool:
    if expected.endswith("…"):
        return printed.startswith(expected[:-1])
    return printed.rstrip() == expected.rstrip()


def test_the_page_has_a_tutorial_to_run() -> None:
    kinds = [file is None for file, _ in steps()]
    assert kinds.count(False) >= 5 and kinds.count(True) >= 8


def test_the_tutorial_runs_as_the_page_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for file, body in steps():
        if file is not None:
            (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
            with (tmp_path / file).open("a", encoding="utf-8") as written:
                written.write(body)
            continue
        command, *expected = body.splitlines()
        assert command.startswith("$ referee "), command
        main(shlex.split(command)[2:])
        out, err = capsys.readouterr()
        printed = (out + err).splitlines()
        assert shows(expected, printed), f"{command}\n--- printed:\n" + "\n".join(printed)


def test_a_line_the_page_shows_must_be_printed() -> None:
    # the control of the matcher: a line not printed, or printed out of order, fails
    assert shows(["a", "...", "c"], ["a", "b", "c"])
    assert not shows(["a", "c"], ["a", "b", "c"])
    assert not shows(["c", "a"], ["a", "b", "c"])
    assert not shows(["a", "d"], ["a", "b", "c"])
    assert shows(["ab…"], ["abc"])
