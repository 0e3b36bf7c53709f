"""Cards as immutable values that round-trip through their text codes (RULES.md GEN-2).

French packs (Pontinho, Pontoon): rank `A 2 3 4 5 6 7 8 9 T J Q K` + suit `S H D C`.
Tarot pack (Piedicavallo): suit cards with ranks `K Q N J T 9..2 A` and suits `S B C D`,
trumps `T1`..`T21` (suit `T`) and the Matto `MT`.
Parsing is case-insensitive and accepts `10` for `T`; `str()` is always canonical.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache

from referee.errors import CardError
from referee.i18n.language import ENGLISH
from referee.model import Sentence


class PackKind(str, Enum):
    FRENCH = "french"
    TAROT = "tarot"


FRENCH_RANKS = "A23456789TJQK"
FRENCH_SUITS = "SHDC"
TAROT_RANKS = "A23456789TJNQK"
TAROT_SUITS = "SBCD"
TRUMP_SUIT = "T"
MATTO = "MT"

# Numeric rank of each rank letter: ace 1 .. ten 10, jack 11, queen 12, king 13. The tarot knight,
# which French packs lack, is 14: a code that tells it apart, not a strength. Only French ranks
# need arithmetic (sequences); tarot strength and points come from the spec's definitions.
FRENCH_RANK_VALUE = {r: i + 1 for i, r in enumerate(FRENCH_RANKS)}
KNIGHT_VALUE = 14

_TRUMP_CODE = re.compile(r"^T([1-9]|1[0-9]|2[01])$")


@dataclass(frozen=True, order=True)  # no slots: `cached_property` keeps what is read often
class Card:
    """One card. `rank` and `suit` are canonical letters; trumps have suit `T` and rank `1`..`21`."""

    rank: str
    suit: str

    @cached_property
    def value(self) -> int:
        """The numeric rank: A=1 .. K=13, the tarot knight 14 (trumps: their number, the Matto 0)."""
        if self.suit == TRUMP_SUIT:
            return int(self.rank) if self.rank != "M" else 0
        return FRENCH_RANK_VALUE[self.rank] if self.rank != "N" else KNIGHT_VALUE

    @cached_property
    def code(self) -> str:
        """The canonical text code (`str(card)`)."""
        if self.suit == TRUMP_SUIT:
            return MATTO if self.rank == "M" else f"T{self.rank}"
        return f"{self.rank}{self.suit}"

    @classmethod
    def parse(cls, text: str, pack: PackKind = PackKind.FRENCH) -> Card:
        if not isinstance(text, str):
            raise CardError(Sentence("card.not_text", {"given": repr(text)}))
        code = text.strip().upper()
        known = _PARSED[pack]
        card = known.get(code)
        if card is None:
            card = _parse_tarot(code, text) if pack is PackKind.TAROT else _parse_french(code, text)
            known[code] = card  # a valid code only: at most a few hundred entries
        return card

    @property
    def is_red(self) -> bool:
        return self.suit in ("H", "D")

    def __eq__(self, other: object) -> bool:
        """The dataclass's equality (rank and suit), written out: judging compares cards a
        great deal, and this one builds no tuples."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.rank == other.rank and self.suit == other.suit

    def __hash__(self) -> int:
        """The dataclass's hash (of rank and suit), worked out once a card: cards are keys of
        many sets and dicts while judging."""
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.rank, self.suit))

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        """Copied or pickled as its rank and suit alone: a string's hash differs from one
        process to the next, so the kept one must not travel."""
        return Card, (self.rank, self.suit)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        if self.suit in ("B", TRUMP_SUIT) or self.rank == "N":  # codes only the tarot pack has
            return f"Card.parse({str(self)!r}, PackKind.TAROT)"
        return f"Card.parse({str(self)!r})"


# what each pack's codes, once read, are (a card is immutable: one object serves every reading)
_PARSED: dict[PackKind, dict[str, Card]] = {pack: {} for pack in PackKind}


def _parse_french(code: str, original: str) -> Card:
    if code.startswith("10"):
        code = "T" + code[2:]
    if len(code) != 2 or code[0] not in FRENCH_RANKS or code[1] not in FRENCH_SUITS:
        raise CardError(
            Sentence(
                "card.malformed_french",
                {
                    "given": original,
                    "ranks": " ".join(FRENCH_RANKS),
                    "suits": " ".join(FRENCH_SUITS),
                },
            )
        )
    return Card(code[0], code[1])


def _parse_tarot(code: str, original: str) -> Card:
    if code == MATTO:
        return Card("M", TRUMP_SUIT)
    match = _TRUMP_CODE.match(code)
    if match:
        return Card(match.group(1), TRUMP_SUIT)
    if code.startswith("10"):
        code = "T" + code[2:]
    if len(code) != 2 or code[0] not in TAROT_RANKS or code[1] not in TAROT_SUITS:
        raise CardError(
            Sentence("card.malformed_tarot", {"given": original, "suits": " ".join(TAROT_SUITS)})
        )
    return Card(code[0], code[1])


def parse_cards(texts: Iterable[str], pack: PackKind = PackKind.FRENCH) -> tuple[Card, ...]:
    return tuple(Card.parse(t, pack) for t in texts)


def french_pack(copies: int = 1) -> list[Card]:
    """Every card of `copies` French 52-card packs, in a fixed order (suit by suit, A..K)."""
    one = [Card(r, s) for s in FRENCH_SUITS for r in FRENCH_RANKS]
    return [c for c in one for _ in range(copies)]


def tarot_pack() -> list[Card]:
    """The 78-card tarot pack in a fixed order: each suit A..K with the knight, T1..T21, the Matto."""
    suits = [Card(r, s) for s in TAROT_SUITS for r in TAROT_RANKS]
    return suits + [Card(str(n), TRUMP_SUIT) for n in range(1, 22)] + [Card("M", TRUMP_SUIT)]


