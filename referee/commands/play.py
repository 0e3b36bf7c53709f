"""Watch bots play, in-process or against a running referee: every proposal and verdict, then the result.

A rummy table (Pontinho, Taradinho) is played as a whole match, to its winner. A banking table
(Pontoon) never ends by itself: the bots play `--hands` hands, the banker dealing each next one
(`next_hand`, PO-8), and the chips are counted at the end (GEN-6). A trick-taking table
(Piedicavallo Tarocchi) is played for its `deals_per_game` deals (`--option deals_per_game=4`),
each deal summed up: tricks and points per team, its winner, the dealer's discard revealed.
With `--target HOST:PORT` the table is created on that referee and each bot plays over gRPC with
its own seat's token; the driver reads only the public view.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Protocol

import grpc
import yaml

from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.commands.arguments import non_negative, positive
from referee.errors import InvalidArgument
from referee.model import Move, Outcome
from referee.redaction import events_for
from referee.spec.registry import DEFAULT_SPECS, Game, find_game, load_games
from referee_bots import pontoon_bot, tricks_bot
from referee_bots.rummy_bot import turn_candidates
from referee_client import RefereeClient

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before
Candidates = Callable[[dict[str, Any], random.Random], Iterator[dict[str, Any]]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game name")
    parser.add_argument("--bots", type=positive, default=4, help="how many seats, each a bot")
    parser.add_argument("--seed", type=int, default=7, help="the table seed (the deal) and the bots' choices")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a table option (repeatable); VALUE is read as YAML: "
                             "deals_per_game=4, stakes=true")
    parser.add_argument("--target", metavar="HOST:PORT",
                        help="play on a running referee over gRPC (default: in this process)")
    parser.add_argument("--specs", default=str(DEFAULT_SPECS))
    parser.add_argument("--quiet", action="store_true", help="print only accepted moves")
    parser.add_argument("--hands", type=positive, default=5,
                        help="banking games (Pontoon): how many hands to play (default 5)")
    parser.add_argument("--chips", type=non_negative, default=1000,
                        help="banking games (Pontoon): each seat's chips at the start "
                             "(default 1000)")


# --- the referee the bots play against: this process, or a server ------------------------------

@dataclass(frozen=True)
class Answer:
    """A verdict as the proposing seat receives it."""

    outcome: str                      # accepted | rejected | pending
    rules: tuple[str, ...]            # the rules broken, with what they cite
    events: tuple[dict[str, Any], ...]  # as the proposer may see them

    @property
    def taken(self) -> bool:
        return self.outcome != Outcome.REJECTED.value  # a pending claim counts as an answer


class Referee(Protocol):
    commitment: str

    def view(self, seat: int | None) -> dict[str, Any]:
        """`seat`'s view; None: the public view."""

    def propose(self, seat: int, move: dict[str, Any]) -> Answer: ...

    def close(self) -> None: ...


class InProcess:
    def __init__(self, game: Game, setup: TableSetup) -> None:
        self.table = Table.create(game, setup)
        self.commitment = self.table.commitment

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.table.view(seat)

    def propose(self, seat: int, move: dict[str, Any]) -> Answer:
        verdict = self.table.propose(seat, Move.from_data(move))
        return Answer(verdict.outcome.value, tuple(sorted(verdict.rule_ids())),
                      tuple(events_for(verdict.events, seat)))

    def close(self) -> None:
        pass


class Remote:
    """A table on a running referee; each seat proposes and looks with its own token."""

    def __init__(self, target: str, setup: TableSetup) -> None:
        self.client = RefereeClient(target)
        try:
            self.handle = self.client.create_table(setup.game, setup.seats, seed=setup.seed,
                                                   options=setup.options, balances=setup.balances)
        except grpc.RpcError:
            self.client.close()
            raise
        self.commitment = self.handle.commitment

    def view(self, seat: int | None) -> dict[str, Any]:
        token = None if seat is None else self.handle.tokens[seat]
        return _by_seat(self.client.view(self.handle.id, token))

    def propose(self, seat: int, move: dict[str, Any]) -> Answer:
        verdict = self.client.propose(self.handle.id, self.handle.tokens[seat], move)
        rules = {i for v in verdict["violations"] for i in (v["rule"], *v["cites"])}
        return Answer(verdict["outcome"], tuple(sorted(rules)),
                      tuple(_by_seat(e) for e in verdict["events"]))

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
    table = TableSetup(game=game.name, seats=args.bots, seed=args.seed,
                       options=parse_options(args.option), **setup)
    return Remote(args.target, table) if args.target else InProcess(game, table)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidArgument(f"`--option` expects NAME=VALUE, got `{pair}`")
        options[name.strip()] = yaml.safe_load(value)
    return options


