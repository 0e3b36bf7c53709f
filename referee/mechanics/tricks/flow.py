"""What follows a move: a trick complete goes to its winner (`tricks.winner`); the last trick
ends the deal, whose count gives each card to a team (`tricks.owner`) at its worth
(`tricks.points`); then the next deal is dealt, or the game is over."""

from __future__ import annotations

from typing import Any

from referee.cards import Card, codes
from referee.engine import chance
from referee.errors import RefereeError
from referee.mechanics.tricks import deal
from referee.mechanics.tricks.config import TricksConfig
from referee.mechanics.tricks.deal import Dealing
from referee.mechanics.tricks.state import Trick, TrickState
from referee.model import Event


def end_trick(table: Dealing, s: TrickState, events: list[Event]) -> None:
    """The trick to its winner, who leads the next; the deal's end after the last."""
    cards = [card for _, card in s.trick]
    index = table.config.winner({"options": s.options, "trick": cards, "leader": s.leader})
    if not 0 <= index < len(cards):  # `referee prove` shows every trick has a winner
        raise RefereeError(f"the spec's `tricks.winner` gives no winner for {codes(cards)}")
    winner = s.trick[index][0]
    s.tricks.append(Trick(tuple(s.trick), winner))
    events.append(
        Event(
            "trick_won",
            {
                "number": len(s.tricks),
                "seat": winner,
                "team": s.team_of(winner),
                "cards": codes(cards),
            },
        )
    )
    s.trick = []
    s.leader = s.to_act = winner  # the winner leads the next trick
    if not any(s.hands):
        end_deal(table, s, events)


# --- the count --------------------------------------------------------------------------------
def owners(config: TricksConfig, s: TrickState) -> list[tuple[Card, int]]:
    """Each card of the deal with the team that owns it at the count (`tricks.owner`)."""
    won = s.tricks_won()
    dealer_team = s.team_of(s.dealer)
    base = {"options": s.options, "dealer_team": dealer_team, "tricks": won}
    owned = []
    for trick in s.tricks:
        for seat, card in trick.plays:
            owned.append(
                (
                    card,
                    config.owner(
                        {
                            **base,
                            "card": card,
                            "in_discard": False,
                            "taker": s.team_of(trick.winner),
                            "player_team": s.team_of(seat),
                        }
                    ),
                )
            )
    for card in s.discard:
        owned.append(
            (
                card,
                config.owner(
                    {
                        **base,
                        "card": card,
                        "in_discard": True,
                        "taker": -1,
                        "player_team": dealer_team,
                    }
                ),
            )
        )
    return owned


def count(config: TricksConfig, s: TrickState) -> list[int]:
    """Each team's points for the deal just played."""
    points = [0] * len(s.teams)
    reads = config.points.reads  # what `tricks.points` reads but the card: the same for all
    base = {name: value for name, value in points_base(s).items() if name in reads}
    for card, owner in owners(config, s):
        if not 0 <= owner < len(points):
            raise RefereeError(f"the spec's `tricks.owner` gives `{card}` to no team ({owner})")
        points[owner] += card_points(config, s, card, base)
    return points


def points_base(s: TrickState) -> dict[str, Any]:
    """What `tricks.points` reads of the deal, whatever the card (`card_points`)."""
    return {
        "options": s.options,
        "taker": -1,
        "player_team": -1,
        "in_discard": False,
        "dealer_team": s.team_of(s.dealer),
        "tricks": s.tricks_won(),
    }


def card_points(
    config: TricksConfig, s: TrickState, card: Card, base: dict[str, Any] | None = None
) -> int:
    """What `card` counts at the count (`tricks.points`); `base`: `points_base(s)`, where
    the caller counts many cards of one deal."""
    points: int = config.points({**(points_base(s) if base is None else base), "card": card})
    return points


# --- the end of a deal --------------------------------------------------------------------------
def end_deal(
    table: Dealing, s: TrickState, events: list[Event], points: list[int] | None = None
) -> None:
    """The deal's count (`points`: what a deal ended early gives each team instead), then
    the next deal or the game's end."""
    points = count(table.config, s) if points is None else points
    s.totals = [t + p for t, p in zip(s.totals, points)]
    deal_winner = best(points)
    s.last_hand = _revealed(s, points, deal_winner)
    events.append(
        Event(
            "deal_over",
            {
                "hand_number": s.deal_number,
                "points": per_team(points),
                "tricks": per_team(s.tricks_won()),
                "winner": deal_winner,
                "discard": codes(s.discard),
                "totals": per_team(s.totals),
            },
        )
    )
    s.deal_ended = True
    if s.deal_number < table.config.deals_in(s.options, s.seats):
        _next_deal(table, s, events)
        return
    s.phase, s.to_act, s.winner = "over", None, best(s.totals)
    events.append(Event("game_over", {"winner": s.winner, "totals": per_team(s.totals)}))


def _revealed(s: TrickState, points: list[int], deal_winner: int | None) -> dict[str, Any]:
    """The deal just over, every card of it shown (`last_hand` of the views)."""
    return {
        "hand_number": s.deal_number,
        "dealer": s.dealer,
        "points": per_team(points),
        "tricks": per_team(s.tricks_won()),
        "winner": deal_winner,
        "discard": codes(s.discard),
        "hands": {str(seat): codes(hand) for seat, hand in enumerate(s.hands)},
        "hand_sizes": {str(seat): len(hand) for seat, hand in enumerate(s.hands)},
        "deck": codes(s.deck),
        "commitment": deal.commitment(s),
        "salt": chance.hand_salt(s.salt, s.deal_number),
        "keys": dict(s.keys),
    }


def _next_deal(table: Dealing, s: TrickState, events: list[Event]) -> None:
    """The deal passes on to the next seat."""
    s.dealer = (s.dealer + 1) % s.seats
    s.deal_number += 1
    hands, deck = deal.dealt(table, s)
    deal.start_deal(table.config, s, hands, deck)
    events.append(
        Event(
            "hand_dealt",
            {
                "hand_number": s.deal_number,
                "dealer": s.dealer,
                "commitment": deal.commitment(s),
            },
        )
    )


def best(points: list[int]) -> int | None:
    """The team with the most points; None for a tie at the top (57-57)."""
    top = max(points)
    leaders = [team for team, p in enumerate(points) if p == top]
    return leaders[0] if len(leaders) == 1 else None


def per_team(values: list[int]) -> dict[str, int]:
    return {str(team): v for team, v in enumerate(values)}
