"""What a property is about, resolved against its game: the programs its expressions are checked
in, the lists it ranges over, what it assumes, and each evaluation it asks of the spec.

Names, from the inside out: the context of `on` (a checkpoint's names, or those of the spec
expressions reading it); the property's scope adds its constants and its own `free` names (the
hands `a`, `b` of a comparison); the claim's program adds the evaluations' results. Bindings
(`with:`) and assumptions are checked in the scope, so they may name free names but no result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from referee.errors import SpecError
from referee.proofs.properties import Evaluation, Property, Text
from referee.spec.expr import (BOOL, BUILTINS, CARD, INT, Definition, ListType, Program, Scope,
                               TypedExpr, parse)
from referee.spec.expr.ast import DEF, VAR, Call, Name, Node, children
from referee.spec.registry import Game

Condition = tuple[Any, Any]  # (when, require), typed: the checkpoint accepts when all hold


@dataclass(frozen=True)
class Evaluated:
    """One evaluation, ready: what z3 encodes, what the engine runs, and the names it rebinds."""

    evaluation: Evaluation
    typed: TypedExpr                 # the spec expression (or the definition's call)
    run: Any                         # the engine's compiled expression (a callable on an env)
    bindings: Mapping[str, TypedExpr]  # context name -> its value, over the property's scope
    label: str                       # how the report names it: `banking.rank`

    @property
    def name(self) -> str:
        return self.evaluation.name


@dataclass(frozen=True)
class Setting:
    """What proving one property needs, resolved once for all its option sets."""

    program: Program                 # the context's: its names and definitions
    scope: Program                   # the context's, plus constants and the property's names
    claim: TypedExpr                 # checked in the scope, plus the results
    premise: list[Condition]         # empty: every input
    assume: list[TypedExpr]          # facts of every state the mechanic builds
    evaluations: list[Evaluated]
    elements: Mapping[str, Any]      # each list ranged over: the type of its items
    read: frozenset[str]             # the names the claim, assumptions and evaluations read

    @property
    def element(self) -> Any:
        """The items' type of the (first) list ranged over."""
        return next(iter(self.elements.values()))


def resolve(game: Game, prop: Property) -> Setting:
    expressions = spec_expressions(game)
    program = _context(game, prop, expressions)
    scope = _scope_program(game, prop, program)
    elements = {name: _list_element(game, prop, scope, name) for name in _lists(prop)}
    _check_ranges(game, prop, scope)
    evaluations = [_evaluated(game, prop, ev, expressions, scope) for ev in prop.evaluations]
    claim_program = _extended(game, prop, scope, {e.name: e.typed.type for e in evaluations})
    claim = claim_program.check(parse(prop.claim, origin=prop.origin), expected=BOOL)
    assume = [scope.check(parse(text, origin=where), expected=BOOL) for text, where in prop.assume]
    read = _names_read([claim, *assume, *(t for e in evaluations for t in e.bindings.values())])
    for e in evaluations:  # what an evaluation reads, but for the names it is given `with:`
        read |= _names_read([e.typed]) - set(e.bindings)
    return Setting(program, scope, claim, _premise(game, prop), assume, evaluations, elements,
                   read)


def error(game: Game, prop: Property, key: tuple[Any, ...], message: str) -> SpecError:
    return game.spec.located.error(prop.path + key, f"property `{prop.id}`: {message}")


def spec_expressions(game: Game) -> Mapping[str, Any]:
    """The spec expressions the mechanic computes with, by dotted path (none if it names none):
    the mechanic's `expressions`, or its config's."""
    mechanic = game.mechanic
    found = getattr(mechanic, "expressions", None)
    if found is None:
        found = getattr(getattr(mechanic, "config", None), "expressions", None)
    return dict(found or {})


def _premise(game: Game, prop: Property) -> list[Condition]:
    """What the checkpoint accepts (the mechanic says), or nothing: every input counts."""
    if prop.premise != "acceptance":
        return []
    return list(game.mechanic.acceptance(prop.on))  # type: ignore[attr-defined]


def _context(game: Game, prop: Property, expressions: Mapping[str, Any]) -> Program:
    """A checkpoint's program, or the program of the spec expressions reading context `on`."""
    programs: dict[str, Program] = dict(game.mechanic.rules.programs)  # type: ignore[attr-defined]
    for expression in expressions.values():
        programs.setdefault(expression.context, expression.typed.program)
    if prop.on not in programs:
        known = ", ".join(f"`{c}`" for c in sorted(programs))
        raise error(game, prop, ("on",), f"unknown checkpoint `{prop.on}`: expected one of {known}")
    return programs[prop.on]


def _lists(prop: Property) -> list[str]:
    return list(prop.lists) or [prop.over]


