"""What follows a move: a trick complete goes to its winner (`tricks.winner`); the last trick
ends the deal, whose count gives each card to a team (`tricks.owner`) at its worth
(`tricks.points`) and each team its game points (`tricks.game_points`); then the next deal is
dealt, or the game is over (`tricks.deals`, `tricks.game_over`)."""

from __future__ import annotations

from typing import Any

from referee.cards import Card, codes
from referee.engine import chance
from referee.errors import RefereeError
from referee.mechanics.tricks import deal
from referee.mechanics.tricks.config import TricksConfig
from referee.mechanics.tricks.deal import Dealing
from referee.mechanics.tricks.state import Trick, TrickState
from referee.model import JSON, Event


def end_trick(table: Dealing, s: TrickState, events: list[Event]) -> None:
    """The trick to its winner, who leads the next; the deal's end after the last."""
    cards = [card for _, card in s.trick]
    index = table.config.winner({**deal_names(s), "trick": cards, "leader": s.leader})
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


def deal_names(s: TrickState) -> dict[str, Any]:
    """What every step of the deal reads: the options, and the turned card if there is one."""
    if s.turned is None:
        return {"options": s.options}
    return {"options": s.options, "turned": s.turned}


# --- the count --------------------------------------------------------------------------------
def owners(config: TricksConfig, s: TrickState) -> list[tuple[Card, int]]:
    """Each card of the deal with the team that owns it at the count (`tricks.owner`)."""
    won = s.tricks_won()
    dealer_team = s.team_of(s.dealer)
    base = {**deal_names(s), "dealer_team": dealer_team, "tricks": won}
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
        **deal_names(s),
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
    config = table.config
    points = count(config, s) if points is None else points
    s.totals = [t + p for t, p in zip(s.totals, points)]
    deal_winner = best(points)
    s.last_hand = _revealed(s, points, deal_winner)
    over: dict[str, JSON] = {
        "hand_number": s.deal_number,
        "points": per_team(points),
        "tricks": per_team(s.tricks_won()),
        "winner": deal_winner,
        "discard": codes(s.discard),
        "totals": per_team(s.totals),
    }
    won = game_points(config, s, points)
    if won is not None and s.game_points is not None:
        s.game_points = [t + p for t, p in zip(s.game_points, won)]
        s.last_hand["game_points_won"] = over["game_points_won"] = per_team(won)
        over["game_points"] = per_team(s.game_points)
    events.append(Event("deal_over", over))
    s.deal_ended = True
    if not game_over(config, s):
        _next_deal(table, s, events)
        return
    s.phase, s.to_act, s.winner = "over", None, game_winner(s)
    ended: dict[str, JSON] = {"winner": s.winner, "totals": per_team(s.totals)}
    if s.game_points is not None:
        ended["game_points"] = per_team(s.game_points)
    events.append(Event("game_over", ended))


def game_points(config: TricksConfig, s: TrickState, points: list[int]) -> list[int] | None:
    """Each team's game points for the deal just counted (`tricks.game_points`; None: the
    spec keeps none)."""
    if config.game_points is None:
        return None
    base = {
        **deal_names(s),
        "points": points,
        "tricks": s.tricks_won(),
        "dealer_team": s.team_of(s.dealer),
        "hand_number": s.deal_number,
    }
    return [int(config.game_points({**base, "team": team})) for team in range(len(points))]


def game_over(config: TricksConfig, s: TrickState) -> bool:
    """Is the game over after this deal? `tricks.game_over`, else `tricks.deals` deals."""
    if config.game_over is None:
        return s.deal_number >= config.deals_in(s.options, s.seats)
    names: dict[str, Any] = {
        "options": s.options,
        "seats": s.seats,
        "totals": list(s.totals),
        "deals": s.deal_number,
    }
    if s.game_points is not None:
        names["game_points"] = list(s.game_points)
    return bool(config.game_over(names))


def game_winner(s: TrickState) -> int | None:
    """The team with most game points if the spec keeps them, else most card points."""
    return best(s.totals if s.game_points is None else s.game_points)


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
    dealt: dict[str, JSON] = {
        "hand_number": s.deal_number,
        "dealer": s.dealer,
        "commitment": deal.commitment(s),
    }
    if s.turned is not None:
        dealt["turned"] = str(s.turned)
    events.append(Event("hand_dealt", dealt))


def best(points: list[int]) -> int | None:
    """The team with the most points; None for a tie at the top (57-57)."""
    top = max(points)
    leaders = [team for team, p in enumerate(points) if p == top]
    return leaders[0] if len(leaders) == 1 else None


def per_team(values: list[int]) -> dict[str, int]:
    return {str(team): v for team, v in enumerate(values)}
