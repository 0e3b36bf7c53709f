"""The last step of a sentence before it is sent: its cards written as players write them
(`referee.cards.spoken`: `7♥`, `rei de espadas`), after the redaction point, which reads the
cards' codes. A violation's `cards` and `fix`, and an event's data, keep the codes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from referee.cards import spoken
from referee.i18n.events import Narrator
from referee.i18n.language import ENGLISH
from referee.model import JSON, Verdict


def spoken_verdict(verdict: Verdict, pack: str, language: str) -> Verdict:
    """`verdict` with the cards of its messages and hints as players write them."""
    if not verdict.violations:
        return verdict
    return replace(
        verdict,
        violations=tuple(
            replace(
                v, message=spoken(v.message, pack, language), hint=spoken(v.hint, pack, language)
            )
            for v in verdict.violations
        ),
    )


@dataclass(frozen=True)
class Teller:
    """Tells events as players read them: the narrator's sentences (`referee.i18n.events`),
    their cards written as players write the cards of the game's `pack`."""

    mechanic: str
    language: str = ENGLISH
    pack: str = "french"

    def tell_all(self, seen: Iterable[Mapping[str, JSON]]) -> list[str]:
        narrator = Narrator(self.mechanic, self.language)
        return [spoken(text, self.pack, self.language) for text in narrator.tell_all(seen)]
