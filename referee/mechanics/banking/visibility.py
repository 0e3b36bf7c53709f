"""Who sees the cards of a banking hand, as the spec declares it (`banking.visibility`).

Each card is dealt `public` (face up: every seat and a spectator see it), `owner` (face down:
its holder sees it, the others see `??`) or `hidden` (face down, seen by nobody, its holder
included). A player's cards all follow `players` (a card twisted is dealt face up whatever it
says). The banker's two dealt cards follow `banker`, one word each in the order they are dealt;
its `hidden` cards turn face up at the banker's turn (`shown_at: banker_turn`), and every card
of a finished hand is shown. Left out, Pontoon's: players' cards `owner`, the banker's first
`hidden` (from the banker too), its second `owner`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.errors import SpecError
from referee.spec.yamlsource import Located

PUBLIC, OWNER, HIDDEN = "public", "owner", "hidden"
WORDS = (PUBLIC, OWNER, HIDDEN)
DEALT = 2  # the banker's cards the declaration covers: the two of the deal


@dataclass(frozen=True)
class Visibility:
    players: str = OWNER
    banker: tuple[str, str] = (HIDDEN, OWNER)
    # worked out once: asked at every card dealt and every view
    hidden_places: tuple[int, ...] = field(init=False)  # the banker's cards nobody sees
    # whether a card is dealt face up: a player's, the banker's first, its second
    dealt_up: tuple[bool, bool, bool] = field(init=False)

    def __post_init__(self) -> None:
        hidden = tuple(place for place, word in enumerate(self.banker) if word == HIDDEN)
        up = (self.players == PUBLIC, self.banker[0] == PUBLIC, self.banker[1] == PUBLIC)
        object.__setattr__(self, "hidden_places", hidden)
        object.__setattr__(self, "dealt_up", up)


DEFAULT = Visibility()


def read_visibility(located: Located, raw: Any) -> Visibility:
    """`banking.visibility`: `{players: WORD, banker: [WORD, WORD]}`, each part optional."""
    path = ("banking", "visibility")
    if raw is None:
        return DEFAULT
    if not isinstance(raw, dict) or not set(raw) <= {"players", "banker"}:
        raise located.error(path, "expected `{players: WORD, banker: [WORD, WORD]}`")
    players = raw.get("players", DEFAULT.players)
    banker = raw.get("banker", list(DEFAULT.banker))
    if players not in WORDS:
        raise _word_error(located, path + ("players",))
    if not isinstance(banker, list) or len(banker) != DEALT:
        raise located.error(path + ("banker",), "the banker's two dealt cards: `[WORD, WORD]`")
    for place, word in enumerate(banker):
        if word not in WORDS:
            raise _word_error(located, path + ("banker", place))
    return Visibility(str(players), (str(banker[0]), str(banker[1])))


def _word_error(located: Located, path: tuple[Any, ...]) -> SpecError:
    return located.error(path, "who sees the card: " + ", ".join(f"`{w}`" for w in WORDS))


__all__ = ["DEFAULT", "HIDDEN", "OWNER", "PUBLIC", "Visibility", "read_visibility"]
