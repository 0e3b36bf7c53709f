"""What a property is about, resolved against its game: the programs its expressions are checked
in, the lists it ranges over, what it assumes, and each evaluation it asks of the spec.

Names, from the inside out: the context of `on` (a checkpoint's names, or those of the spec
expressions reading it); the property's scope adds its constants and its own `free` names (the
hands `a`, `b` of a comparison) and its own helper `definitions`; the claim's program adds the
evaluations' results. Bindings (`with:`) and assumptions are checked in the scope, so they may
name free names but no result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from referee.engine.game import Game
from referee.engine.mechanic import Condition
from referee.errors import SpecError
from referee.proofs.properties import Evaluation, Property, Text, constant_type
from referee.spec.expr import (
    BOOL,
    BUILTINS,
    CARD,
    INT,
    Definition,
    ListType,
    Program,
    Scope,
    Type,
    TypedExpr,
    names_read,
    parse,
)


@dataclass(frozen=True)
class Evaluated:
    """One evaluation, ready: what z3 encodes, what the engine runs, and the names it rebinds."""

    evaluation: Evaluation
    typed: TypedExpr | None  # the spec expression (or the definition's call); None for
    # an acceptance, which is its `conditions` all holding
    run: Any  # the engine's compiled expression (a callable on an env)
    bindings: Mapping[str, TypedExpr]  # context name -> its value, over the property's scope
    label: str  # how the report names it: `banking.rank`
    conditions: tuple[Condition, ...] = ()  # an acceptance: the checkpoint's (when, require)
    each: tuple[str, TypedExpr] | None = None  # `for:` the name bound to each item, the list

    @property
    def name(self) -> str:
        return self.evaluation.name

    @property
    def type(self) -> Type:
        one = BOOL if self.typed is None else self.typed.type
        return one if self.each is None else ListType(one)

    @property
    def reads(self) -> list[TypedExpr]:
        """The typed expressions it evaluates (but for its bindings)."""
        if self.typed is not None:
            return [self.typed]
        return [t for pair in self.conditions for t in pair if t is not None]

    @property
    def bound(self) -> list[TypedExpr]:
        """What it evaluates in the property's scope: the `with:` values and the `for:` list."""
        return [*self.bindings.values(), *([self.each[1]] if self.each else [])]


@dataclass(frozen=True)
class Setting:
    """What proving one property needs, resolved once for all its option sets."""

    program: Program  # the context's: its names and definitions
    scope: Program  # the context's, plus constants and the property's names
    claim: TypedExpr  # checked in the scope, plus the results
    premise: list[Condition]  # empty: every input
    assume: list[TypedExpr]  # facts of every state the mechanic builds
    evaluations: list[Evaluated]
    elements: Mapping[str, Any]  # each list ranged over: the type of its items
    read: frozenset[str]  # the names the claim, assumptions and evaluations read

    @property
    def element(self) -> Any:
        """The items' type of the (first) list ranged over (None: no list)."""
        return next(iter(self.elements.values()), None)


def resolve(game: Game, prop: Property) -> Setting:
    expressions = spec_expressions(game)
    program = _context(game, prop, expressions)
    scope = _scope_program(game, prop, program)
    elements = {name: _list_element(game, prop, scope, name) for name in _lists(prop)}
    _check_ranges(game, prop, scope)
    evaluations = [_evaluated(game, prop, ev, expressions, scope) for ev in prop.evaluations]
    claim_program = _extended(game, prop, scope, {e.name: e.type for e in evaluations})
    claim = claim_program.check(parse(prop.claim, origin=prop.origin), expected=BOOL)
    assume = [scope.check(parse(text, origin=where), expected=BOOL) for text, where in prop.assume]
    read = names_read([claim, *assume, *(t for e in evaluations for t in e.bound)])
    read -= {e.each[0] for e in evaluations if e.each}
    for e in evaluations:  # what an evaluation reads, but for the names it is given `with:`
        read |= names_read(e.reads) - set(e.bindings)
    return Setting(program, scope, claim, _premise(game, prop), assume, evaluations, elements, read)


def error(game: Game, prop: Property, key: tuple[Any, ...], message: str) -> SpecError:
    return game.proofs.error(prop.path + key, f"property `{prop.id}`: {message}")


def spec_expressions(game: Game) -> Mapping[str, Any]:
    """The spec expressions the mechanic computes with, by dotted path (none if it names none)."""
    return dict(game.mechanic.expressions)


