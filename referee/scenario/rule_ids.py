"""The rule ids a game's verdicts can cite: a scenario's `rule:` must be one of them.

They are the ids its spec declares (a rule's `id`, a mechanic's violation `id`), the RULES.md ids
those cite in their `source`, and the engine's own GEN-8 (a move that cannot be read). A scenario
that names any other id is an error in the scenario: no verdict could ever cite it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from referee.i18n.verdicts import GEN8
from referee.spec.rules import RULEBOOK_ID


def known_rule_ids(game: Any) -> frozenset[str]:
    """Every rule id `game` (a loaded `Game`) declares or cites, and GEN-8."""
    return frozenset({GEN8, *_declared(game.spec.located.data)})


def _declared(data: Any) -> Iterator[str]:
    """The `id` of each mapping that reads as a rule (it has a `source`, `text` or `require`),
    and each RULES.md id in a `source` list, anywhere in the spec's data."""
    if isinstance(data, Mapping):
        if isinstance(data.get("id"), str) and {"source", "text", "require"} & data.keys():
            yield data["id"]
        sources = data.get("source")
        if isinstance(sources, list):
            yield from (s for s in sources if isinstance(s, str) and RULEBOOK_ID.match(s))
        for value in data.values():
            yield from _declared(value)
    elif isinstance(data, list):
        for item in data:
            yield from _declared(item)


class RuleIndex:
    """The known rule ids of each game of a set of loaded games (None: a game it does not know)."""

    def __init__(self, games: Mapping[str, Any]) -> None:
        self._games = games
        self._ids: dict[str, frozenset[str]] = {}

    def __call__(self, game: str) -> frozenset[str] | None:
        if game not in self._games:
            return None
        if game not in self._ids:
            self._ids[game] = known_rule_ids(self._games[game])
        return self._ids[game]
