"""A program: a scope, a vocabulary and an ordered list of named definitions.

Each definition may use the scope, its own parameters and the definitions before it (so no
recursion). Definitions are checked once, when the program is built; expressions are then
checked, evaluated, compiled and encoded against the program. A definition's body runs when it
is used, so a guard like `anchor >= 0 and rank(cards[anchor]) == 1` never indexes with -1.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.errors import SpecErrors
from referee.spec.expr.ast import (
    COMPREHENSIONS,
    DEF,
    VAR,
    Attr,
    Call,
    IfExpr,
    Name,
    Node,
    ParsedExpr,
    StrLit,
    children,
    type_of,
)
from referee.spec.expr.checked import CheckedDefinition
from referee.spec.expr.checker import Checker, Signature
from referee.spec.expr.compile import Compiled, compile_expr
from referee.spec.expr.interp import interpret
from referee.spec.expr.lexer import KEYWORDS
from referee.spec.expr.literals import WORDS
from referee.spec.expr.parser import parse
from referee.spec.expr.source import NOWHERE, ExprError, Origin, Pos
from referee.spec.expr.types import (
    ERROR,
    Scope,
    Type,
    TypeLike,
    TypeSyntaxError,
    as_type,
    parse_type,
)
from referee.spec.expr.vocabulary import Function, vocabulary

_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
_SIGNATURE = re.compile(r"\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*\Z", re.DOTALL)


@dataclass(frozen=True)
class Definition:
    """`name(params) := body`. `result`, when given, is checked against the body's type."""

    name: str
    params: Sequence[tuple[str, TypeLike]] = ()
    body: ParsedExpr | str = ""
    result: Type | None = None
    origin: Origin = NOWHERE

    @classmethod
    def parse(
        cls, signature: str, body: str, origin: Origin = NOWHERE, body_origin: Origin | None = None
    ) -> Definition:
        """From spec text: `Definition.parse("fits(i: int)", "rank(cards[i]) == base + i")`."""
        name, params = parse_signature(signature, origin)
        return cls(name, params, parse(body, body_origin or origin), origin=origin)

    def parsed(self) -> ParsedExpr:
        return self.body if isinstance(self.body, ParsedExpr) else parse(self.body, self.origin)


def parse_signature(text: str, origin: Origin = NOWHERE) -> tuple[str, list[tuple[str, Type]]]:
    """`fits(i: int, c: card)` -> (`fits`, [(`i`, int), (`c`, card)]); `anchor` -> (`anchor`, [])."""
    match = _SIGNATURE.match(text)
    if not match:
        raise _signature_error(
            f"malformed definition name `{text}`: expected `name` or `name(param: type, ...)`",
            text,
            origin,
        )
    params = []
    for part in _split_params(match.group(2) or ""):
        pname, _, ptype = part.partition(":")
        if not _NAME.match(pname.strip()) or not ptype.strip():
            raise _signature_error(
                f"malformed parameter `{part.strip()}`: expected `name: type`", text, origin
            )
        try:
            params.append((pname.strip(), parse_type(ptype)))
        except TypeSyntaxError as err:
            raise _signature_error(str(err), text, origin) from None
    return match.group(1), params


