"""A game is its spec: no rule of a shipped game is cited anywhere in the referee's Python, code,
comment or docstring, so none of its procedure can hide there. A mechanic's own verdicts take
their ids from the spec (`rummy.violations`, `banking.violations`).

The tools that speak of the shipped games to their users are the exception, each for its reason
below; none of them judges a move."""

from __future__ import annotations

import re
from pathlib import Path

from referee.engine.game import Game

ROOT = Path(__file__).resolve().parents[1] / "referee"
TOOLS = {
    "bench.py": "its workloads are the shipped games, played by name",
    "rulebook.py": "the rulebook's reading notes give rule ids as examples",
    "commands/play.py": "its help tells what `referee play` does with each shipped game",
    "scenario/format.py": "an error message shows what a rule id looks like",
    "scenario/runner.py": "docstrings show a verdict as the runner prints it",
}


def game_rule_prefixes(games: dict[str, Game]) -> set[str]:
    """`PN`, `TD`, `PO`, ...: the prefixes of the shipped games' rule ids (GEN is the engine's)."""
    ids = {rule.id for game in games.values() for rule in game.spec.rules}
    return {rule_id.split("-")[0] for rule_id in ids} - {"GEN"}


def citing(prefixes: set[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted(prefixes))
    return re.compile(rf"\b(?:{alternatives})-\d+")


def test_the_search_would_find_a_rule_of_a_game(games: dict[str, Game]) -> None:
    prefixes = game_rule_prefixes(games)
    assert {"PN", "TD", "PO", "SH"} <= prefixes
    cited = citing(prefixes)
    assert cited.search("# PN-26: blown at 100") and cited.search('Violation("PO-1", ...)')
    assert not cited.search("GEN-8: the engine's own") and not cited.search("SPN-12")


def test_no_rule_of_a_game_in_the_referee_python(games: dict[str, Game]) -> None:
    cited = citing(game_rule_prefixes(games))
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith("api/") or name in TOOLS:
            continue
        text = path.read_text(encoding="utf-8")
        found += [
            f"referee/{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
            for m in cited.finditer(text)
        ]
    assert not found, "rule ids of a game in the referee's Python:\n" + "\n".join(found)
