"""Symbolic values for the z3 encoding, and small folding helpers over them.

Representation (the encoder, and every vocabulary z3 implementation, sees these):
- int: a python `int` or a z3 `ArithRef`; bool: a python `bool` or a z3 `BoolRef`;
- str: a python `str` when known, else `SymStr(code)`: an integer code per string (`STRINGS`);
- card: `SymCard(rank, suit)`, rank 1..13 (`Card.value`) and the suit's string code, each a
  python int when known (a lifted concrete card) or a z3 term;
- list: `SymList(items, flags)` of concrete length: item k is in the list iff flag k holds,
  so `filter` over a symbolic predicate keeps its length and only masks its items;
- record: a `dict` of field values.
Every helper folds python constants, so a concrete part of a formula costs nothing in z3.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from referee.cards import FRENCH_RANKS, FRENCH_SUITS, KNIGHT_VALUE, TRUMP_SUIT, Card

Sym = Any  # one of the representations above
BoolLike = Any  # bool | z3.BoolRef
IntLike = Any  # int | z3.ArithRef


class StringCodes:
    """A process-wide, stable code per string. Suits come first, so their codes are fixed."""

    def __init__(self, first: Iterable[str]) -> None:
        self._codes: dict[str, int] = {}
        self._names: list[str] = []
        self._lock = threading.Lock()
        for text in first:
            self.code(text)

    def code(self, text: str) -> int:
        found = self._codes.get(text)
        if found is not None:
            return found
        with self._lock:
            return self._codes.setdefault(text, self._add(text))

    def _add(self, text: str) -> int:
        if text in self._codes:
            return self._codes[text]
        self._names.append(text)
        return len(self._names)

    def name(self, code: int) -> str:
        if 1 <= code <= len(self._names):
            return self._names[code - 1]
        return f"<str#{code}>"


STRINGS = StringCodes([*FRENCH_SUITS, TRUMP_SUIT, "B"])
FRENCH_SUIT_CODES = tuple(STRINGS.code(s) for s in FRENCH_SUITS)


def is_sym(value: Any) -> bool:
    return isinstance(value, z3.ExprRef)


# ---- booleans and integers ----------------------------------------------------------------


def s_not(a: BoolLike) -> BoolLike:
    return (not a) if isinstance(a, bool) else z3.Not(a)


def s_and(*terms: BoolLike) -> BoolLike:
    rest = []
    for term in terms:
        if term is False:
            return False
        if term is not True:
            rest.append(term)
    return True if not rest else rest[0] if len(rest) == 1 else z3.And(*rest)


def s_or(*terms: BoolLike) -> BoolLike:
    rest = []
    for term in terms:
        if term is True:
            return True
        if term is not False:
            rest.append(term)
    return False if not rest else rest[0] if len(rest) == 1 else z3.Or(*rest)


def s_implies(a: BoolLike, b: BoolLike) -> BoolLike:
    return s_or(s_not(a), b)


def s_if(cond: BoolLike, a: Sym, b: Sym) -> Sym:
    """`if cond then a else b` over any representation (lists and records element-wise)."""
    if isinstance(cond, bool):
        return a if cond else b
    if a is b or (not is_sym(a) and not is_sym(b) and type(a) is type(b) and _plain(a) and a == b):
        return a
    if isinstance(a, SymList):
        return _list_if(cond, a, b)
    if isinstance(a, SymCard):
        return SymCard(s_if(cond, a.rank, b.rank), s_if(cond, a.suit, b.suit))
    if isinstance(a, (str, SymStr)):
        return SymStr(z3.If(cond, str_code(a), str_code(b)))
    if isinstance(a, dict):
        return {k: s_if(cond, a[k], b[k]) for k in a}
    return z3.If(cond, a, b)


def _plain(value: Any) -> bool:
    return isinstance(value, (bool, int, str))


def s_sum(terms: Iterable[IntLike]) -> IntLike:
    total, rest = 0, []
    for term in terms:
        if isinstance(term, int):
            total += term
        else:
            rest.append(term)
    if not rest:
        return total
    summed = rest[0] if len(rest) == 1 else z3.Sum(*rest)
    return summed + total if total else summed


def s_count(flags: Iterable[BoolLike]) -> IntLike:
    return s_sum(int(f) if isinstance(f, bool) else z3.If(f, 1, 0) for f in flags)


def s_lt(a: IntLike, b: IntLike) -> BoolLike:
    return a < b  # a python bool when both are ints, else a z3 term


def s_min(a: IntLike, b: IntLike) -> IntLike:
    return min(a, b) if not is_sym(a) and not is_sym(b) else z3.If(a <= b, a, b)


def s_max(a: IntLike, b: IntLike) -> IntLike:
    return max(a, b) if not is_sym(a) and not is_sym(b) else z3.If(a >= b, a, b)


def s_abs(a: IntLike) -> IntLike:
    return abs(a) if not is_sym(a) else z3.If(a >= 0, a, -a)


# ---- strings and cards --------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SymStr:
    """A string known only by its code (see `STRINGS`)."""

    code: IntLike

    @staticmethod
    def fresh(name: str, choices: Sequence[str] = ()) -> tuple[SymStr, list[BoolLike]]:
        """A symbolic string; with `choices`, constrained to be one of them."""
        var = z3.Int(name)
        domain = [s_or(*(var == STRINGS.code(c) for c in choices))] if choices else []
        return SymStr(var), domain


def str_code(value: str | SymStr) -> IntLike:
    return STRINGS.code(value) if isinstance(value, str) else value.code


def str_value(code: IntLike) -> str | SymStr:
    """A python str when the code is known, else a `SymStr`."""
    return STRINGS.name(code) if isinstance(code, int) else SymStr(code)


@dataclass(frozen=True, eq=False)
class SymCard:
    """A card as its numeric rank (`Card.value`) and its suit's string code."""

    rank: IntLike
    suit: IntLike

    @staticmethod
    def fresh(name: str, domain: CardDomain | None = None) -> tuple[SymCard, list[BoolLike]]:
        """A symbolic card and its domain: a French card (rank 1..13, suit one of `S H D C`),
        or one of the cards of `domain` (`CardDomain.of(pack)`)."""
        rank, suit = z3.Int(f"{name}.rank"), z3.Int(f"{name}.suit")
        return SymCard(rank, suit), (domain or FRENCH_DOMAIN).constraints(rank, suit)

    @staticmethod
    def lift(card: Card) -> SymCard:
        return SymCard(card.value, STRINGS.code(card.suit))

    def decode(self, model: z3.ModelRef) -> Card:
        """The concrete French card (or trump) a model gives this symbolic card."""
        rank = (
            _as_int(model.eval(self.rank, model_completion=True))
            if is_sym(self.rank)
            else self.rank
        )
        suit = (
            _as_int(model.eval(self.suit, model_completion=True))
            if is_sym(self.suit)
            else self.suit
        )
        return card_of(rank, STRINGS.name(suit))