def _split_params(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def _signature_error(message: str, text: str, origin: Origin) -> SpecErrors:
    return SpecErrors([ExprError(message, Pos(), text, origin)])


@dataclass(frozen=True)
class TypedExpr:
    """A checked expression: its typed tree, type, text and origin, and the program it uses."""

    node: Node
    type: Type
    text: str
    origin: Origin
    program: Program = field(repr=False, compare=False)

    def evaluate(self, env: Mapping[str, Any]) -> Any:
        return self.program.evaluate(self, env)

    def compile(self, label: str = "") -> Compiled:
        return self.program.compile(self, label)


class Program:
    """Scope + vocabulary + definitions. Building one checks every definition (all errors)."""

    def __init__(
        self,
        scope: Scope | Mapping[str, TypeLike] | None = None,
        definitions: Iterable[Definition] = (),
        functions: Iterable[Function] | Mapping[str, Function] | None = None,
    ) -> None:
        self.scope = scope if isinstance(scope, Scope) else Scope(scope)
        self.functions = vocabulary(functions)
        self.definitions: dict[str, CheckedDefinition] = {}
        self._signatures: dict[str, Signature] = {}
        self._compiled: Any = None  # the compiler's per-program state, made on first compile
        errors: list[ExprError] = []
        for definition in definitions:
            errors.extend(self._add(definition))
        if errors:
            raise SpecErrors(list(errors))

    def _add(self, definition: Definition) -> list[ExprError]:
        params = tuple((p, as_type(t)) for p, t in definition.params)
        problems = self._name_problems(definition.name, params)
        errors = [ExprError(m, Pos(), definition.name, definition.origin) for m in problems]
        try:
            parsed = definition.parsed()
        except SpecErrors as err:
            self._declare(definition, params, ERROR, problems)
            return errors + [e for e in err.errors if isinstance(e, ExprError)]
        checker = Checker(self.scope, self.functions, self._signatures, parsed.text, parsed.origin)
        node = checker.check(parsed.node, dict(params))
        if definition.result is not None:
            checker.expect(node, definition.result, f"the body of `{definition.name}`")
        result = definition.result or type_of(node)
        if self._declare(definition, params, result, problems):
            self.definitions[definition.name] = CheckedDefinition(
                definition.name, params, result, node, parsed.text, parsed.origin
            )
        return errors + checker.errors

    def _declare(
        self,
        definition: Definition,
        params: tuple[tuple[str, Type], ...],
        result: Type,
        problems: list[str],
    ) -> bool:
        """Make a definition visible to later ones (even a broken one, to avoid echo errors)."""
        if definition.name in self._signatures:
            return False
        self._signatures[definition.name] = Signature(definition.name, params, result)
        return not problems

    def _name_problems(self, name: str, params: tuple[tuple[str, Type], ...]) -> list[str]:
        taken: dict[str, Container[str]] = {
            "a definition": self._signatures,
            "a function": self.functions,
            "a context name": self.scope,
        }
        problems = [f"`{name}` is already {what}" for what, names in taken.items() if name in names]
        if name in WORDS:
            problems.append(f"`{name}` is a card word (a rank or suit name)")
        if not _NAME.match(name) or name in KEYWORDS or name in COMPREHENSIONS:
            problems.append(f"`{name}` cannot name a definition")
        names = [p for p, _ in params]
        problems += [
            f"parameter `{p}` of `{name}` appears twice"
            for k, p in enumerate(names)
            if p in names[:k]
        ]
        return problems

    def check(self, expr: ParsedExpr | str, expected: Type | None = None) -> TypedExpr:
        """Type-check an expression; raise `SpecErrors` listing every problem."""
        parsed = parse(expr) if isinstance(expr, str) else expr
        checker = Checker(self.scope, self.functions, self._signatures, parsed.text, parsed.origin)
        node = checker.check(parsed.node, {})
        if expected is not None:
            checker.expect(node, expected, "the expression")
        if checker.errors:
            raise SpecErrors(list(checker.errors))
        return TypedExpr(node, type_of(node), parsed.text, parsed.origin, self)

    def evaluate(self, typed: TypedExpr, env: Mapping[str, Any]) -> Any:
        """The reference interpreter: slow, and the definition of what an expression means."""
        return interpret(typed, env)

    def compile(self, typed: TypedExpr, label: str = "") -> Compiled:
        """The fast path: a callable `fn(env)` that agrees with `evaluate`. (The z3 encoding is
        `referee.proofs.encode`'s, which builds on this module.)"""
        return compile_expr(typed, label)


def check(
    expr: ParsedExpr | str,
    scope: Scope | Mapping[str, TypeLike] | None = None,
    expected: Type | None = None,
    functions: Iterable[Function] | Mapping[str, Function] | None = None,
) -> TypedExpr:
    """Check one expression with no definitions (a shortcut for `Program(scope).check`)."""
    return Program(scope, (), functions).check(expr, expected)


def names_read(typed: Iterable[TypedExpr]) -> frozenset[str]:
    """The context (and scope) names some expressions read, through the definitions they call."""
    return frozenset(fields_read(typed))


def fields_read(typed: Iterable[TypedExpr]) -> dict[str, frozenset[str] | None]:
    """Each context name some expressions read, with the fields of it they read when they read
    it only as `name.field` (a record's: `options.joker_rule`), else None (read whole)."""
    found: dict[str, set[str] | None] = {}
    seen: set[tuple[int, str]] = set()

    def walk(node: Node, program: Program) -> None:
        if isinstance(node, Attr) and isinstance(node.obj, Name) and node.obj.ref == VAR:
            fields = found.setdefault(node.obj.id, set())
            if fields is not None:
                fields.add(node.name)
            return
        if isinstance(node, Name) and node.ref == VAR:
            found[node.id] = None
        called = (
            node.id
            if isinstance(node, Name) and node.ref == DEF
            else (node.func if isinstance(node, Call) and node.ref == DEF else None)
        )
        if called is not None and (id(program), called) not in seen:
            seen.add((id(program), called))
            walk(program.definitions[called].node, program)
        for child in children(node):
            walk(child, program)

    for expression in typed:
        walk(expression.node, expression.program)
    return {name: None if f is None else frozenset(f) for name, f in found.items()}


def words_given(typed: TypedExpr) -> frozenset[str]:
    """The text literals a text expression can give as its value (through `if` branches and the
    definitions it calls): the words a rule's sentence may show (`say: {led: suit_name(...)}`)."""
    found: set[str] = set()
    seen: set[str] = set()

    def walk(node: Node) -> None:
        if isinstance(node, StrLit):
            found.add(node.value)
        elif isinstance(node, IfExpr):
            walk(node.then)
            walk(node.orelse)
        else:
            called = (
                node.id
                if isinstance(node, Name) and node.ref == DEF
                else (node.func if isinstance(node, Call) and node.ref == DEF else None)
            )
            if called is not None and called not in seen:
                seen.add(called)
                walk(typed.program.definitions[called].node)

    walk(typed.node)
    return frozenset(found)
