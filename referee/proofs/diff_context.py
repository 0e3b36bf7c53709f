"""Symbolic situations for `referee diff`: every context name two sides' rules read, as z3 values.

A situation holds only the names (and record fields: `move.present`) the compared conditions
read, plus those the rummy facts tie them to: a name no condition reads cannot change a verdict.
The checkpoint's card list (`cards`, `used`, `move.cards`) has a fixed size, tried one size after
another; every other card list (`hand`, ...) has a symbolic length of at most the bound. Options
are not part of it: each side fixes its own, concretely.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3

from referee.proofs import rummy_context as rummy
from referee.proofs.rummy_context import Check, Path
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, RecordType, Type
from referee.spec.expr.ast import DEF, VAR, Attr, Call, Name, Node, children
from referee.spec.expr.symbolic import (
    BoolLike,
    SymCard,
    SymList,
    SymStr,
    s_and,
    s_eq,
    s_implies,
    s_not,
)
from referee.spec.schema import FieldSpec

PRIMARY_LISTS: tuple[Path, ...] = (("cards",), ("used",), ("move", "cards"))
Want = Any  # True (the whole value) or a dict: field -> Want


class ContextError(Exception):
    """The two sides' contexts cannot be put together (a name with two different types)."""


# --- what the conditions read ---------------------------------------------------------------


def read_paths(program: Any, nodes: Iterable[Node]) -> set[Path]:
    """The context names and record fields (`move.present`) the nodes read, definitions included."""
    reader = _PathReader(program)
    for node in nodes:
        reader.visit(node)
    return reader.paths


class _PathReader:
    def __init__(self, program: Any) -> None:
        self.program = program
        self.paths: set[Path] = set()
        self.seen: set[str] = set()

    def visit(self, node: Node) -> None:
        chain = _field_chain(node) if isinstance(node, Attr) else None
        if chain is not None:
            self.paths.add(chain)
            return
        if isinstance(node, Name) and node.ref == VAR:
            self.paths.add((node.id,))
        if (isinstance(node, Name) and node.ref == DEF) or (
            isinstance(node, Call) and node.ref == DEF
        ):
            self._definition(node.id if isinstance(node, Name) else node.func)
        for child in children(node):
            self.visit(child)

    def _definition(self, name: str) -> None:
        if name not in self.seen:
            self.seen.add(name)
            self.visit(self.program.definitions[name].node)


def _field_chain(node: Node) -> Path | None:
    """`move.layoff.cards` -> ("move", "layoff", "cards") when it starts at a context name."""
    parts: list[str] = []
    while isinstance(node, Attr):
        parts.append(node.name)
        node = node.obj
    if isinstance(node, Name) and node.ref == VAR:
        return (node.id, *reversed(parts))
    return None


# --- the shape of a situation ---------------------------------------------------------------


def union_scope(scopes: Iterable[Any]) -> dict[str, Type]:
    """The names of several scopes; records merge field by field."""
    merged: dict[str, Type] = {}
    for scope in scopes:
        for name, ty in scope.items():
            merged[name] = _merge_types(merged[name], ty, name) if name in merged else ty
    return merged


def _merge_types(a: Type, b: Type, name: str) -> Type:
    if a == b:
        return a
    if isinstance(a, RecordType) and isinstance(b, RecordType):
        fields = dict(a.fields)
        for key, ty in b.fields:
            fields[key] = _merge_types(fields[key], ty, f"{name}.{key}") if key in fields else ty
        return RecordType(fields)
    if isinstance(a, ListType) and isinstance(b, ListType):
        return ListType(_merge_types(a.elem, b.elem, name))
    raise ContextError(f"`{name}` is `{a}` on one side and `{b}` on the other")


