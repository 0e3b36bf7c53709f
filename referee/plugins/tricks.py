"""The trick-taking mechanic (Piedicavallo Tarocchi, Sueca) as a plugin: a seat sees its own
hand, the trick on the table, the card turned at the deal and the count; a game is played deal
after deal, to its end."""

from __future__ import annotations

import random
from typing import Any

from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.mechanics.tricks import TricksMechanic
from referee.plugins.play_turns import MAX_PROPOSALS, PlayContext, play_turn
from referee.plugins.plugin import Plugin
from referee.plugins.transcript_parts import COMMITMENT, Adapter, View, field, show, to_act
from referee.scenario import fields as f
from referee.scenario.checks import CheckKey
from referee.scenario.comparers import canonical_card, field_of, per_key
from referee_bots import tricks_bot

# --- the golden transcript ---------------------------------------------------------------------


def trick_on_table(view: View) -> str:
    """The cards played to the trick so far, by seat: `trick 1:T3 2:MT`."""
    return "trick " + (" ".join(f"{p['seat']}:{p['card']}" for p in view["trick"]) or "-")


def announced_trumps(view: View) -> str | None:
    """The trumps the dealer's discard announced, in a game whose deal has a discard."""
    if view.get("phase") != "discard" and not view.get("discard_size"):
        return None
    return f"trumps discarded {show(view.get('announced_trumps'))}"


TRICKS = Adapter(
    bot="tricks",
    candidates=lambda options: tricks_bot.turn_candidates,
    next_seat=tricks_bot.next_to_act,
    header=(field("dealer"), field("teams"), COMMITMENT),
    view=(
        field("hand"),
        to_act,
        trick_on_table,
        field("tricks"),
        announced_trumps,
        field("discard", if_set=True),
        field("points", if_set=True),
        field("turned", render=lambda turned: str(turned["card"]), if_set=True),
        field("game_points", "game points", if_set=True),
    ),
    summary=(
        field("winner", "winner team"),
        field("totals"),
        field("game_points", "game points", if_set=True),
    ),
)


# --- referee play: every deal, each trick and each deal told -----------------------------------


def play(context: PlayContext) -> int:
    """Every deal of a trick-taking game, to the end of the game; each trick and each deal told
    from the events the bots' verdicts carry (cards played, the discard, the deal's count)."""
    args = context.args
    referee = context.open_table()
    rng = random.Random(args.seed)
    public = referee.view(None)
    story = TricksStory([list(team) for team in public["teams"]])
    print(
        f"{context.game}: {args.bots} bots, seed {args.seed}, teams {story.teams_text()}, "
        f"commitment {referee.commitment[:16]}…"
    )
    print(f"deal {public['hand_number']}: dealer seat {public['dealer']}{_turned(public)}")
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
    game_points = public.get("game_points")
    scored = "" if game_points is None else f"game points {_per_team(game_points)}; "
    print(
        f"game over after {public['hand_number']} deal(s): totals {_per_team(public['totals'])}; "
        f"{scored}{story.outcome(public['winner'])}; proposals {proposals}"
    )
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
            print(
                f"  trick {event['number']}: {', '.join(self.trick)} -> seat {event['seat']} "
                f"(team {event['team']})"
            )
            self.trick = []
        elif kind == "deal_over":
            print(
                f"deal {event['hand_number']} over: tricks {_per_team(event['tricks'])}; points "
                f"{_per_team(event['points'])}; {self.outcome(event['winner'])}{_deal_extras(event)}"
            )
        elif kind == "hand_dealt":
            turned = f", {event['turned']} turned" if "turned" in event else ""
            print(f"deal {event['hand_number']}: dealer seat {event['dealer']}{turned}")


def _turned(view: dict[str, Any]) -> str:
    """`, 7H turned` when the game turns a card at the deal."""
    turned = view.get("turned")
    return "" if not turned else f", {turned['card']} turned"


def _turned_card(turned: Any) -> Any:
    """The view's `turned` (`{seat, card}`, or null once played) as a scenario writes it: the
    card's code, or null."""
    if isinstance(turned, dict):
        return canonical_card(turned.get("card"))
    return None if turned is None else canonical_card(turned)


def _deal_extras(event: dict[str, Any]) -> str:
    """What a deal's end tells beyond its count: the game points, the dealer's discard."""
    told = ""
    if "game_points_won" in event:
        told += (
            f"; game points {_per_team(event['game_points_won'])} "
            f"(match {_per_team(event['game_points'])})"
        )
    if event["discard"]:
        told += f"; the discard was {' '.join(event['discard'])}"
    return told


def _seats(team: list[int]) -> str:
    return "seats " + " and ".join(str(s) for s in team)


def _per_team(values: dict[str, int]) -> str:
    return ", ".join(f"team {team} {n}" for team, n in sorted(values.items()))


def _bench_options(game: Game) -> dict[str, Any]:
    """`make bench`'s table: four deals where the game's option says how many deals a game is
    (`deals_per_game`); else a game as its options make it (a match to its target)."""
    return {"deals_per_game": 4} if "deals_per_game" in game.spec.options else {}


PLUGIN = Plugin(
    TricksMechanic,
    transcript=TRICKS,
    play=play,
    bench_setup=lambda game, seed: TableSetup(
        game=game.name, seats=4, seed=seed, options=_bench_options(game)
    ),
    checks={
        "points": CheckKey(
            lambda seats: f.keyed(f.team, f.integer), per_key("points", label="team")
        ),
        "tricks": CheckKey(
            lambda seats: f.keyed(f.team, f.integer), per_key("tricks", label="team")
        ),
        "totals": CheckKey(
            lambda seats: f.keyed(f.team, f.integer), per_key("totals", label="team")
        ),
        "announced_trumps": CheckKey(
            lambda seats: f.optional(f.integer), field_of("announced_trumps")
        ),
        "dealer": CheckKey(lambda seats: f.seat_in(seats), field_of("dealer")),
        "turned": CheckKey(lambda seats: f.optional(f.card), field_of("turned", _turned_card)),
        "game_points": CheckKey(
            lambda seats: f.keyed(f.team, f.integer), per_key("game_points", label="team")
        ),
    },
    finished_view_keys=("tricks",),
)
