"""A checkpoint's context, declared once: each name a rule may read there, with its type, its
meaning, how it is computed from the state, and the facts the prover may assume of it.

From one declaration come the scope the type checker checks the rules in (with the meanings
`referee describe GAME --context CHECKPOINT` prints), the environment the interpreter judges
them in, and the facts `referee diff` ties its symbolic situations with. A mechanic lists its
names in one module (`mechanics/<name>/contexts.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from referee.spec.expr import BOOL, CARD, INT, STR, ListType, RecordType, Scope, Type
from referee.spec.expr.symbolic import BoolLike
from referee.spec.schema import GameSpec

Source = TypeVar("Source")  # what a context is computed from (a turn being judged, a state)
Path = tuple[str, ...]  # a context name, or a record's field (`move.card`)
Env = Mapping[str, Any]


@dataclass(frozen=True)
class Check:
    """Where `referee diff` assumes a fact: the rules judged at `checkpoint`, before or after
    the move, for two sides' specs."""

    checkpoint: str
    role: str  # move (a move type) | take | meld (a meld kind)
    at: str  # before | after (only moves have `after` rules)
    seats: tuple[int, int]  # the seat counts both sides allow
    moves: tuple[str, ...]  # the move types of both sides
    laying: tuple[str, ...]  # those that name cards to lay (`laying_moves`)

    @property
    def label(self) -> str:
        return self.checkpoint if self.at == "before" else f"{self.checkpoint} (after its effects)"


@dataclass(frozen=True)
class Fact:
    """Something true of every context the mechanic builds, as z3 may assume it: it can only
    remove situations no table shows, never hide a difference a real table could show."""

    text: str  # how the report states it
    needs: tuple[Path, ...]  # the names it reads; skipped where one is absent
    holds: Callable[[Env, Check], BoolLike]
    roles: tuple[str, ...] = ("move", "take", "meld")
    at: tuple[str, ...] = ("before", "after")
    reads_extra: bool = False  # it also reads the mechanic's `extra_needs`

    def applies(self, check: Check, names: set[Path]) -> bool:
        return (
            check.role in self.roles and check.at in self.at and all(p in names for p in self.needs)
        )


TypeOf = Type | Callable[[GameSpec], Type]  # a type, or one the spec decides (`options`)


@dataclass(frozen=True)
class Name(Generic[Source]):
    """One context name. `compute` is None for a name the checkpoint's own code gives (the
    `move` judged, a meld's `cards`): its meaning says where it comes from."""

    type: TypeOf
    meaning: str
    compute: Callable[[Source], Any] | None = None
    facts: tuple[Fact, ...] = ()
    present: Callable[[GameSpec], bool] | None = None  # None: in every spec

    def type_in(self, spec: GameSpec) -> Type:
        return self.type if isinstance(self.type, Type) else self.type(spec)

    def is_in(self, spec: GameSpec) -> bool:
        return self.present is None or self.present(spec)


@dataclass(frozen=True)
class Context(Generic[Source]):
    """The names of one checkpoint (or of a group several checkpoints share)."""

    names: Mapping[str, Name[Source]]

    def __or__(self, more: Context[Source] | Mapping[str, Name[Source]]) -> Context[Source]:
        extra = more.names if isinstance(more, Context) else more
        return Context({**self.names, **extra})

    def scope(self, spec: GameSpec, extra: Mapping[str, Type] | None = None) -> Scope:
        """The names (and meanings) the type checker knows at the checkpoint, for `spec`;
        `extra`: names the spec itself shapes (`move`: its fields), in the scope as given."""
        named = {n: name for n, name in self.names.items() if name.is_in(spec)}
        return Scope(
            {**{n: name.type_in(spec) for n, name in named.items()}, **(extra or {})},
            meanings={n: name.meaning for n, name in named.items()},
        )

    def builder(self, spec: GameSpec) -> Builder[Source]:
        """How the environment is computed for `spec`: the names it has, once for all."""
        return Builder(
            tuple(
                (n, name.compute)
                for n, name in self.names.items()
                if name.compute is not None and name.is_in(spec)
            )
        )

    def facts(self) -> list[Fact]:
        return [fact for name in self.names.values() for fact in name.facts]

    def neutral_env(self, spec: GameSpec, card: Any) -> dict[str, Any]:
        """The computed names of `spec`, each at a value that tells nothing (`neutral`): a
        context built without a table (a proof's replay), before it sets what it is about."""
        return {
            n: neutral(name.type_in(spec), card)
            for n, name in self.names.items()
            if name.compute is not None and name.is_in(spec)
        }


@dataclass(frozen=True)
class Builder(Generic[Source]):
    """A context's computed names for one spec: the environment, built per judgement."""

    computes: tuple[tuple[str, Callable[[Source], Any]], ...]
    # the function building each set of names asked for (a checkpoint's reads: a handful of
    # sets; None: every name)
    _builds: dict[frozenset[str] | None, Callable[[Source], dict[str, Any]]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def env(self, source: Source, names: frozenset[str] | None = None) -> dict[str, Any]:
        """The environment; with `names`, only those of its names (what the expressions it is
        for read: `RuleBook.reads_at`, `SpecExpression.reads`), the others not computed."""
        build = self._builds.get(names)
        if build is None:
            computes = tuple((n, c) for n, c in self.computes if names is None or n in names)
            build = self._builds[names] = _build_of(computes)
        return build(source)


def _build_of(
    computes: tuple[tuple[str, Callable[[Source], Any]], ...],
) -> Callable[[Source], dict[str, Any]]:
    """A function making the dict of `computes`, in their order, as one dict display: no loop
    and no pair unpacked a name (a context is built a few times a verdict). Only the names,
    identifiers the spec's contexts declare, are written into its text, each quoted by repr."""
    namespace: dict[str, Any] = {f"c{i}": compute for i, (_, compute) in enumerate(computes)}
    items = ", ".join(f"{name!r}: c{i}(source)" for i, (name, _) in enumerate(computes))
    exec(f"def build(source):\n    return {{{items}}}\n", namespace)  # our own text: see above
    build: Callable[[Source], dict[str, Any]] = namespace["build"]
    return build


def neutral(type_: Type, card: Any) -> Any:
    """A value of `type_` that tells nothing: false, 0, "", an empty list, `card` for a card
    (there is no card that says nothing: the caller's choice), a record of such values."""
    if isinstance(type_, ListType):
        return []
    if isinstance(type_, RecordType):
        return {field: neutral(of, card) for field, of in type_.fields}
    values: dict[Type, Any] = {BOOL: False, INT: 0, STR: "", CARD: card}
    return values[type_]


def facts_of(contexts: Iterable[Context[Any]]) -> tuple[Fact, ...]:
    """Every fact of the contexts, each once, in declaration order."""
    return tuple(dict.fromkeys(f for c in contexts for f in c.facts()))