def merge_fields(*groups: Iterable[FieldSpec]) -> tuple[FieldSpec, ...]:
    """A move's fields on both sides: the first side's order, then the other's new fields."""
    merged: dict[str, FieldSpec] = {}
    for group in groups:
        for spec in group:
            old = merged.get(spec.name)
            if old is None:
                merged[spec.name] = spec
            else:  # optional if either side lets it be left out; enum values of both
                merged[spec.name] = FieldSpec(
                    spec.name,
                    old.type,
                    old.optional or spec.optional,
                    tuple(dict.fromkeys(old.values + spec.values)),
                    merge_fields(old.fields, spec.fields),
                )
    return tuple(merged.values())


@dataclass(frozen=True)
class Shape:
    """What the situations of one comparison are made of."""

    check: Check
    types: Mapping[str, Type]  # every name of both sides' scopes (options aside)
    paths: frozenset[Path]  # what the conditions and the facts read
    reported: frozenset[Path]  # what a report shows (`make_shape`)
    move_fields: tuple[FieldSpec, ...] = ()  # the `move` record's fields, for `present` and enums

    @property
    def primary(self) -> Path | None:
        """The card list whose size is tried one by one."""
        return next((p for p in PRIMARY_LISTS if p in self.paths), None)

    @property
    def shown(self) -> list[Path]:
        """What a report shows of a situation: what the conditions read, but the options and
        the names the checkpoint fixes (`kind`, `move_type`)."""
        fixed = rummy.fixed(self.check)
        return sorted(
            p
            for p in self.reported
            if p[0] != "options" and p[0] not in fixed and _has_path(self.types, p)
        )


def make_shape(
    check: Check,
    types: Mapping[str, Type],
    read: set[Path],
    move_fields: tuple[FieldSpec, ...] = (),
) -> Shape:
    """Add what the rummy facts need to what the conditions read, where the scope has it."""
    needed = {*read, *(p for f in rummy.FACTS for p in f.needs), *rummy.EXTRA_NEEDS}
    needed = {p for p in needed if _has_path(types, p)}
    # shown: what the conditions read, and what a fact about one of those ties it to (a fact is
    # about its first name): they explain the values
    shown = set(read)
    for fact in rummy.facts_for(check, needed):
        if fact.needs[0] in read:
            shown |= set(fact.needs) | (
                set(rummy.EXTRA_NEEDS) & needed if fact.reads_extra else set()
            )
    return Shape(check, dict(types), frozenset(needed), frozenset(shown), move_fields)


def _has_path(types: Mapping[str, Type], path: Path) -> bool:
    ty: Type | None = types.get(path[0])
    for part in path[1:]:
        ty = ty.field(part) if isinstance(ty, RecordType) else None
    return ty is not None


# --- building a situation -------------------------------------------------------------------


@dataclass
class Situation:
    env: dict[str, Any]  # symbolic values (no `options`)
    domain: list[BoolLike] = field(default_factory=list)
    size: int | None = None  # the primary list's size


def situation(
    shape: Shape,
    size: int | None,
    bound: int,
    copies: int,
    overrides: Callable[[dict[str, Any]], Mapping[str, Any]] | None = None,
) -> Situation:
    """Fresh symbolic values for `shape`, the primary card list of `size` cards, every other
    card list of at most `bound`. `overrides(env)` gives names (partly) concrete values, built
    from the fresh ones. The rummy facts are part of the domain."""
    builder = _Builder(shape, size, bound, copies)
    want = _want_tree(shape.paths)
    env = {
        name: builder.make((name,), name, shape.types[name], want[name])
        for name in sorted(want)
        if name != "options"
    }
    env.update(rummy.fixed(shape.check))
    if overrides is not None:
        env.update(overrides(env))
    for fact in rummy.facts_for(shape.check, set(shape.paths)):
        builder.domain.append(fact.holds(env, shape.check))
    return Situation(env, builder.domain, size)


