"""The bot of last resort, for any spec: it plays what the seat's view lists as `legal` (move
type -> what it may take, `referee.engine.table.Table.legal`) and mends a rejected proposal by
the fix its rejection offers. It knows no game and no mechanic: only the spec's moves (which
field a listed card or number goes in) and the shapes `legal` and a fix are written in
(docs/api.md). A mechanic's own bot plays first (the seed games' golden transcripts are its);
this one is asked when that bot's moves are spent with nothing taken, and plays every seat with
`referee play --bot legal`."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from typing import Any

from referee.spec.schema import MoveSpec

Move = dict[str, Any]
PER_TYPE = 24  # at most so many moves of one type are proposed in a turn
TABLE_MOVES = frozenset({"contribute", "dispute", "ruling", "reissue"})  # no move of the game


def game_moves(legal: Mapping[str, Any], moves: Mapping[str, MoveSpec]) -> list[str]:
    """The move types of the game among those `legal` lists (not the table's own, as
    `contribute`)."""
    return [t for t in legal if t in moves and t not in TABLE_MOVES]


def legal_candidates(
    legal: Mapping[str, Any], moves: Mapping[str, MoveSpec], rng: random.Random
) -> Iterator[Move]:
    """Moves made of the listed legal ones, the types in a random order, a few of each."""
    types = game_moves(legal, moves)
    rng.shuffle(types)
    for move_type in types:
        made = list(moves_of(move_type, legal[move_type], moves[move_type], rng))
        rng.shuffle(made)
        yield from made[:PER_TYPE]


def moves_of(move_type: str, entry: Any, spec: MoveSpec, rng: random.Random) -> Iterator[Move]:
    """The moves one `legal` entry stands for: `{}` the move alone; `{cards}` one card each;
    `{count, cards}` sets of so many; `{count, choices}` / `{melds}` each set; `{onto}` /
    `{uses}` each list of fields; `{min, max}` the move's number (each number's by name)."""
    if not isinstance(entry, Mapping):
        return
    if not entry:
        yield {"type": move_type}
    for key in ("choices", "melds", "onto", "uses"):
        for choice in entry.get(key) or ():
            yield _with(move_type, choice, spec)
    cards = entry.get("cards")
    if isinstance(cards, list) and "count" in entry:
        sets = list(itertools.combinations(cards, int(entry["count"])))
        rng.shuffle(sets)
        for chosen in sets[:PER_TYPE]:
            yield _with(move_type, list(chosen), spec)
    elif isinstance(cards, list):
        for card in cards:
            yield _with(move_type, card, spec)
    numbers = _numbers(entry, spec, rng)
    if numbers:
        yield {"type": move_type, **numbers}


def mended(move: Mapping[str, Any], fix: Mapping[str, Any], spec: MoveSpec | None) -> list[Move]:
    """The moves a rejection's fix says would do instead of `move`: another card
    (`play_one_of`), a number in range (`amount_range`), so many of the cards (`choose_from`),
    another move (`move_instead`); any other fix's values that name fields of the move replace
    them (a lay-off's `meld` and `cards`)."""
    kind = fix.get("kind")
    if kind == "move_instead":
        return [{"type": str(t)} for t in fix.get("moves") or ()]
    if spec is None:
        return []
    if kind == "play_one_of":
        return [_with(spec.type, card, spec, base=move) for card in fix.get("cards") or ()]
    if kind == "amount_range":
        return [{**move, str(fix["field"]): fix[end]} for end in ("min", "max")]
    if kind == "choose_from":
        chosen = list(fix.get("cards") or ())[: int(fix.get("count", 0))]
        return [_with(spec.type, chosen, spec, base=move)]
    named = {k: v for k, v in fix.items() if k in {f.name for f in spec.fields}}
    return [{**move, **named}] if named else []


def _with(
    move_type: str, value: Any, spec: MoveSpec, base: Mapping[str, Any] | None = None
) -> Move:
    """The move with `value` in its place: a mapping is fields as they are; a list of cards
    goes in the move's many-card field; a card in its one-card field (else as a list of one)."""
    move: Move = {**(base or {}), "type": move_type}
    if isinstance(value, Mapping):
        return {**move, **value}
    kinds = {f.type: f.name for f in reversed(spec.fields)}
    many = kinds.get("cards") or kinds.get("list_of_cards")
    if isinstance(value, list):
        return {**move, many or "cards": value}
    if "card" in kinds:
        return {**move, kinds["card"]: value}
    return {**move, many or "card": [value]}


def _numbers(entry: Mapping[str, Any], spec: MoveSpec, rng: random.Random) -> Move:
    """A number in each listed range: `{min, max}` for the move's one required number, or
    `{name: {min, max}}` for each by name."""
    ints = [f.name for f in spec.fields if f.type == "int" and not f.optional]
    ranges = {name: r for name, r in entry.items() if isinstance(r, Mapping) and "min" in r}
    if "min" in entry and "max" in entry and ints:
        ranges = {ints[0]: entry}
    return {name: rng.randint(int(r["min"]), int(r["max"])) for name, r in ranges.items()}
