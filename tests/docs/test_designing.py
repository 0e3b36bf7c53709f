"""The tutorial of docs/designing.md is what the referee does: its files are written block by
block (`<!-- file: NAME -->` before a block: added to the end of NAME) and each command shown
(`<!-- run -->` before a block starting `$ referee ...`) prints the lines the page shows, in
order (`...` stands for any lines; a line ending `…` for any line it starts). A block quoted from
a shipped file (`<!-- file: NAME from: PATH -->`) is that file's lines, in its order."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "designing.md"
BLOCK = re.compile(
    r"<!-- (file: (?P<file>\S+)( from: (?P<source>\S+))?|run) -->\n```\w*\n(?P<body>.*?)```",
    re.DOTALL,
)


def steps() -> list[tuple[str | None, str]]:
    """(the file a block is added to, or None for a command; the block)."""
    text = PAGE.read_text(encoding="utf-8")
    return [(m.group("file"), m.group("body")) for m in BLOCK.finditer(text)]


def quotes() -> list[tuple[str, str]]:
    """(the shipped file a block is quoted from, the block)."""
    text = PAGE.read_text(encoding="utf-8")
    return [(m.group("source"), m.group("body")) for m in BLOCK.finditer(text) if m.group("source")]


def quoted_from(body: str, source: list[str]) -> bool:
    """Each non-blank line of `body` is a line of `source`, in order (lines between left out)."""
    lines = iter(line.rstrip() for line in source)
    return all(line in lines for line in body.splitlines() if line.strip())


def add(file: Path, body: str) -> None:
    """A block added to the end of its file, as the page says."""
    file.parent.mkdir(parents=True, exist_ok=True)
    with file.open("a", encoding="utf-8") as written:
        written.write(body)


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


def test_the_quoted_blocks_are_the_shipped_files() -> None:
    # the Sueca part quotes specs/sueca.yaml, its proofs and a scenario: a change there shows here
    assert len(quotes()) >= 5
    for source, body in quotes():
        shipped = (ROOT / source).read_text(encoding="utf-8").splitlines()
        assert quoted_from(body, shipped), f"not in {source}:\n{body}"


def test_the_tutorial_runs_as_the_page_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for file, body in steps():
        if file is not None:
            add(tmp_path / file, body)
            continue
        command, *expected = body.splitlines()
        assert command.startswith("$ referee "), command
        main(shlex.split(command)[2:])
        out, err = capsys.readouterr()
        printed = (out + err).splitlines()
        assert shows(expected, printed), f"{command}\n--- printed:\n" + "\n".join(printed)


def test_a_definition_reading_turned_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # what the page says of `on:`: without it, `is_trump` is checked where no card is turned
    for file, body in steps():
        if file is not None:
            add(tmp_path / file, body)
    spec = tmp_path / "sueca.yaml"
    where = "    on: [play, trick_end]\n"
    assert where in spec.read_text(encoding="utf-8")
    main(["check-spec", str(spec)])
    assert "sueca.yaml: ok" in "".join(capsys.readouterr())
    spec.write_text(spec.read_text(encoding="utf-8").replace(where, ""), encoding="utf-8")
    main(["check-spec", str(spec)])
    assert "unknown name `turned`" in "".join(capsys.readouterr())


def test_a_line_the_page_shows_must_be_printed() -> None:
    # the control of the matcher: a line not printed, or printed out of order, fails
    assert shows(["a", "...", "c"], ["a", "b", "c"])
    assert not shows(["a", "c"], ["a", "b", "c"])
    assert not shows(["c", "a"], ["a", "b", "c"])
    assert not shows(["a", "d"], ["a", "b", "c"])
    assert shows(["ab…"], ["abc"])


def test_a_quote_must_be_the_files_lines_in_order() -> None:
    # the control of the quote check: a line changed, or moved, is no quote
    source = ["a: 1", "b:", "  c: 2", "d: 3"]
    assert quoted_from("a: 1\n\n  c: 2\n", source)
    assert not quoted_from("a: 1\n  c: 3\n", source)
    assert not quoted_from("d: 3\na: 1\n", source)