def _premise(game: Game, prop: Property) -> list[Condition]:
    """What the checkpoint accepts (the mechanic says), or nothing: every input counts."""
    if prop.premise != "acceptance":
        return []
    return acceptance(game, prop.on)


def acceptance(game: Game, checkpoint: str) -> list[Condition]:
    """(when, require) pairs, typed, that hold exactly when `checkpoint` accepts: the mechanic
    says (its rules, and whatever its handlers add)."""
    return list(game.mechanic.acceptance(checkpoint))


def _context(game: Game, prop: Property, expressions: Mapping[str, Any]) -> Program:
    """A checkpoint's program, or the program of the spec expressions reading context `on`."""
    programs: dict[str, Program] = dict(game.mechanic.rules.programs)
    for expression in expressions.values():
        programs.setdefault(expression.context, expression.typed.program)
    if prop.on not in programs:
        known = ", ".join(f"`{c}`" for c in sorted(programs))
        raise error(game, prop, ("on",), f"unknown checkpoint `{prop.on}`: expected one of {known}")
    return programs[prop.on]


def _lists(prop: Property) -> list[str]:
    return list(prop.lists) or ([prop.over] if prop.over else [])


def _list_element(game: Game, prop: Property, scope: Program, name: str) -> Any:
    typ = scope.scope.get(name)
    if not isinstance(typ, ListType) or typ.elem not in (CARD, INT):
        raise error(
            game,
            prop,
            ("over",) + ((name,) if prop.lists else ()),
            f"`{name}` is no list of cards or ints at `{prop.on}`",
        )
    return typ.elem


def _check_ranges(game: Game, prop: Property, scope: Program) -> None:
    for name in prop.ranges:
        if scope.scope.get(name) not in (INT, ListType(INT)) or name in prop.given:
            raise error(
                game,
                prop,
                ("ranges", name),
                f"`{name}` is no free int, nor list of ints, at `{prop.on}`",
            )


def _scope_program(game: Game, prop: Property, program: Program) -> Program:
    """The context's program, with names for the constants and the property's own names, and
    its helper definitions after the spec's; a free list needs its sizes in `over`."""
    for name, typ in prop.free.items():
        if isinstance(typ, ListType) and name not in prop.lists:
            raise error(game, prop, ("free", name), f"`{name}` is a list: give its sizes in `over`")
    constants = {n: constant_type(v) for n, v in prop.constants.items()}
    helpers = [
        Definition.parse(signature, body, origin=where, body_origin=body_where)
        for (signature, where), (body, body_where) in prop.definitions
    ]
    return _extended(game, prop, program, {**constants, **prop.free}, helpers)


def _extended(
    game: Game,
    prop: Property,
    program: Program,
    extra: Mapping[str, Any],
    helpers: list[Definition] | None = None,
) -> Program:
    """`program` with more names in its scope (none of them taken), and more definitions."""
    if not extra and not helpers:
        return program
    for name in extra:
        if name in program.scope or name in program.definitions or name in program.functions:
            raise error(game, prop, (), f"`{name}` already names something at `{prop.on}`")
    definitions = [
        Definition(d.name, d.params, d.text, origin=d.origin) for d in program.definitions.values()
    ]
    functions = {n: f for n, f in program.functions.items() if n not in BUILTINS}
    return Program(
        Scope({**dict(program.scope.items()), **extra}),
        definitions + list(helpers or ()),
        functions,
    )


# ---- evaluations ------------------------------------------------------------------------------


def _evaluated(
    game: Game, prop: Property, ev: Evaluation, expressions: Mapping[str, Any], scope: Program
) -> Evaluated:
    if ev.definition:
        return _definition_call(game, prop, ev, scope)
    if ev.acceptance:
        return _acceptance(game, prop, ev, scope)
    expression = expressions.get(ev.expression)
    if expression is None:
        known = ", ".join(f"`{p}`" for p in sorted(expressions)) or "none"
        raise error(
            game,
            prop,
            ("evaluate", ev.name),
            f"unknown expression `{ev.expression}`: the engine computes with {known}",
        )
    if expression.context != prop.on:
        raise error(
            game,
            prop,
            ("evaluate", ev.name),
            f"`{ev.expression}` reads the `{expression.context}` context, not `{prop.on}`",
        )
    each = None
    if ev.each is not None:  # `for: i in xs`: `i` is a name of the `with:` values
        items = _list_of(game, prop, ev, scope)
        each = (ev.each[0], items)
        scope = _extended(game, prop, scope, {ev.each[0]: cast(ListType, items.type).elem})
    bindings = _bindings(game, prop, ev, expression.typed.program, scope)
    return Evaluated(ev, expression.typed, expression, bindings, ev.label, each=each)


