"""The project's bots (referee_bots) playing a table over gRPC with the Python client: each seat
with its own token and view, the seat to act found from the views alone (the one with a legal
move besides `contribute`), as any remote client would."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine.game import Game
from referee.plugins import installed
from referee_client import RefereeClient

TABLE_ITSELF = "contribute"  # a move any seat has at any time: not a turn
MOST_PROPOSALS = 300  # a bot that cannot find a legal move gives up


def play(
    client: RefereeClient,
    game: Game,
    table_id: str,
    tokens: Mapping[int, str],
    moves: int,
    *,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> list[tuple[int, dict[str, Any]]]:
    """Play `moves` accepted moves (fewer if the game ends); the seat and move of each."""
    adapter = installed.by_name()[game.spec.mechanics].transcript
    assert adapter is not None, f"`{game.name}`: its mechanics has no bot"
    candidates = adapter.candidates(game.resolve_options(dict(options or {})))
    rng = random.Random(seed)
    played: list[tuple[int, dict[str, Any]]] = []
    proposals = 0
    while len(played) < moves and proposals < MOST_PROPOSALS:
        acting = _acting(client, table_id, tokens)
        if acting is None:
            break
        seat, view = acting
        for move in candidates(view, rng):
            proposals += 1
            if client.propose(table_id, tokens[seat], move)["outcome"] != "rejected":
                played.append((seat, dict(move)))
                break
    return played


def _acting(
    client: RefereeClient, table_id: str, tokens: Mapping[int, str]
) -> tuple[int, dict[str, Any]] | None:
    for seat, token in sorted(tokens.items()):
        view = client.view(table_id, token)
        if set(view.get("legal", {})) - {TABLE_ITSELF}:
            return seat, view
    return None