# --- driving the bots --------------------------------------------------------------------------

def next_to_answer(full: dict) -> int:
    """Who must act now: a seat a claim window waits for, a seat deciding on re-entry, or the
    seat in turn."""
    window = full.get("claim_window")
    if window and window["waiting"]:
        return int(window["waiting"][0])
    return int(full["to_act"]) if full["to_act"] is not None else int(full["deciding"][0])


def run(args: argparse.Namespace) -> int:
    game = find_game(load_games(args.specs), args.game)
    runner = {"banking": run_banking, "tricks": run_tricks}.get(game.spec.mechanics, run_rummy)
    try:
        return runner(game, args)
    except grpc.RpcError as exc:  # a RefereeError is told by referee.cli
        print(f"referee play: {args.target}: {exc.code().name.lower()}: {exc.details()}",
              file=sys.stderr)
        return 2


def play_turn(referee: Referee, seat: int, candidates: Iterator[dict[str, Any]], quiet: bool,
              events: list[dict[str, Any]] | None = None) -> int:
    """Propose `seat`'s candidates until one is taken; the number of proposals made (at least
    one: a turn in which nothing was taken is tried again, with new random choices). The events
    of the verdict taken are added to `events`."""
    proposals = 0
    for move in candidates:
        proposals += 1
        answer = referee.propose(seat, move)
        if answer.taken or not quiet:
            status = answer.outcome if answer.taken else f"rejected ({', '.join(answer.rules) or '-'})"
            print(f"  seat {seat}: {move} -> {status}")
        if answer.taken:
            if events is not None:
                events.extend(answer.events)
            break
    return max(proposals, 1)


def run_rummy(game: Game, args: argparse.Namespace) -> int:
    referee = open_table(game, args)
    rng = random.Random(args.seed)
    print(f"{game.name}: {args.bots} bots, seed {args.seed}, commitment {referee.commitment[:16]}…")
    proposals = 0
    try:
        while not (public := referee.view(None))["match_over"] and proposals < MAX_PROPOSALS:
            seat = next_to_answer(public)
            proposals += play_turn(referee, seat, turn_candidates(referee.view(seat), rng), args.quiet)
    finally:
        referee.close()
    print(f"match over after {public['hand_number']} hands: winner seat {public['winner']}; "
          f"scores {public['scores']}; blown {public['blown']}; proposals {proposals}")
    return 0 if public["match_over"] else 1


def run_banking(game: Game, args: argparse.Namespace) -> int:
    """`args.hands` hands of a banking game; the banker deals each next hand."""
    referee = open_table(game, args, balances={seat: args.chips for seat in range(args.bots)})
    options = game.resolve_options(parse_options(args.option))
    limits = {"min_bet": options["min_bet"], "max_bet": options["max_bet"]}
    rng = random.Random(args.seed)
    chips = _chips(referee.view(None))
    print(f"{game.name}: {args.bots} bots, seed {args.seed}, {args.hands} hands, "
          f"commitment {referee.commitment[:16]}…")
    proposals, finished, started = 0, set[int](), 0
    try:
        while proposals < MAX_PROPOSALS:
            public = referee.view(None)
            number = int(public["hand_number"])
            if public["hand_over"] and number not in finished:
                finished.add(number)
                _hand_summary(public)
                if len(finished) >= args.hands:
                    break
            if not public["hand_over"] and number != started:
                started = number
                print(f"hand {number}: banker seat {public['banker']}")
            seat = pontoon_bot.next_to_act(public)
            candidates = pontoon_bot.turn_candidates(referee.view(seat), rng, **limits)
            proposals += play_turn(referee, seat, candidates, args.quiet)
        final = referee.view(None)
    finally:
        referee.close()
    played = len(finished)
    conserved = _chips(final) == chips
    print(f"after {played} hands: balances {final['balances']}; on the table {final['on_table']}; "
          f"chips {'conserved' if conserved else 'NOT conserved'} ({_chips(final)} of {chips}); "
          f"proposals {proposals}")
    return 0 if conserved and played >= args.hands else 1