@dataclass(frozen=True)
class CardDomain:
    """The cards a symbolic card may be: for each suit code, the numeric ranks it holds."""

    ranks: tuple[tuple[int, tuple[int, ...]], ...]  # (suit code, its ranks ascending), by suit

    @staticmethod
    def of(cards: Iterable[Card]) -> CardDomain:
        """The distinct cards of a pack (a spec's `pack()`), whatever their copies."""
        by_suit: dict[int, set[int]] = {}
        for card in cards:
            by_suit.setdefault(STRINGS.code(card.suit), set()).add(card.value)
        return CardDomain(tuple((code, tuple(sorted(ranks))) for code, ranks in by_suit.items()))

    def constraints(self, rank: z3.ArithRef, suit: z3.ArithRef) -> list[BoolLike]:
        """Every suit with the same ranks, a range (the French pack): `lo <= rank <= hi` and the
        suit one of them; otherwise, for some suit, the rank one of its ranges."""
        runs = {ranks for _, ranks in self.ranks}
        if len(runs) == 1 and len(_runs(next(iter(runs)))) == 1:
            low, high = _runs(next(iter(runs)))[0]
            return [rank >= low, rank <= high, z3.Or(*(suit == c for c, _ in self.ranks))]
        return [
            s_or(
                *(
                    s_and(suit == code, s_or(*(_within_run(rank, run) for run in _runs(ranks))))
                    for code, ranks in self.ranks
                )
            )
        ]