def _want_tree(paths: Iterable[Path]) -> dict[str, Want]:
    tree: dict[str, Want] = {}
    for path in sorted(paths, key=len):
        node = tree
        for depth, part in enumerate(path):
            if node.get(part) is True:
                break
            if depth == len(path) - 1:
                node[part] = True
            else:
                node = node.setdefault(part, {})
    return tree


class _Builder:
    def __init__(self, shape: Shape, size: int | None, bound: int, copies: int) -> None:
        self.shape, self.size, self.bound, self.copies = shape, size, bound, copies
        self.choices = rummy.choices(shape.check)
        self.domain: list[BoolLike] = []

    def make(
        self, path: Path, name: str, ty: Type, want: Want, spec: FieldSpec | None = None
    ) -> Any:
        """A value of `ty`; `spec` is the move field it is, if any (for enums and `present`)."""
        if isinstance(ty, RecordType):
            fields = (
                self.shape.move_fields if path == ("move",) else (spec.fields if spec else None)
            )
            return self._record(
                path, name, ty, want, {f.name: f for f in fields} if fields else None
            )
        if isinstance(ty, ListType):
            return self._list(path, name, ty, spec)
        return self._scalar(path, name, ty, spec)

    def _scalar(self, path: Path, name: str, ty: Type, spec: FieldSpec | None) -> Any:
        if ty == INT:
            return z3.Int(name)
        if ty == BOOL:
            return z3.Bool(name)
        if ty == CARD:
            card, domain = SymCard.fresh(name)
            self.domain += domain
            return card
        if ty == STR:
            # an enum field holds one of its values, or "" when left out (engine/moves.py)
            values = (*spec.values, "") if spec is not None and spec.type == "enum" else ()
            value, domain = SymStr.fresh(name, self.choices.get(path, values))
            self.domain += domain
            return value
        raise ContextError(f"no symbolic value for `{name}` of type `{ty}`")

    def _record(
        self,
        path: Path,
        name: str,
        ty: RecordType,
        want: Want,
        specs: Mapping[str, FieldSpec] | None,
    ) -> dict[str, Any]:
        record: dict[str, Any] = {}
        for key, field_type in ty.fields:
            if want is not True and key not in want:
                continue
            if key == "present" and specs is not None:
                record[key] = self._present(f"{name}.present", specs)
                continue
            record[key] = self.make(
                path + (key,),
                f"{name}.{key}",
                field_type,
                True if want is True else want[key],
                (specs or {}).get(key),
            )
        return record

    def _present(self, name: str, specs: Mapping[str, FieldSpec]) -> SymList:
        """`present`: the fields given, in declared order; a required field is always given."""
        flags = [
            True if not spec.optional else z3.Bool(f"{name}.{spec.name}") for spec in specs.values()
        ]
        return SymList(tuple(specs), tuple(flags))

    def _list(self, path: Path, name: str, ty: ListType, spec: FieldSpec | None) -> SymList:
        fixed = path == self.shape.primary and self.size is not None
        count = self.size if fixed and self.size is not None else self.bound
        items = [
            self.make(path + ("[]",), f"{name}[{k}]", ty.elem, True, spec) for k in range(count)
        ]
        flags: list[BoolLike] = (
            [True] * count if fixed else [z3.Bool(f"{name}#{k}") for k in range(count)]
        )
        for k in range(1, len(flags)):  # present slots come first: one model per list
            self.domain.append(s_implies(flags[k], flags[k - 1]))
        if ty.elem == CARD:
            self.domain += copies_within(items, flags, self.copies)
        return SymList(tuple(items), tuple(flags))


def copies_within(cards: list[Any], flags: list[BoolLike], copies: int) -> list[BoolLike]:
    """No card is in the list more often than the pack holds it (`flags`: which slots are in)."""
    limits = []
    for group in itertools.combinations(range(len(cards)), copies + 1):
        same = [s_eq(cards[group[0]], cards[j]) for j in group[1:]]
        limits.append(s_not(s_and(*(flags[j] for j in group), *same)))
    return limits
