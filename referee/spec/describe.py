"""What a rule at one checkpoint may read: each name, its type and its meaning.

The names come from the checkpoint's scope (the mechanic's) and the spec's definitions meant
for that checkpoint; the meanings from where each is declared: the mechanic's scope for its
names, the spec's `options:` and `moves:` texts for the fields of `options` and `move`, the
spec's file for a definition.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.errors import InvalidArgument
from referee.spec.expr import RecordType, Scope, Type
from referee.spec.expr.program import Program
from referee.spec.rules import RuleBook
from referee.spec.schema import GameSpec

PRESENT = 'the optional fields the move gives (`"trumps" in move.present`)'


@dataclass(frozen=True)
class Described:
    name: str
    type: str
    meaning: str


def programs_of(rules: object) -> dict[str, Program]:
    """The compiled programs of a mechanic's rule book, checkpoint by checkpoint."""
    if not isinstance(rules, RuleBook):
        raise InvalidArgument("this game's mechanic has no rule book to describe")
    return rules.programs


def checkpoints(programs: dict[str, Program]) -> list[str]:
    return sorted(programs)


def describe(spec: GameSpec, programs: dict[str, Program], checkpoint: str) -> list[Described]:
    """Every name a rule at `checkpoint` may read, context names first, then definitions."""
    if checkpoint not in programs:
        known = ", ".join(f"`{c}`" for c in checkpoints(programs))
        raise InvalidArgument(f"`{spec.name}` has no checkpoint `{checkpoint}`: it has {known}")
    program = programs[checkpoint]
    rows = [
        row
        for name, ty in program.scope.items()
        for row in _context_name(spec, checkpoint, program.scope, name, ty)
    ]
    for definition in program.definitions.values():
        params = ", ".join(f"{p}: {t}" for p, t in definition.params)
        name = f"{definition.name}({params})" if definition.params else definition.name
        where = f"{Path(definition.origin.file).name}:{definition.origin.line}"
        rows.append(
            Described(
                name,
                str(definition.result),
                f"the spec's definition ({where}): {_one_line(definition.text)}",
            )
        )
    return rows


def _context_name(
    spec: GameSpec, checkpoint: str, scope: Scope, name: str, ty: Type
) -> list[Described]:
    if name == "options" and isinstance(ty, RecordType):
        return [Described(name, "record", "the table's options (`options:` of the spec)")] + [
            Described(
                f"options.{o.name}",
                str(ty.field(o.name)),
                f"{o.text.get('en', '')} ({o.allowed()}; default `{o.default}`)",
            )
            for o in spec.options.values()
        ]
    if name == "move" and isinstance(ty, RecordType):
        move = spec.moves.get(checkpoint)
        said = f": {move.text['en']}" if move is not None and move.text.get("en") else ""
        rows = [Described(name, "record", f"the move judged{said}")]
        for field, field_ty in ty.fields:
            meaning = PRESENT if field == "present" else f"the move's field `{field}`"
            rows.append(Described(f"move.{field}", str(field_ty), meaning))
        return rows
    meaning = (
        scope.meaning(name) or f"given by the `{spec.mechanics}` mechanic (no meaning declared)"
    )
    return [Described(name, str(ty), meaning)]


def _one_line(text: str, width: int = 72) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def table(rows: list[Described]) -> str:
    """The rows as aligned columns: name, type, meaning."""
    name_width = max(len(r.name) for r in rows)
    type_width = max(len(r.type) for r in rows)
    return "\n".join(
        f"{r.name:<{name_width}}  {r.type:<{type_width}}  {r.meaning}".rstrip() for r in rows
    )