def _runs(ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    """Ascending ranks as runs of consecutive ones: (2, 3, 4, 7) -> [(2, 4), (7, 7)]."""
    runs: list[tuple[int, int]] = []
    for r in ranks:
        if runs and runs[-1][1] == r - 1:
            runs[-1] = (runs[-1][0], r)
        else:
            runs.append((r, r))
    return runs


def _within_run(rank: z3.ArithRef, run: tuple[int, int]) -> BoolLike:
    low, high = run
    return rank == low if low == high else s_and(rank >= low, rank <= high)


FRENCH_DOMAIN = CardDomain(tuple((code, tuple(range(1, 14))) for code in FRENCH_SUIT_CODES))


def card_of(rank: int, suit: str) -> Card:
    """The card with numeric rank `rank` (1..13, or a trump's number) in `suit`."""
    if suit == TRUMP_SUIT:
        return Card(str(rank) if rank else "M", suit)
    return Card("N" if rank == KNIGHT_VALUE else FRENCH_RANKS[rank - 1], suit)


def _as_int(term: Any) -> int:
    return int(term.as_long())


def s_eq(a: Sym, b: Sym) -> BoolLike:
    """Equality over any representation (the `==` of the language)."""
    if isinstance(a, SymList):
        return list_eq(a, b)
    if isinstance(a, SymCard):
        return s_and(s_eq(a.rank, b.rank), s_eq(a.suit, b.suit))
    if isinstance(a, dict):  # like the interpreter: records with other fields differ
        return s_and(*(s_eq(a[k], b[k]) for k in a)) if set(a) == set(b) else False
    if isinstance(a, (str, SymStr)) or isinstance(b, (str, SymStr)):
        if isinstance(a, str) and isinstance(b, str):
            return a == b
        return s_eq(str_code(a), str_code(b))
    if is_sym(a) or is_sym(b):
        return a == b
    return bool(a == b)


# ---- lists --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SymList:
    """A list of concrete length whose item k is present iff `flags[k]` (True for plain lists)."""

    items: tuple[Sym, ...]
    flags: tuple[BoolLike, ...]

    @staticmethod
    def of(items: Iterable[Sym]) -> SymList:
        items = tuple(items)
        return SymList(items, (True,) * len(items))

    @property
    def plain(self) -> bool:
        return all(f is True for f in self.flags)

    def size(self) -> IntLike:
        return s_count(self.flags)

    def prefix_counts(self) -> list[IntLike]:
        """For each slot, how many present items come before it (its index if present)."""
        counts: list[IntLike] = []
        running: list[BoolLike] = []
        for flag in self.flags:
            counts.append(s_count(running))
            running.append(flag)
        return counts

    def compact(self) -> tuple[list[Sym], IntLike]:
        """Slots k < size hold the k-th present item: the list as an array plus its size."""
        if self.plain:
            return list(self.items), len(self.items)
        prefix = self.prefix_counts()
        slots = [self._kth(k, prefix) for k in range(len(self.items))]
        return slots, self.size()

    def _kth(self, k: int, prefix: list[IntLike]) -> Sym:
        # item j is the k-th present iff flag j and exactly k present items precede it (j >= k)
        result = self.items[-1]
        for j in range(len(self.items) - 1, k - 1, -1):
            result = s_if(s_and(self.flags[j], s_eq(prefix[j], k)), self.items[j], result)
        return result

    def at(self, index: IntLike) -> tuple[Sym, BoolLike]:
        """The item at `index` among present items, and whether `index` is out of range."""
        slots, size = self.compact()
        out = s_or(s_lt(index, 0), s_not(s_lt(index, size)))
        if not slots:
            return None, out
        if not is_sym(index):
            return slots[min(max(index, 0), len(slots) - 1)], out
        result = slots[-1]
        for k in range(len(slots) - 2, -1, -1):
            result = s_if(index == k, slots[k], result)
        return result, out


def list_eq(a: SymList, b: SymList) -> BoolLike:
    slots_a, size_a = a.compact()
    slots_b, size_b = b.compact()
    same = [
        s_implies(s_lt(k, size_a), s_eq(x, y)) for k, (x, y) in enumerate(zip(slots_a, slots_b))
    ]
    return s_and(s_eq(size_a, size_b), *same)


def _list_if(cond: BoolLike, a: SymList, b: SymList) -> SymList:
    """Slot-wise choice; the shorter list is padded with absent copies of the other's items."""
    n = max(len(a.items), len(b.items))
    items, flags = [], []
    for k in range(n):
        item_a = a.items[k] if k < len(a.items) else b.items[k]
        item_b = b.items[k] if k < len(b.items) else a.items[k]
        flag_a = a.flags[k] if k < len(a.flags) else False
        flag_b = b.flags[k] if k < len(b.flags) else False
        items.append(s_if(cond, item_a, item_b))
        flags.append(s_if(cond, flag_a, flag_b))
    return SymList(tuple(items), tuple(flags))


def s_member(item: Sym, xs: SymList) -> BoolLike:
    return s_or(*(s_and(f, s_eq(x, item)) for x, f in zip(xs.items, xs.flags)))


def s_occurrences(item: Sym, xs: SymList) -> IntLike:
    return s_count(s_and(f, s_eq(x, item)) for x, f in zip(xs.items, xs.flags))
