"""The README is a front door: short, the two commands first, a tour that runs on any port, and
its offline commands ones the referee takes; the rest of what it once said is in docs/."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.app import create_server
from referee.cli import build_parser
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAX_LINES = 250
FENCE = re.compile(r"```sh\n(.*?)```", re.DOTALL)
PYTHON_TOUR = re.compile(r"^\.venv/bin/python - <<'EOF'\n(.*?)^EOF$", re.DOTALL | re.MULTILINE)


def section(title: str) -> str:
    """The README's text under `## TITLE`, up to the next heading of that level."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else len(README)]


def test_the_readme_is_at_most_250_lines() -> None:
    assert len(README.splitlines()) <= MAX_LINES


def test_the_readme_starts_with_the_two_commands() -> None:
    before_any_section = README.split("\n## ", 1)[0]
    first_block = FENCE.search(before_any_section)
    assert first_block is not None, "no ```sh block before the README's first section"
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines()]
    assert [c for c in commands if c] == ["make run", "make test"]


def test_the_tour_names_no_port_but_its_default() -> None:
    tour = section("A quick tour")
    assert "export PORT=${PORT:-50051}" in tour
    assert tour.count("50051") == 2, "a port written out in the tour: read $PORT instead"


@pytest.fixture(scope="module")
def served_port(games: dict[str, Game]) -> Iterator[int]:
    """A referee on a free port (not 50051), stacked decks allowed as `make run` allows them."""
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    server, port = create_server(service, "127.0.0.1", 0)
    server.start()
    yield port
    service.close()
    server.stop(None).wait()


def test_the_python_tour_runs_on_any_port(served_port: int) -> None:
    found = PYTHON_TOUR.search(section("A quick tour"))
    assert found is not None, "the tour has no `.venv/bin/python - <<'EOF'` block"
    ran = subprocess.run(
        [sys.executable, "-"],
        input=found.group(1),
        capture_output=True,
        text=True,
        env={**os.environ, "PORT": str(served_port)},
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    said = ran.stdout.splitlines()
    assert len(said) == 7, ran.stdout
    assert "pontinho" in said[0]
    draw, bad_meld, meld = said[1:4]
    assert ["'accepted': True" in line for line in (draw, bad_meld, meld)] == [True, False, True]
    assert "PN-13-size" in bad_meld and "4C" in draw
    # the same violations told in Portuguese: in English they would be a part of `bad_meld`
    assert "PN-13-size" in said[6] and said[6] not in bad_meld


def offline_commands() -> list[list[str]]:
    """The arguments of each `.venv/bin/referee ...` line the README shows."""
    return [
        shlex.split(line.split("  #")[0].split(" > ")[0])[1:]  # the shell's redirection left out
        for block in FENCE.findall(README)
        for line in block.splitlines()
        if line.startswith(".venv/bin/referee ")
    ]


def test_the_readme_shows_the_offline_commands() -> None:
    assert len(offline_commands()) >= 20


@pytest.mark.parametrize("arguments", offline_commands(), ids=" ".join)
def test_each_command_the_readme_shows_is_one_the_referee_takes(arguments: list[str]) -> None:
    build_parser().parse_args(arguments)  # a wrong command or flag exits with status 2