def _chips(view: dict[str, Any]) -> int:
    """GEN-6: balances plus everything on the table (stakes, and a kitty where there is one)."""
    return sum(view["balances"].values()) + int(view["on_table"]) + int(view.get("kitty") or 0)


def _hand_summary(view: dict[str, Any]) -> None:
    last = view["last_hand"]
    hands = "; ".join(f"{seat}: " + " | ".join(" ".join(h) for h in seat_hands)
                      for seat, seat_hands in last["hands"].items())
    following = last.get("next_banker")
    bank = f"; the bank passes to seat {following}" if following is not None else ""
    print(f"hand {last['hand_number']} over (banker seat {view['banker']}): {hands}; "
          f"balances {view['balances']}{bank}")


# --- trick taking ------------------------------------------------------------------------------

def run_tricks(game: Game, args: argparse.Namespace) -> int:
    """Every deal of a trick-taking game, to the end of the game; each trick and each deal told
    from the events the bots' verdicts carry (cards played, the discard, the deal's count)."""
    referee = open_table(game, args)
    rng = random.Random(args.seed)
    public = referee.view(None)
    story = TricksStory([list(team) for team in public["teams"]])
    print(f"{game.name}: {args.bots} bots, seed {args.seed}, teams {story.teams_text()}, "
          f"commitment {referee.commitment[:16]}…")
    print(f"deal {public['hand_number']}: dealer seat {public['dealer']}")
    proposals = 0
    try:
        while not public["match_over"] and proposals < MAX_PROPOSALS:
            seat = tricks_bot.next_to_act(public)
            events: list[dict[str, Any]] = []
            candidates = tricks_bot.turn_candidates(referee.view(seat), rng)
            proposals += play_turn(referee, seat, candidates, args.quiet, events)
            for event in events:
                story.tell(event)
            public = referee.view(None)
    finally:
        referee.close()
    print(f"game over after {public['hand_number']} deal(s): totals {_per_team(public['totals'])}; "
          f"{story.outcome(public['winner'])}; proposals {proposals}")
    return 0 if public["match_over"] else 1


class TricksStory:
    """Prints a trick-taking game's events: each trick with who played what, each deal's count."""

    def __init__(self, teams: list[list[int]]) -> None:
        self.teams = teams
        self.trick: list[str] = []  # `seat card` as played, the trick under way

    def teams_text(self) -> str:
        return "; ".join(f"{t}: {_seats(team)}" for t, team in enumerate(self.teams))

    def outcome(self, winner: int | None) -> str:
        if winner is None:
            return "a tie"
        return f"team {winner} ({_seats(self.teams[int(winner)])}) wins"

    def tell(self, event: dict[str, Any]) -> None:
        kind = event["kind"]
        if kind == "played":
            self.trick.append(f"{event['seat']} {event['card']}")
        elif kind == "discarded":
            trumps = event.get("trumps")
            announced = "" if trumps is None else f"; {trumps} trump(s) announced"
            print(f"  seat {event['seat']} discards {event['count']} cards face down{announced}")
        elif kind == "trick_won":
            print(f"  trick {event['number']}: {', '.join(self.trick)} -> seat {event['seat']} "
                  f"(team {event['team']})")
            self.trick = []
        elif kind == "deal_over":
            print(f"deal {event['hand_number']} over: tricks {_per_team(event['tricks'])}; points "
                  f"{_per_team(event['points'])}; {self.outcome(event['winner'])}; "
                  f"the discard was {' '.join(event['discard'])}")
        elif kind == "hand_dealt":
            print(f"deal {event['hand_number']}: dealer seat {event['dealer']}")


def _seats(team: list[int]) -> str:
    return "seats " + " and ".join(str(s) for s in team)


def _per_team(values: dict[str, int]) -> str:
    return ", ".join(f"team {team} {n}" for team, n in sorted(values.items()))
