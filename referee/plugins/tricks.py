"""The trick-taking mechanic (Piedicavallo Tarocchi) as a plugin: a seat sees its own hand, the
trick on the table and the count; a game is played deal after deal, to its end."""

from __future__ import annotations

import random
from typing import Any

from referee.engine.setup import TableSetup
from referee.mechanics.tricks import TricksMechanic
from referee.plugins.play_turns import MAX_PROPOSALS, PlayContext, play_turn
from referee.plugins.plugin import Plugin
from referee.plugins.transcript_parts import COMMITMENT, Adapter, View, field, to_act
from referee.scenario import fields as f
from referee.scenario.checks import CheckKey
from referee.scenario.comparers import field_of, per_key
from referee_bots import tricks_bot

# --- the golden transcript ---------------------------------------------------------------------


def trick_on_table(view: View) -> str:
    """The cards played to the trick so far, by seat: `trick 1:T3 2:MT`."""
    return "trick " + (" ".join(f"{p['seat']}:{p['card']}" for p in view["trick"]) or "-")


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
        field("announced_trumps", "trumps discarded"),
        field("discard", if_set=True),
        field("points", if_set=True),
    ),
    summary=(field("winner", "winner team"), field("totals")),
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
    print(
        f"game over after {public['hand_number']} deal(s): totals {_per_team(public['totals'])}; "
        f"{story.outcome(public['winner'])}; proposals {proposals}"
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
                f"{_per_team(event['points'])}; {self.outcome(event['winner'])}; "
                f"the discard was {' '.join(event['discard'])}"
            )
        elif kind == "hand_dealt":
            print(f"deal {event['hand_number']}: dealer seat {event['dealer']}")


def _seats(team: list[int]) -> str:
    return "seats " + " and ".join(str(s) for s in team)


def _per_team(values: dict[str, int]) -> str:
    return ", ".join(f"team {team} {n}" for team, n in sorted(values.items()))


PLUGIN = Plugin(
    TricksMechanic,
    transcript=TRICKS,
    play=play,
    bench_setup=lambda game, seed: TableSetup(
        game=game, seats=4, seed=seed, options={"deals_per_game": 4}
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
    },
    finished_view_keys=("tricks",),
)