def pack(kind: str, copies: int = 1, without: Iterable[str] = ()) -> list[Card]:
    """The cards of a spec's `pack:`: `copies` packs of `kind`, less the cards `without` names."""
    kind_ = PackKind(kind)
    one = french_pack() if kind_ is PackKind.FRENCH else tarot_pack()
    removed = set(parse_cards(without, kind_))
    missing = removed - set(one)
    if missing:
        raise CardError(f"`{sorted(map(str, missing))[0]}` is not a card of the {kind} pack")
    return [c for c in one if c not in removed for _ in range(copies)]


def codes(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


# A card code written inside text (a message): upper case, on its own (not part of a word, a
# number or a rule id such as `GEN-4`).
_CODE_IN_TEXT = {
    PackKind.FRENCH: r"(?:10|[A2-9TJQK])[SHDC]",
    PackKind.TAROT: r"T(?:1[0-9]|2[01]|[1-9])|MT|(?:10|[A2-9TJNQK])[SBCD]",
}
CODE_IN_TEXT = {
    kind: re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])")
    for kind, pattern in _CODE_IN_TEXT.items()
}
# A whole card code as a client should send it (upper case; `10` may stand for `T`): the
# `pattern` of a card in the typed contract (referee/schemas). The parser is laxer: any case.
CODE_PATTERN = {kind: f"^(?:{pattern})$" for kind, pattern in _CODE_IN_TEXT.items()}


def codes_in(text: str, pack: PackKind = PackKind.FRENCH) -> list[str]:
    """The canonical codes of the cards written in `text` (`"you do not hold `10H`"` -> `TH`)."""
    return [str(Card.parse(m.group(0), pack)) for m in CODE_IN_TEXT[pack].finditer(text)]


def missing_from(hand: Iterable[Card], wanted: Iterable[Card]) -> list[Card]:
    """The cards of `wanted` (a multiset) that `hand` does not hold."""
    have = Counter(hand)
    missing: list[Card] = []
    for card in wanted:
        if have[card] > 0:
            have[card] -= 1
        else:
            missing.append(card)
    return missing


def remove_cards(hand: list[Card], cards: Iterable[Card]) -> None:
    """Remove each card once from `hand` (the caller checked that it holds them)."""
    for card in cards:
        hand.remove(card)


# -- cards as players write them ---------------------------------------------------------------
# A sentence is kept and redacted with the cards' codes in it (`referee.redaction` finds and cuts
# them); a player reads the card itself, in the last step before a sentence is sent (a verdict's
# message and hint, an event's text, an explanation's line: `referee.service`). French cards as on
# their faces, rank and suit sign, in every language (`7♥`, `10♠`, `A♣`); tarot cards, which have
# no such signs, in words (`king of swords`, `rei de espadas`, `trump 21`, `the Matto`). A card
# hidden from the reader (`??`) stays `??`.
SPOKEN_RANKS = {"T": "10"}
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# the tarot's words (the suits as the seeds name them, and the spec's `words:`)
TAROT: Mapping[str, Mapping[str, str]] = {
    "en": {
        "S": "swords", "B": "batons", "C": "cups", "D": "coins",
        "K": "king", "Q": "queen", "N": "knight", "J": "jack", "A": "ace",
        "of": "{rank} of {suit}", "trump": "trump {number}", "matto": "the Matto",
    },
    "pt": {
        "S": "espadas", "B": "bastões", "C": "copas", "D": "moedas",
        "K": "rei", "Q": "dama", "N": "cavalo", "J": "valete", "A": "ás",
        "of": "{rank} de {suit}", "trump": "trunfo {number}", "matto": "o Matto",
    },
}  # fmt: skip


def card_words(card: Card, pack: PackKind, language: str = ENGLISH) -> str:
    """How a player writes `card` in `language`."""
    if pack is PackKind.FRENCH:
        return SPOKEN_RANKS.get(card.rank, card.rank) + SUIT_SIGNS[card.suit]
    words = TAROT.get(language, TAROT[ENGLISH])
    if card.code == MATTO:
        return words["matto"]
    if card.suit == TRUMP_SUIT:
        return words["trump"].format(number=card.rank)
    rank = words.get(card.rank, "10" if card.rank == "T" else card.rank)
    return words["of"].format(rank=rank, suit=words[card.suit])


def spoken(text: str, pack: PackKind | str, language: str = ENGLISH) -> str:
    """`text` with each card code it shows written as players write the card."""
    kind = PackKind(pack)
    return CODE_IN_TEXT[kind].sub(lambda m: _card_words(m.group(0), kind, language), text)


def _card_words(code: str, pack: PackKind, language: str) -> str:
    try:
        return card_words(Card.parse(code, pack), pack, language)
    except CardError:  # `CODE_IN_TEXT` finds only codes; kept as written all the same
        return code


def cards_said(text: str, pack: PackKind | str, language: str = ENGLISH) -> list[str]:
    """The codes of the cards `text` names as players write them (`7♥` -> `7H`): what a check
    that a sentence names no hidden card reads, now that sentences show no codes."""
    words, pattern = _said(PackKind(pack), language)
    return [words[m.group(0)] for m in pattern.finditer(text)]


@lru_cache(maxsize=16)
def _said(pack: PackKind, language: str) -> tuple[dict[str, str], re.Pattern[str]]:
    cards = french_pack() if pack is PackKind.FRENCH else tarot_pack()
    words = {card_words(card, pack, language): card.code for card in cards}
    longest_first = sorted(words, key=len, reverse=True)  # `10♥` before `0♥`, `trump 21` before 2
    pattern = "|".join(re.escape(w) for w in longest_first)
    return words, re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])")
