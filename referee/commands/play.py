"""Watch bots play, in-process or against a running referee: every proposal and verdict, then the result.

A rummy table (Pontinho, Taradinho) is played as a whole match, to its winner. A banking table
(Pontoon) never ends by itself: the bots play `--hands` hands, the banker dealing each next one
(`next_hand`, PO-8), and the chips are counted at the end (GEN-6). A trick-taking table
(Piedicavallo Tarocchi) is played for its `deals_per_game` deals (`--option deals_per_game=4`),
each deal summed up: tricks and points per team, its winner, the dealer's discard revealed.
With `--target HOST:PORT` the table is created on that referee and each bot plays over gRPC with
its own seat's token; the driver reads only the public view. Each mechanic's driver is its
plugin's (`referee.plugins`); this command opens the table and hands it over.

Any spec is played: a turn whose bot's moves are all refused plays the fixes the rejections
offered and the seat's legal moves (`referee.plugins.legal_bot`); `--bot legal` plays every seat
so, whatever the mechanic (`referee.plugins.legal_play`). Bots that find no move the referee
takes stop the game with the seat, the state and the last rejection, exit status 1.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

import grpc
import yaml

from referee.commands.arguments import non_negative, positive
from referee.engine.game import Game, find_game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.errors import InvalidArgument
from referee.model import Move
from referee.plugins import installed, legal_play
from referee.plugins.games import DEFAULT_SPECS, load_games
from referee.plugins.play_turns import Answer, GaveUp, PlayContext, Referee
from referee.redaction import events_for
from referee_client import RefereeClient


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game name")
    parser.add_argument("--bots", type=positive, default=4, help="how many seats, each a bot")
    parser.add_argument(
        "--seed", type=int, default=7, help="the table seed (the deal) and the bots' choices"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option (repeatable); VALUE is read as YAML: deals_per_game=4, stakes=true",
    )
    parser.add_argument(
        "--target",
        metavar="HOST:PORT",
        help="play on a running referee over gRPC (default: in this process)",
    )
    parser.add_argument("--specs", default=str(DEFAULT_SPECS))
    parser.add_argument("--quiet", action="store_true", help="print only accepted moves")
    parser.add_argument(
        "--bot",
        choices=("mechanic", "legal"),
        default="mechanic",
        help="the mechanic's bots (default), or the bot of last resort for any spec: each seat "
        "plays its legal moves (also where a mechanic has no bots)",
    )
    parser.add_argument(
        "--hands",
        type=positive,
        default=5,
        help="banking games (Pontoon), and any game with `--bot legal`: how many hands to play "
        "at most (default 5)",
    )
    parser.add_argument(
        "--chips",
        type=non_negative,
        default=1000,
        help="banking games (Pontoon): each seat's chips at the start (default 1000)",
    )


# --- the referee the bots play against: this process, or a server ------------------------------


class InProcess:
    def __init__(self, game: Game, setup: TableSetup) -> None:
        self.table = Table.create(game, setup)
        self.commitment = self.table.commitment
        self.moves = game.spec.moves
        self.rng = random.Random(setup.seed)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.table.view(seat, legal=True)  # as GetView gives it

    def legal(self, seat: int) -> dict[str, Any]:
        return self.table.legal(seat)

    def propose(self, seat: int, move: dict[str, Any]) -> Answer:
        verdict = self.table.propose(seat, Move.from_data(move))
        return Answer(
            verdict.outcome.value,
            tuple(sorted(verdict.rule_ids())),
            tuple(events_for(verdict.events, seat)),
            tuple(f"{v.rule}: {v.message}" for v in verdict.violations),
            tuple(dict(v.fix) for v in verdict.violations if v.fix),
        )

    def close(self) -> None:
        pass


class Remote:
    """A table on a running referee; each seat proposes and looks with its own token."""

    def __init__(self, target: str, game: Game, setup: TableSetup) -> None:
        self.moves = game.spec.moves
        self.rng = random.Random(setup.seed)
        self.client = RefereeClient(target)
        try:
            self.handle = self.client.create_table(
                setup.game,
                setup.seats,
                seed=setup.seed,
                options=setup.options,
                balances=setup.balances,
            )
        except grpc.RpcError:
            self.client.close()
            raise
        self.commitment = self.handle.commitment

    def view(self, seat: int | None) -> dict[str, Any]:
        token = None if seat is None else self.handle.tokens[seat]
        view: dict[str, Any] = _by_seat(self.client.view(self.handle.id, token))
        return view

    def legal(self, seat: int) -> dict[str, Any]:
        legal: dict[str, Any] = self.view(seat).get("legal") or {}
        return legal

    def propose(self, seat: int, move: dict[str, Any]) -> Answer:
        verdict = self.client.propose(self.handle.id, self.handle.tokens[seat], move)
        violations = verdict["violations"]
        rules = {i for v in violations for i in (v["rule"], *v["cites"])}
        return Answer(
            verdict["outcome"],
            tuple(sorted(rules)),
            tuple(_by_seat(e) for e in verdict["events"]),
            tuple(f"{v['rule']}: {v['message']}" for v in violations),
            tuple(v["fix"] for v in violations if v.get("fix")),
        )

    def close(self) -> None:
        self.client.close()


def _by_seat(value: Any) -> Any:
    """Maps keyed by seat or team (`{"0": ..., "1": ...}`) in number order, as in-process: a
    protobuf Struct does not keep the order of its keys."""
    if isinstance(value, list):
        return [_by_seat(v) for v in value]
    if not isinstance(value, dict):
        return value
    items = [(k, _by_seat(v)) for k, v in value.items()]
    if items and all(k.isdigit() for k, _ in items):
        items.sort(key=lambda item: int(item[0]))
    return dict(items)


def open_table(game: Game, args: argparse.Namespace, **setup: Any) -> Referee:
    table = TableSetup(
        game=game.name, seats=args.bots, seed=args.seed, options=parse_options(args.option), **setup
    )
    return Remote(args.target, game, table) if args.target else InProcess(game, table)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidArgument(f"`--option` expects NAME=VALUE, got `{pair}`")
        options[name.strip()] = yaml.safe_load(value)
    return options


def run(args: argparse.Namespace) -> int:
    game = find_game(load_games(args.specs), args.game)
    play = installed.by_name()[game.spec.mechanics].play
    if play is None or args.bot == "legal":
        play = legal_play.play
    context = PlayContext(
        game.name,
        args,
        lambda **setup: open_table(game, args, **setup),
        lambda: game.resolve_options(parse_options(args.option)),
    )
    try:
        return play(context)
    except GaveUp as exc:  # the bots could not go on: said, as a game not finished
        print(f"referee play: {exc}", file=sys.stderr)
        return 1
    except grpc.RpcError as exc:  # a RefereeError is told by referee.cli
        print(
            f"referee play: {args.target}: {exc.code().name.lower()}: {exc.details()}",
            file=sys.stderr,
        )
        return 2
