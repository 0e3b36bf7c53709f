"""What an event says to people, in their language (`events.yaml`), from the event as the receiver
sees it: a sentence showing a field the receiver may not see is never chosen, so the text of an
event tells no more than its data (a seat reads `you drew 7H`, the others `seat 2 drew a card`).
A seat's hands are counted from 1, a transfer's places and reason said in words; the cards are
written as players write them when the text is sent (`referee.cards.spoken`, in the service)."""

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
                    said = Sentence(variant, self._in_words(kind, shown))
                    return CATALOGUE.render(said, self.language)
        return ""

    def tell_all(self, seen: Iterable[Mapping[str, JSON]]) -> list[str]:
        return [self.tell(event) for event in seen]

    def _in_words(self, kind: JSON, shown: Mapping[str, JSON]) -> dict[str, JSON]:
        """The values as players count and name them: a seat's hand from 1, and where a
        transfer's chips go from and to, and why."""
        said = dict(shown)
        if isinstance(said.get("hand"), int):
            said["hand"] = said["hand"] + 1
        if kind != "transfer":
            return said
        for end in ("from", "to"):  # a seat, or a place
            if end in said:
                said[end] = self._place(end, said[end])
        if "reason" in said:
            said["reason"] = CATALOGUE.word("reason", str(said["reason"]), self.language)
        return said

    def _place(self, end: str, where: JSON) -> Sentence:
        if isinstance(where, int):
            return Sentence(f"word.{end}.seat", {"seat": where})
        return Sentence(f"word.{end}.{where}")
