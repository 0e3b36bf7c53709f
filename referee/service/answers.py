"""What the service answers a caller: a table created, a ruling on a proposal, a seat's view."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from referee.engine.game import Game
from referee.engine.table import Table
from referee.i18n.verdicts import verdict_worded, with_hints
from referee.model import JSON, Move, Verdict
from referee.redaction import verdict_for
from referee.service.spoken import Teller, spoken_verdict


@dataclass(frozen=True)
class CreatedTable:
    table_id: str
    tokens: dict[int, str]  # seat -> secret token, given out once
    commitment: str
    version: int
    deal_commitment: str = ""  # sha256 of the seed chain's root (docs/fair-deal.md)


@dataclass(frozen=True)
class Ruling:
    """The answer to one proposal as the proposing seat may see it (`redaction.verdict_for`,
    `redaction.events_for`): the verdict names no card hidden from it."""

    verdict: Verdict
    seat: int
    move_id: str
    events: list[dict[str, JSON]]
    replayed: bool = False  # a retried move_id: this is the first verdict, given again
    texts: list[str] = field(default_factory=list)  # what each event says, in the seat's language

    def worded(self, table: Table, move: Move, languages: Sequence[str]) -> Ruling:
        """The ruling as its seat is told: worded in its language, then through the redaction
        point (a sentence in any language names no card hidden from the seat), then with its
        cards as players write them."""
        game = table.game
        language = game.language(languages)

        def seen(verdict: Verdict) -> Verdict:
            return verdict_for(table, self.seat, move, verdict)

        teller = Teller(game.spec.mechanics, language, game.spec.pack_kind)
        return replace(
            self,
            verdict=told_verdict(game, self.verdict, language, seen),
            texts=teller.tell_all(self.events),
        )


def told_verdict(
    game: Game,
    verdict: Verdict,
    language: str,
    seen: Callable[[Verdict], Verdict] = lambda verdict: verdict,
) -> Verdict:
    """`verdict` as people read it: worded in `language`, cut to what its reader may see
    (`seen`: the redaction point, so that no sentence names a card hidden from it), with each
    fix's hint, and cards as players write them."""
    worded = verdict_worded(verdict, game.texts, language, game.spec.words)
    told = with_hints(seen(worded), language)
    return spoken_verdict(told, game.spec.pack_kind, language)


@dataclass(frozen=True)
class SeatView:
    view: dict[str, JSON]
    version: int
    seat: int | None  # None: the public (spectator) view
    commitment: str
    over: bool
    rules_version: (
        str  # the table's own: it keeps it when the spec changes (`referee.engine.versions`)
    )


@dataclass(frozen=True)
class GivenRecord:
    text: str  # the signed record, as signed (referee.records.seal)
    full: bool  # False: what one seat, or a spectator, may see of a table in play
