"""Prove the properties a game's spec states about its rules (z3): proved / counterexample / unknown."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from referee.commands.arguments import positive
from referee.engine.game import Game, find_game
from referee.errors import InvalidArgument
from referee.plugins.games import DEFAULT_SPECS, load_game, load_games
from referee.proofs.prover import DEFAULT_RLIMIT, prove, read_properties
from referee.spec.proofs_file import is_proofs_file, spec_of

SPEC_SUFFIXES = (".yaml", ".yml")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help="a game name (a spec in --specs), or a spec file (`my_rules.yaml`)",
    )
    parser.add_argument("--specs", default=str(DEFAULT_SPECS), help="the specs folder")
    parser.add_argument(
        "--rlimit",
        type=positive,
        default=DEFAULT_RLIMIT,
        help="z3's deterministic resource budget per query",
    )
    parser.add_argument("--only", help="prove only this property id")


def run(args: argparse.Namespace) -> int:
    game = game_named(args.game, args.specs)
    properties = [p for p in read_properties(game) if not args.only or p.id == args.only]
    if args.only and not properties:
        known = ", ".join(f"`{p.id}`" for p in read_properties(game))
        raise InvalidArgument(f"`{game.name}` states no property `{args.only}`: it states {known}")
    if not properties:
        print(f"`{game.name}` states no properties to prove")
        return 1
    failures = 0
    for prop in properties:
        print(f"{prop.id}: {prop.text}")
        started = time.perf_counter()
        for outcome in prove(game, prop, args.rlimit):
            print(outcome.line())
            failures += outcome.status != "proved"
        print(f"{'':>14}  ({time.perf_counter() - started:.1f} s)")
    print(f"{len(properties)} properties, {failures} not proved")
    return 1 if failures else 0


def game_named(name: str, specs: str) -> Game:
    """A spec file's game (its `extends` found beside it; a proofs file names its spec's), or a
    game of the specs folder."""
    if is_proofs_file(Path(name)):
        return load_game(spec_of(Path(name)))
    if name.endswith(SPEC_SUFFIXES):
        return load_game(name)
    return find_game(load_games(specs), name)
