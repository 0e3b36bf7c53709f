"""What an event says to people, in their language (`events.yaml`), from the event as the receiver
sees it: a sentence showing a field the receiver may not see is never chosen, so the text of an
event tells no more than its data (a seat reads `you drew 7H`, the others `seat 2 drew a card`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from referee.i18n.catalogue import CATALOGUE, placeholders
from referee.i18n.language import ENGLISH
from referee.model import JSON, Sentence


@dataclass(frozen=True)
class Narrator:
    """Tells the events of one mechanic's tables in one language."""

    mechanic: str
    language: str = ENGLISH

    def tell(self, seen: Mapping[str, JSON]) -> str:
        """The sentence for an event as `Event.seen_by` gives it; empty for a kind with none."""
        kind = seen.get("kind")
        shown = {
            name: value for name, value in seen.items() if name != "kind" and value is not None
        }
        for key in (f"event.{self.mechanic}.{kind}", f"event.{kind}"):
            for variant in (key, f"{key}.hidden"):
                sentence = CATALOGUE.entries.get(variant)
                if sentence is not None and placeholders(sentence.get(ENGLISH, "")) <= set(shown):
                    return CATALOGUE.render(Sentence(variant, shown), self.language)
        return ""

    def tell_all(self, seen: Iterable[Mapping[str, JSON]]) -> list[str]:
        return [self.tell(event) for event in seen]
