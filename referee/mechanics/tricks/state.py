"""The state of a trick-taking table: hands, the trick on the table, the tricks taken, the count."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the cards in the order played (with their seats), who won."""

    plays: tuple[tuple[int, Card], ...]
    winner: int


# each layout of teams met: seat -> its team (the first team listing it)
_TEAMS: dict[tuple[tuple[int, ...], ...], dict[int, int]] = {}


@dataclass
class TrickState:
    seats: int
    dealer: int
    seed: str  # the seed chain's current link (secret): shuffles are keyed by it
    salt: str
    options: dict[str, Any]
    teams: tuple[tuple[int, ...], ...]
    hands: list[list[Card]] = field(default_factory=list)
    phase: str = "play"  # discard | play | over
    to_act: int | None = None
    leader: int = 0  # who leads the trick on the table
    trick: list[tuple[int, Card]] = field(default_factory=list)  # (seat, card) as played
    tricks: list[Trick] = field(default_factory=list)  # this deal's, in order
    discard: list[Card] = field(default_factory=list)  # the dealer's, face down
    announced: int | None = None  # how many trumps the discard holds, once announced
    deal_number: int = 1
    deck: tuple[Card, ...] = ()  # this deal's pack order (for the commitment)
    keys: dict[str, str] = field(default_factory=dict)  # its shuffle's key, by purpose
    totals: list[int] = field(default_factory=list)  # points per team, deals added
    game_points: list[int] | None = None  # per team, deals added (None: the spec keeps none)
    turned: Card | None = None  # the card turned at this deal (None: the spec turns none)
    turned_seat: int = 0  # who holds it
    turned_shown: bool = False  # it is face up now: every seat and a spectator see it
    deal_ended: bool = False  # the last accepted move ended a deal
    winner: int | None = None  # the winning team once the game is over (None: a tie)
    last_hand: dict[str, Any] = field(default_factory=dict)  # the last finished deal, revealed

    def team_of(self, seat: int) -> int:
        teams = _TEAMS.get(self.teams)
        if teams is None:  # a few layouts of teams in all: each worked out once
            teams = _TEAMS[self.teams] = {
                s: i for i, team in reversed(list(enumerate(self.teams))) for s in team
            }
        return teams[seat]

    def tricks_won(self) -> list[int]:
        """Tricks won so far this deal, per team."""
        won = [0] * len(self.teams)
        for trick in self.tricks:
            won[self.team_of(trick.winner)] += 1
        return won

    def clone(self) -> TrickState:
        copy = object.__new__(TrickState)  # every field shared, faster than __init__: the
        copy.__dict__.update(self.__dict__)  # mutable ones are copied below
        copy.hands = [list(h) for h in self.hands]
        copy.trick, copy.tricks = list(self.trick), list(self.tricks)
        copy.discard, copy.totals = list(self.discard), list(self.totals)
        if self.game_points is not None:
            copy.game_points = list(self.game_points)
        copy.last_hand, copy.keys = dict(self.last_hand), dict(self.keys)
        return copy
