"""A spec's play clock (issue 16): the table options every game with a `clock:` section takes,
and the moves the referee plays for a seat whose time ran out (`on_timeout: auto`), as data.

```yaml
clock:
  source: [decision]
  auto:                       # tried in order; the first the rules accept is played for the seat
    - move: draw
    - move: discard           # each card the mechanic lists, the lowest `prefer` first
      prefer: 'if move.card == hand[size(hand) - 1] then 0 else 1'
    - move: bet
      fields: {amount: options.min_bet}
```

A spec's `house:` section lists the same entries for a house seat, whose every move the table
plays itself (`Mechanic.house`, `play_clock.house_play`): a casino dealer's forced draws.

An entry names a move of the spec; the moves are played while the table still waits for the
seat, but none after one marked `last: true` (a banker who sticks does not deal the next hand
too: that is the next timeout's). `fields` gives a field's value by an expression of the move's
checkpoint (not of `move`: there is none yet); the fields it leaves out are the mechanic's to
list (`Mechanic.listed`: each card a one-card move may take...), tried in the order of `prefer`,
an `int` expression of the checkpoint with `move` the candidate, lowest first. Everything is
checked when the spec loads: a move the spec does not have, a field it does not declare, a field
neither given nor listed, an expression of the wrong type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.engine.mechanic import Mechanic
from referee.engine.moves import field_type
from referee.errors import SpecError, SpecErrors
from referee.spec.clock_options import CLOCK, SECTION_SHAPE
from referee.spec.expr import INT, Type
from referee.spec.rules import SpecExpression
from referee.spec.schema import GameSpec, expression_at
from referee.spec.sections import unknown_key

ENTRY_KEYS = ("move", "fields", "prefer", "last", "note")
HOUSE = "house"  # the section listing what the table plays for a house seat


@dataclass(frozen=True)
class AutoMove:
    """One entry of `clock.auto`: a move type, the fields the spec gives, and the order of the
    choices the mechanic lists for the others (None: as listed)."""

    move: str
    fields: Mapping[str, SpecExpression]
    prefer: SpecExpression | None
    listed: bool  # some field is the mechanic's to list
    last: bool = False  # the timeout plays nothing more for the seat after it


def read_auto_moves(
    spec: GameSpec, mechanic: Mechanic[Any], section_name: str = CLOCK
) -> tuple[AutoMove, ...]:
    """The spec's `clock.auto` (or `house.auto`: the same entries), checked against its moves
    and compiled; () without the section. Raises SpecErrors naming every mistake."""
    located = spec.located
    section = located.data.get(section_name) if isinstance(located.data, Mapping) else None
    if section is None:
        return ()
    if not isinstance(section, Mapping):
        raise SpecErrors([located.error((section_name,), f"`{section_name}` must be a mapping")])
    errors = [
        located.error(
            (section_name, key),
            unknown_key(str(key), SECTION_SHAPE, (section_name,)),
            at_key=True,
        )
        for key in section
        if key not in SECTION_SHAPE
    ]
    entries = section.get("auto")
    if not isinstance(entries, list) or not entries:
        errors.append(
            located.error(
                (section_name,), f"`{section_name}.auto` must list the moves the table plays"
            )
        )
        raise SpecErrors(errors)
    read = []
    for index, entry in enumerate(entries):
        try:
            read.append(_entry(spec, mechanic, (section_name, "auto", index), entry))
        except SpecErrors as exc:
            errors += exc.errors
    if errors:
        raise SpecErrors(errors)
    return tuple(read)


def _entry(spec: GameSpec, mechanic: Mechanic[Any], path: tuple[Any, ...], entry: Any) -> AutoMove:
    located = spec.located
    if not isinstance(entry, Mapping):
        raise SpecErrors(
            [located.error(path, f"an entry of `{path[0]}.auto` is a mapping: `{{move: ...}}`")]
        )
    errors: list[SpecError] = [
        located.error(
            path + (key,),
            f"unknown key `{key}`: expected one of {_ticked(ENTRY_KEYS)}",
            at_key=True,
        )
        for key in entry
        if key not in ENTRY_KEYS
    ]
    move = spec.moves.get(str(entry.get("move")))
    if move is None:
        known = _ticked(tuple(spec.moves))
        raise SpecErrors(
            [
                *errors,
                located.error(
                    path + ("move",),
                    f"`{entry.get('move')}` is no move of this spec: its moves are {known}",
                ),
            ]
        )
    if move.type not in mechanic.rules.programs:
        raise SpecErrors(
            [
                *errors,
                located.error(
                    path + ("move",), f"the move `{move.type}` has no checkpoint of its own to read"
                ),
            ]
        )
    declared = {f.name: f for f in move.fields}
    given = entry.get("fields") or {}
    if not isinstance(given, Mapping):
        raise SpecErrors(
            [
                *errors,
                located.error(path + ("fields",), "`fields` is a mapping of field to expression"),
            ]
        )
    fields = {}
    for name, text in given.items():
        where = path + ("fields", name)
        if name not in declared:
            errors.append(
                located.error(
                    where,
                    f"the move `{move.type}` has no field `{name}`: its fields are {_ticked(tuple(declared))}",
                    at_key=True,
                )
            )
            continue
        try:
            compiled = _expression(
                spec, mechanic, move.type, where, text, field_type(declared[name])
            )
        except SpecErrors as exc:
            errors += exc.errors
            continue
        if "move" in compiled.reads:
            errors.append(
                located.error(where, "a field's expression reads no `move`: the move is being made")
            )
        fields[str(name)] = compiled
    unlisted = [f.name for f in move.fields if not f.optional and f.name not in fields]
    if unlisted and move.type not in mechanic.listed:
        errors.append(
            located.error(
                path,
                f"the field `{unlisted[0]}` of `{move.type}` is given by no `fields` expression, "
                f"and the `{mechanic.name}` mechanic lists no choices of `{move.type}`",
            )
        )
    prefer = None
    if entry.get("prefer") is not None:
        try:
            prefer = _expression(
                spec, mechanic, move.type, path + ("prefer",), entry["prefer"], INT
            )
        except SpecErrors as exc:
            errors += exc.errors
    last = entry.get("last", False)
    if not isinstance(last, bool):
        errors.append(located.error(path + ("last",), "`last` is `true` or `false`"))
    if errors:
        raise SpecErrors(errors)
    return AutoMove(move.type, fields, prefer, listed=bool(unlisted), last=bool(last))


def _expression(
    spec: GameSpec,
    mechanic: Mechanic[Any],
    checkpoint: str,
    path: tuple[Any, ...],
    value: Any,
    expected: Type,
) -> SpecExpression:
    text, where = expression_at(spec.located, path, value)
    try:
        typed = mechanic.rules.check_expression(checkpoint, text, where, expected)
    except SpecError as exc:
        raise SpecErrors([exc]) from None
    return SpecExpression(".".join(map(str, path)), checkpoint, typed, typed.compile())


def _ticked(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names) or "none"