def _list_element(game: Game, prop: Property, scope: Program, name: str) -> Any:
    typ = scope.scope.get(name)
    if not isinstance(typ, ListType) or typ.elem not in (CARD, INT):
        raise error(game, prop, ("over",) + ((name,) if prop.lists else ()),
                    f"`{name}` is no list of cards or ints at `{prop.on}`")
    return typ.elem


def _check_ranges(game: Game, prop: Property, scope: Program) -> None:
    for name in prop.ranges:
        if scope.scope.get(name) not in (INT, ListType(INT)) or name in prop.given:
            raise error(game, prop, ("ranges", name), f"`{name}` is no free int, nor list of "
                        f"ints, at `{prop.on}`")


def _scope_program(game: Game, prop: Property, program: Program) -> Program:
    """The context's program, with names for the constants and the property's own names; a free
    list needs its sizes in `over`."""
    for name, typ in prop.free.items():
        if isinstance(typ, ListType) and name not in prop.lists:
            raise error(game, prop, ("free", name), f"`{name}` is a list: give its sizes in "
                        f"`over`")
    return _extended(game, prop, program, {**{n: INT for n in prop.constants}, **prop.free})


def _extended(game: Game, prop: Property, program: Program, extra: Mapping[str, Any]) -> Program:
    """`program` with more names in its scope (none of them taken)."""
    if not extra:
        return program
    for name in extra:
        if name in program.scope or name in program.definitions or name in program.functions:
            raise error(game, prop, (), f"`{name}` already names something at `{prop.on}`")
    definitions = [Definition(d.name, d.params, d.text, origin=d.origin)
                   for d in program.definitions.values()]
    functions = {n: f for n, f in program.functions.items() if n not in BUILTINS}
    return Program(Scope({**dict(program.scope.items()), **extra}), definitions, functions)


# ---- evaluations ------------------------------------------------------------------------------

def _evaluated(game: Game, prop: Property, ev: Evaluation, expressions: Mapping[str, Any],
               scope: Program) -> Evaluated:
    if ev.definition:
        return _definition_call(game, prop, ev, scope)
    expression = expressions.get(ev.expression)
    if expression is None:
        known = ", ".join(f"`{p}`" for p in sorted(expressions)) or "none"
        raise error(game, prop, ("evaluate", ev.name), f"unknown expression `{ev.expression}`: "
                    f"the engine computes with {known}")
    if expression.context != prop.on:
        raise error(game, prop, ("evaluate", ev.name), f"`{ev.expression}` reads the "
                    f"`{expression.context}` context, not `{prop.on}`")
    names = expression.typed.program.scope
    bindings = {}
    for name, (text, where) in ev.bindings.items():
        if name not in names:
            raise error(game, prop, ("evaluate", ev.name, "with", name),
                        f"`{ev.expression}` reads no `{name}`")
        bindings[name] = scope.check(parse(text, origin=where), expected=names.get(name))
    return Evaluated(ev, expression.typed, expression, bindings, ev.label)


def _definition_call(game: Game, prop: Property, ev: Evaluation, scope: Program) -> Evaluated:
    """`{definition: best_total, with: {cs: cards}}`: the call `best_total((cards))`, checked in
    the property's scope and compiled as the engine compiles every rule that calls it."""
    definition = scope.definitions.get(ev.expression)
    if definition is None:
        raise error(game, prop, ("evaluate", ev.name), f"unknown definition `{ev.expression}`")
    params = [p for p, _ in definition.params]
    if sorted(params) != sorted(ev.bindings):
        wanted = ", ".join(f"`{p}`" for p in params) or "none"
        raise error(game, prop, ("evaluate", ev.name, "with"),
                    f"`{ev.expression}` takes the parameters {wanted}: give each in `with`")
    args = ", ".join(f"({ev.bindings[p][0]})" for p in params)
    text = f"{ev.expression}({args})" if params else ev.expression
    where = next(iter(ev.bindings.values()))[1] if params else prop.origin
    typed = scope.check(parse(text, origin=where))
    return Evaluated(ev, typed, typed.compile(), {}, f"`{ev.expression}`")


def _names_read(typed: list[TypedExpr]) -> frozenset[str]:
    """The context (and scope) names some expressions read, through the definitions they call."""
    found: set[str] = set()
    seen: set[tuple[int, str]] = set()

    def walk(node: Node, program: Program) -> None:
        if isinstance(node, Name) and node.ref == VAR:
            found.add(node.id)
        called = node.id if isinstance(node, Name) and node.ref == DEF else (
            node.func if isinstance(node, Call) and node.ref == DEF else None)
        if called is not None and (id(program), called) not in seen:
            seen.add((id(program), called))
            walk(program.definitions[called].node, program)
        for child in children(node):
            walk(child, program)

    for expression in typed:
        walk(expression.node, expression.program)
    return frozenset(found)


__all__ = ["Condition", "Evaluated", "Setting", "Text", "error", "resolve", "spec_expressions"]
