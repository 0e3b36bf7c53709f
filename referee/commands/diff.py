"""Compare two rule sets with z3: where one accepts a move the other rejects, as a runnable scenario.

`referee diff pontinho pontinho:joker_rule=next_rank_same_suit` (a side is a game, with options
after a colon). Exit status: 0 when the rules of every checkpoint are proved equivalent within the
bound, 1 when a difference was found, 2 when the solver gave up somewhere (or the sides cannot be
read). What the rules do not read (an option only the mechanic uses, such as `claims`) is listed
as not compared: it does not change the exit status.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from referee.commands.arguments import positive
from referee.errors import RefereeError
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.proofs import rummy_context
from referee.proofs.diff import (
    DEFAULT_MAX_CARDS,
    DEFAULT_RLIMIT,
    Comparison,
    Finding,
    Pair,
    compare,
    parse_side,
    unexamined,
)

NAMES = ("A", "B")
NOT_COMPARED = (
    "not compared: what a hand left scores (`scoring`), the `rummy` parameters (hand "
    "size, packets, steal bonus), and which cards are jokers (`card`) beyond what the "
    "meld rules show"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "a", metavar="A", help="a game, with options: `pontinho:joker_rule=next_rank_same_suit`"
    )
    parser.add_argument("b", metavar="B", help="the other game, with options")
    parser.add_argument(
        "--max-cards",
        type=int,
        default=DEFAULT_MAX_CARDS,
        help="the bound: most cards in any card list of a situation",
    )
    parser.add_argument(
        "--rlimit",
        type=positive,
        default=DEFAULT_RLIMIT,
        help="z3's deterministic resource budget per query",
    )
    parser.add_argument("--only", metavar="CHECKPOINT", help="compare only this checkpoint")
    parser.add_argument("--out", metavar="DIR", help="write each confirmed scenario into DIR")
    parser.add_argument(
        "--facts", action="store_true", help="list the rummy context facts every situation respects"
    )
    parser.add_argument("--specs", default=str(DEFAULT_SPECS), help="the specs folder")


def run(args: argparse.Namespace) -> int:
    try:
        games = load_games(args.specs)
        pair = Pair(
            (parse_side(args.a, games), parse_side(args.b, games)), args.max_cards, args.rlimit
        )
    except RefereeError as exc:
        print(f"referee diff: {exc.message}", file=sys.stderr)
        return 2
    problem = _check_arguments(args, pair)
    if problem:
        print(f"referee diff: {problem}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    print(
        f"A = {pair.sides[0].text}, B = {pair.sides[1].text}: card lists of up to "
        f"{pair.max_cards} cards"
    )
    if args.facts:
        print("every situation respects these facts of rummy contexts:")
        print("\n".join(f"  - {fact}" for fact in rummy_context.describe()))
    results = []
    for comparison in compare(pair, args.only):
        results.append(comparison)
        print("\n".join(report(comparison, pair, args.out)))
    print(summary(results, time.perf_counter() - started))
    outside = unexamined(pair, results)
    if outside:
        print(
            "the sides also differ where no compared rule looks (the mechanic or the scoring "
            "reads these; not compared): " + ", ".join(outside)
        )
    print(NOT_COMPARED)
    return exit_code(results)


def _check_arguments(args: argparse.Namespace, pair: Pair) -> str:
    if args.max_cards < 0:
        return f"`--max-cards` is a number of cards, got `{args.max_cards}`"
    known = list(
        dict.fromkeys(c[0] if isinstance(c, tuple) else c.checkpoint for c in pair.checks())
    )
    if args.only and args.only not in known:
        return f"unknown checkpoint `{args.only}`: the sides judge " + ", ".join(
            f"`{k}`" for k in known
        )
    return ""


def exit_code(results: list[Comparison]) -> int:
    statuses = {c.status for c in results}
    return 1 if "differs" in statuses else 2 if "unknown" in statuses else 0


def summary(results: list[Comparison], seconds: float) -> str:
    counts = {s: sum(c.status == s for c in results) for s in ("equivalent", "differs", "unknown")}
    return (
        f"{len(results)} checkpoints: {counts['equivalent']} equivalent, {counts['differs']} "
        f"differ, {counts['unknown']} unknown ({seconds:.1f} s)"
    )


def report(c: Comparison, pair: Pair, out: str | None) -> list[str]:
    head = f"{c.status:>11}  {c.label}"
    if c.only is not None:
        return [f"{head}: only {NAMES[c.only]} has this checkpoint (not compared)"]
    if c.problem:
        return [f"{head}: {c.problem} (not proved equivalent)"]
    if c.status == "equivalent":
        return [f"{head}: proved equivalent {_bound(c, pair)} ({c.seconds:.1f} s)"]
    lines = [head + ":"]
    for finding in c.findings:
        lines += _finding(finding, c, pair, out)
    return lines


def _bound(c: Comparison, pair: Pair) -> str:
    if not c.listed:
        return f"in every situation with card lists of up to {pair.max_cards} cards"
    return (
        f"for every `{c.listed}` of 0..{pair.max_cards} cards "
        f"(other card lists: up to {pair.max_cards})"
    )


def _finding(f: Finding, c: Comparison, pair: Pair, out: str | None) -> list[str]:
    yes, no = NAMES[f.accepts], NAMES[1 - f.accepts]
    if f.status == "agree":
        return [f"             {yes} accepts nothing {no} rejects, {_bound(c, pair)}"]
    if f.status == "unknown":
        return [
            (
                f"             does {yes} accept what {no} rejects? unknown: {f.reason} "
                "(not proved equivalent)"
            )
        ]
    cards = (
        "" if f.size is None else f" with {f.size} card{'s' if f.size != 1 else ''} in `{c.listed}`"
    )
    broken = ", ".join(f.broken) or "no condition named"
    lines = [
        f"             {yes} accepts, {no} rejects ({broken}){cards}:",
        f"               {_situation(f.situation)}",
    ]
    return lines + _scenario(f, c, out)


def _situation(values: dict[str, Any]) -> str:
    first = [k for k in ("cards", "used", "move.cards", "turned") if k in values]
    order = first + sorted(k for k in values if k not in first)
    return ", ".join(f"{k}: {_value(values[k])}" for k in order)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _scenario(f: Finding, c: Comparison, out: str | None) -> list[str]:
    if c.check is not None and c.check.role != "meld":
        return [
            (
                "               no scenario: reaching this context generically needs a game "
                "played up to it; the values above are the situation"
            )
        ]
    witness = f.scenario
    if witness is None:
        return [f"               no scenario: {f.no_scenario}"]
    where = ""
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / witness.name).write_text(witness.text, encoding="utf-8")
        other = folder / witness.name.replace(".yaml", "-other-side.yaml")
        other.write_text(witness.other_text, encoding="utf-8")
        where = f", written to {folder / witness.name} (and {other.name})"
    # printed as a YAML document (`---` ... `...`), so it can be cut out and run as it is
    replayed = (
        f"the engine accepts it on {NAMES[f.accepts]} and rejects the meld on "
        f"{NAMES[1 - f.accepts]}"
    )
    return [
        f"               scenario (replayed: {replayed}){where}:",
        "---",
        *witness.text.splitlines(),
        "...",
    ]