def _list_of(game: Game, prop: Property, ev: Evaluation, scope: Program) -> TypedExpr:
    """The list of `for: i in xs`, checked in the property's scope."""
    assert ev.each is not None
    text, where = ev.each[1]
    typed = scope.check(parse(text, origin=where))
    if not isinstance(typed.type, ListType):
        raise error(
            game,
            prop,
            ("evaluate", ev.name, "for"),
            f"`{text}` is no list: `for` needs one, e.g. `i in indices(pack)`",
        )
    return typed


def _bindings(
    game: Game, prop: Property, ev: Evaluation, evaluated: Program, scope: Program
) -> dict[str, TypedExpr]:
    """The `with:` values, checked in the property's scope against the names `evaluated` reads."""
    names = evaluated.scope
    bindings = {}
    for name, (text, where) in ev.bindings.items():
        if name not in names:
            raise error(
                game,
                prop,
                ("evaluate", ev.name, "with", name),
                f"`{ev.expression}` reads no `{name}`",
            )
        bindings[name] = scope.check(parse(text, origin=where), expected=names.get(name))
    return bindings


def _acceptance(game: Game, prop: Property, ev: Evaluation, scope: Program) -> Evaluated:
    """`{acceptance: play}`: whether the checkpoint accepts the input, i.e. the premise
    `acceptance` as a value; the engine's answer is its rule book's (every rule holds) and the
    compiled conditions the mechanic adds."""
    if ev.expression != prop.on:
        raise error(
            game,
            prop,
            ("evaluate", ev.name),
            f"the acceptance at `{ev.expression}` "
            f"reads the `{ev.expression}` checkpoint, not `{prop.on}`",
        )
    conditions = tuple(acceptance(game, ev.expression))
    program = game.mechanic.rules.programs[ev.expression]
    bindings = _bindings(game, prop, ev, program, scope)
    return Evaluated(
        ev, None, _accepts(game, ev.expression, conditions), bindings, ev.label, conditions
    )


def _accepts(game: Game, checkpoint: str, conditions: tuple[Condition, ...]) -> Any:
    """The engine's verdict at `checkpoint` as a callable on an env: no rule is broken (each
    judged, as the rule book judges them all) and each condition the mechanic adds holds."""
    rules = game.mechanic.rules.rules_at(checkpoint)
    own = {(id(r.typed_when), id(r.typed_require)) for r in rules}
    added = [
        (None if when is None else when.compile(), require.compile())
        for when, require in conditions
        if (id(when), id(require)) not in own
    ]

    def accepts(env: Mapping[str, Any]) -> bool:
        broken = [rule.broken(env) for rule in rules]
        held = [when is None or not when(env) or require(env) for when, require in added]
        return not any(broken) and all(held)

    return accepts


def _definition_call(game: Game, prop: Property, ev: Evaluation, scope: Program) -> Evaluated:
    """`{definition: best_total, with: {cs: cards}}`: the call `best_total((cards))`, checked in
    the property's scope and compiled as the engine compiles every rule that calls it."""
    definition = scope.definitions.get(ev.expression)
    if definition is None:
        raise error(game, prop, ("evaluate", ev.name), f"unknown definition `{ev.expression}`")
    params = [p for p, _ in definition.params]
    if sorted(params) != sorted(ev.bindings):
        wanted = ", ".join(f"`{p}`" for p in params) or "none"
        raise error(
            game,
            prop,
            ("evaluate", ev.name, "with"),
            f"`{ev.expression}` takes the parameters {wanted}: give each in `with`",
        )
    args = ", ".join(f"({ev.bindings[p][0]})" for p in params)
    text = f"{ev.expression}({args})" if params else ev.expression
    where = next(iter(ev.bindings.values()))[1] if params else prop.origin
    typed = scope.check(parse(text, origin=where))
    return Evaluated(ev, typed, typed.compile(), {}, f"`{ev.expression}`")


__all__ = ["Condition", "Evaluated", "Setting", "Text", "error", "resolve", "spec_expressions"]
