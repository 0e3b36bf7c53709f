"""The code generator: a checked tree -> Python source text, compiled once into real functions.

Each definition of a program becomes one Python function, `d_<k>(env, m, <params>)`, and each
compiled expression one more, `e_<k>(env, m)`, every text compiled once with a file name like
`<rules specs/pontinho.yaml:42>` so that a traceback points at the spec. `env` is the caller's
context; `m` is the memo list of one top-level call: a definition without parameters depends
on `env` only, so its value is computed at first use and kept in its slot of `m` (a use reads
the slot inline, and calls the definition's function only while the slot is unset). Each
comprehension becomes a function of its own, `c_<k>(env, m, <binders in reach>)`, an explicit
loop that stops where the interpreter stops (a loop statement beats a generator expression).

Operators are inline Python. Where Python would give a value but the language fails (a
negative index counts from the end in Python) the code checks; everywhere else a failure is
simply Python's (KeyError for a missing name or field, ZeroDivisionError, IndexError, ...), and
the caller (`compile.Compiled`) then re-runs the reference interpreter, which raises the
located EvalError (expressions are pure). So wherever the generated code returns a value it
must be the interpreter's, and it must evaluate at least what could fail in the interpreter.

Nothing of the spec becomes code: binders, parameters, definitions and functions get generated
names (`v_3`, `d_7`, `c_5`), strings and field names are `repr`'d literals, other constants
(cards, folded lists, member sets, vocabulary functions) are module globals `k_<n>`, and spec
text appears only in comments, each line made printable (and in the `compile()` file name).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import CodeType
from typing import Any

from referee.spec.expr.ast import (
    DEF,
    LOCAL,
    Attr,
    Binary,
    BoolLit,
    BoolOp,
    Call,
    CardLit,
    Compare,
    Comprehension,
    IfExpr,
    Index,
    IntLit,
    ListLit,
    Name,
    Node,
    StrLit,
    Unary,
    children,
    type_of,
)
from referee.spec.expr.checked import CheckedDefinition, CheckedProgram
from referee.spec.expr.interp import interpret
from referee.spec.expr.printer import unparse
from referee.spec.expr.runtime import RANK_VALUE, RUNTIME, SUIT_IS_RED
from referee.spec.expr.source import EvalError, Origin
from referee.spec.expr.types import BOOL, CARD, INT, STR, ListType, Type
from referee.spec.expr.vocabulary import BUILTINS

_SCALARS = (INT, BOOL, STR, CARD)
_WIDTH = 76  # a group longer than this (or holding a line break) is laid out one part a line
_INLINE_SIZE = 400  # a definition with parameters whose body's text is no longer is inlined

GeneratedFn = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Const:
    """A sub-tree folded at compile time."""

    value: Any


@dataclass(frozen=True, slots=True)
class Src:
    """A Python expression, parenthesised unless atomic. `local` marks a Python local name
    (a binder or parameter): cheap, and safe to evaluate twice."""

    text: str
    local: bool = False
    chain: str = ""  # "and"/"or" when `text` is such a chain (`items` are its operands)
    items: tuple[str, ...] = ()


Part = Const | Src


# Builtins with an inline form (used only when the program's function is that very builtin).
_INLINE: dict[str, Callable[[list[str]], str]] = {
    "size": lambda a: f"len({a[0]})",
    "rank": lambda a: f"_rank[{a[0]}.rank]" if RANK_VALUE else f"{a[0]}.value",
    "suit": lambda a: f"{a[0]}.suit",
    "is_red": lambda a: f"_red[{a[0]}.suit]" if SUIT_IS_RED else f"{a[0]}.is_red",
    "min": lambda a: f"min({a[0]}, {a[1]})",
    "max": lambda a: f"max({a[0]}, {a[1]})",
    "abs": lambda a: f"abs({a[0]})",
}


def printable(text: str) -> str:
    """One line of spec text with anything unprintable (line breaks too) escaped."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def comment(text: str) -> list[str]:
    """Spec text as comment lines: split at every line boundary, each line printable."""
    return ["# " + printable(line).rstrip() for line in text.strip().splitlines() or [""]]


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line else line for line in text.split("\n"))


def _group(open_: str, parts: list[str], close: str, comma: bool = False) -> str:
    """`open parts... close` on one line when short, else one part a line, indented; parts
    are separated by spaces (they carry their `and`, `for`, `if`) or, with `comma`, commas."""
    flat = open_ + (", " if comma else " ").join(parts) + close
    if len(flat) <= _WIDTH and "\n" not in flat:
        return flat
    lines = [_indent(p) + ("," if comma else "") for p in parts]
    return open_ + "\n" + "\n".join(lines) + "\n" + close


@dataclass(frozen=True)
class _Fold:
    """A constant sub-tree as the interpreter's input (a `CheckedExpr`)."""

    node: Node
    type: Type
    text: str
    origin: Origin
    program: CheckedProgram


def _frozen_constant(value: Any) -> Any:
    """Constant lists become tuples: a folded value is shared by every call."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen_constant(v) for v in value)
    return value


@dataclass(frozen=True)
class DefinitionCode:
    """How generated code uses one definition: its function name and memo slot, or a value."""

    fn: str
    memo: int | None  # the slot in `m` of a definition without parameters
    value: Const | None  # a definition without parameters whose body folded
    inline: CheckedDefinition | None = None  # a small one with parameters: written in place


class ProgramCode:
    """The generated module of one program: its namespace, the definitions' functions, and
    the source text of everything generated so far."""

    def __init__(self, program: CheckedProgram) -> None:
        self.program = program
        self.namespace: dict[str, Any] = dict(RUNTIME)
        self.definitions: dict[str, DefinitionCode] = {}
        self.memo_size = 0
        self.sources: list[str] = []
        self.helpers: list[str] = []  # comprehension functions for the next `load`
        self._names = 0
        self._functions: dict[str, str] = {}
        for definition in program.definitions.values():
            self._define(definition)

    @property
    def source(self) -> str:
        return "\n\n".join(self.sources)

    def new_name(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}_{self._names}"

    def constant(self, value: Any) -> str:
        name = self.new_name("k")
        self.namespace[name] = value
        return name

    def function(self, name: str) -> str:
        """The global that holds a vocabulary function's Python implementation."""
        if name not in self._functions:
            self._functions[name] = self.constant(self.program.functions[name].py)
        return self._functions[name]

    def part(self, node: Node, origin: Origin) -> Part:
        """The generated form of an expression with no binders in reach."""
        return _Generator(self, origin, {}).part(node)

    def _define(self, definition: CheckedDefinition) -> None:
        params = {p: self.new_name("v") for p, _ in definition.params}
        body = _Generator(self, definition.origin, params).part(definition.node)
        fn = self.new_name("d")
        if not params and isinstance(body, Const):
            self.definitions[definition.name] = DefinitionCode(fn, None, body)
            return
        memo = None if params else self.memo_size
        self.memo_size += memo is not None
        expr = self.text(body)
        small = params and len(expr) <= _INLINE_SIZE and not _has_comprehension(definition.node)
        self.definitions[definition.name] = DefinitionCode(
            fn, memo, None, definition if small else None
        )
        signature = ", ".join(["env", "m", *params.values()])
        head = [f"def {fn}({signature}):", *_indented_comment(definition, definition.text)]
        if memo is None:
            lines = [*head, f"    return {_indent(expr)[4:]}"]
        else:
            lines = [
                *head,
                f"    v = m[{memo}]",
                "    if v is _U:",
                f"        v = m[{memo}] = {_indent(expr, ' ' * 8)[8:]}",
                "    return v",
            ]
        self.load("\n".join(lines), definition.origin)

    def expression(self, node: Node, origin: Origin, text: str, label: str) -> tuple[str, str]:
        """Generate and load the function of one top-level expression: (its name, its text)."""
        body = self.part(node, origin)
        fn = self.new_name("e")
        title = f"{label}: {text}" if label else text
        lines = [f"def {fn}(env, m):", *("    " + c for c in comment(title))]
        lines.append(f"    return {_indent(self.text(body))[4:]}")
        return fn, self.load("\n".join(lines), origin)

    def text(self, part: Part) -> str:
        if isinstance(part, Src):
            return part.text
        value = part.value
        if isinstance(value, bool):
            return "True" if value else "False"
        if isinstance(value, int):
            return repr(value) if value >= 0 else f"({value!r})"
        if isinstance(value, str):
            return repr(value)
        return self.constant(value)

    def load(self, source: str, origin: Origin) -> str:
        """Compile one function, after the comprehension functions it calls, into the module;
        return the text compiled."""
        source = "\n\n".join([*self.helpers, source])
        self.helpers = []
        code = _compiled(source, printable(f"<rules {origin.file}:{origin.line}>"))
        exec(code, self.namespace)  # our own generated text: see the module doc
        self.sources.append(source)
        return source

    def fn(self, name: str) -> GeneratedFn:
        loaded: GeneratedFn = self.namespace[name]
        return loaded


@functools.lru_cache(maxsize=4096)
def _compiled(source: str, filename: str) -> CodeType:
    """Python's compile, once per text: a spec's checkpoints each have a program with the
    same definitions, so the same text (a code object runs in any module's namespace)."""
    code: CodeType = compile(source, filename, "exec")
    return code


def _indented_comment(definition: CheckedDefinition, text: str) -> list[str]:
    params = ", ".join(f"{p}: {t}" for p, t in definition.params)
    signature = f"{definition.name}({params})" if definition.params else definition.name
    return ["    " + c for c in comment(f"{signature} := {' '.join(text.split())}")]


class _Generator:
    """Generates the parts of one function body; `scope` maps binders to Python locals."""

    def __init__(self, state: ProgramCode, origin: Origin, scope: Mapping[str, str]) -> None:
        self.state, self.origin, self.scope = state, origin, scope

    def part(self, node: Node) -> Part:
        return _RULES[type(node)](self, node)

    def text(self, node: Node) -> str:
        return self.state.text(self.part(node))

    def src(self, part: Part) -> str:
        return self.state.text(part)

    def inner(self, scope: Mapping[str, str]) -> _Generator:
        return _Generator(self.state, self.origin, scope)

    def fold(self, node: Node, code: str, *parts: Part) -> Part:
        """The interpreter's value of `node` if all its parts are constants and it succeeds."""
        if not all(isinstance(p, Const) for p in parts):
            return Src(code)
        constant = _Fold(node, type_of(node), "", self.origin, self.state.program)
        try:
            return Const(_frozen_constant(interpret(constant, {})))
        except EvalError:
            return Src(code)  # the error belongs to run time, with its message


def _literal(g: _Generator, node: IntLit | StrLit | BoolLit | CardLit) -> Part:
    return Const(node.value)


def _list(g: _Generator, node: ListLit) -> Part:
    parts = [g.part(item) for item in node.items]
    if all(isinstance(p, Const) for p in parts):
        return Const(tuple(p.value for p in parts if isinstance(p, Const)))
    return Src(_group("[", [g.src(p) for p in parts], "]", comma=True))


def _name(g: _Generator, node: Name) -> Part:
    if node.ref == LOCAL:
        return Src(g.scope[node.id], local=True)
    if node.ref == DEF:
        definition = g.state.definitions[node.id]
        if definition.value is not None:
            return definition.value
        slot = f"m[{definition.memo}]"
        return Src(f"({slot} if {slot} is not _U else {definition.fn}(env, m))")
    return Src(f"env[{node.id!r}]")


def _attr(g: _Generator, node: Attr) -> Part:
    return Src(f"{g.text(node.obj)}[{node.name!r}]")


def _index(g: _Generator, node: Index) -> Part:
    obj, index = g.part(node.obj), g.part(node.index)
    xs, i = g.src(obj), g.src(index)
    if isinstance(index, Const):
        k = index.value
        code = f"{xs}[{k}]" if k >= 0 else f"{xs}[_no_item()]"
    elif isinstance(index, Src) and index.local:
        code = f"({xs}[{i}] if {i} >= 0 else _no_item())"
    else:
        t = g.state.new_name("t")
        code = f"({xs}[{t}] if ({t} := {i}) >= 0 else _no_item())"
    return g.fold(node, code, obj, index)


def _unary(g: _Generator, node: Unary) -> Part:
    part = g.part(node.operand)
    if isinstance(part, Const):
        return Const(-part.value if node.op == "-" else not part.value)
    return Src(f"(-{g.src(part)})" if node.op == "-" else f"(not {g.src(part)})")


def _binary(g: _Generator, node: Binary) -> Part:
    left, right = g.part(node.left), g.part(node.right)
    a, b = g.src(left), g.src(right)
    if isinstance(type_of(node), ListType):
        return g.fold(node, f"[*{a}, *{b}]", left, right)
    return g.fold(node, f"({a} {node.op} {b})", left, right)  # `//` by zero: Python raises


def _compare(g: _Generator, node: Compare) -> Part:
    left, right = g.part(node.left), g.part(node.right)
    a, b = g.src(left), g.src(right)
    scalar = type_of(node.left) in _SCALARS
    if node.op in ("in", "not in"):
        if scalar and isinstance(right, Const) and not isinstance(left, Const):
            b = g.state.constant(frozenset(right.value))  # one hash lookup instead of a scan
        if scalar:
            code = f"({a} {node.op} {b})"
        else:
            code = f"_member({a}, {b})" if node.op == "in" else f"(not _member({a}, {b}))"
    elif not scalar:
        code = f"_equal({a}, {b})" if node.op == "==" else f"(not _equal({a}, {b}))"
    else:
        code = f"({a} {node.op} {b})"
    return g.fold(node, code, left, right)


def _bool_op(g: _Generator, node: BoolOp) -> Part:
    left, right = g.part(node.left), g.part(node.right)
    if isinstance(left, Const):  # `true and x` is x; `false and x` is false
        stops = left.value is (node.op == "or")
        return left if stops else right
    items = left.items if left.chain == node.op else (left.text,)
    items = (*items, g.src(right))
    first, *rest = items
    text = _group("(", [first, *(f"{node.op} {item}" for item in rest)], ")")
    return Src(text, chain=node.op, items=items)


def _if(g: _Generator, node: IfExpr) -> Part:
    cond = g.part(node.cond)
    if isinstance(cond, Const):
        return g.part(node.then if cond.value else node.orelse)
    then, orelse = g.text(node.then), g.text(node.orelse)
    return Src(_group("(", [then, f"if {g.src(cond)}", f"else {orelse}"], ")"))


def _comprehension(g: _Generator, node: Comprehension) -> Part:
    fn, var = g.state.new_name("c"), g.state.new_name("v")
    passed = [g.scope[name] for name in sorted(_locals_read(node)) if name in g.scope]
    source = _source(g, node.source)
    body = g.inner({**g.scope, node.var: var}).text(node.body)
    loop = _LOOPS[node.kind](var, _indent(source)[4:], _indent(body, " " * 8)[8:])
    head = [
        f"def {fn}({', '.join(['env', 'm', *passed])}):",
        *("    " + c for c in comment(unparse(node))),
    ]
    g.state.helpers.append("\n".join([*head, *("    " + line for line in loop)]))
    return Src(f"{fn}({', '.join(['env', 'm', *passed])})")


def _locals_read(node: Node) -> set[str]:
    """The binders and parameters a sub-tree reads (its comprehension passes them on)."""
    found = {node.id} if isinstance(node, Name) and node.ref == LOCAL else set()
    for child in children(node):
        found |= _locals_read(child)
    return found


# The loop of each comprehension kind, from its binder, source and body texts. `all`, `any` and
# `first_index` stop at the deciding item; the others run the body on every item, like the
# interpreter (`best_index` keeps the first greatest key).
_LOOPS: dict[str, Callable[[str, str, str], list[str]]] = {
    "all": lambda v, xs, body: [
        f"for {v} in {xs}:",
        f"    if not {body}:",
        "        return False",
        "return True",
    ],
    "any": lambda v, xs, body: [
        f"for {v} in {xs}:",
        f"    if {body}:",
        "        return True",
        "return False",
    ],
    "count": lambda v, xs, body: [
        "n = 0",
        f"for {v} in {xs}:",
        f"    if {body}:",
        "        n += 1",
        "return n",
    ],
    "filter": lambda v, xs, body: [
        "kept = []",
        f"for {v} in {xs}:",
        f"    if {body}:",
        f"        kept.append({v})",
        "return kept",
    ],
    "map": lambda v, xs, body: [
        "out = []",
        f"for {v} in {xs}:",
        f"    out.append({body})",
        "return out",
    ],
    "sum": lambda v, xs, body: [
        "total = 0",
        f"for {v} in {xs}:",
        f"    total += {body}",
        "return total",
    ],
    "first_index": lambda v, xs, body: [
        f"for k, {v} in enumerate({xs}):",
        f"    if {body}:",
        "        return k",
        "return -1",
    ],
    "best_index": lambda v, xs, body: [
        "best, top = -1, 0",
        f"for k, {v} in enumerate({xs}):",
        f"    key = {body}",
        "    if best < 0 or key > top:",
        "        best, top = k, key",
        "return best",
    ],
}


def _source(g: _Generator, node: Node) -> str:
    """A comprehension's iterable: `indices(xs)` need not be built as a list."""
    if isinstance(node, Call) and node.func == "indices" and _is_builtin(g, node):
        (xs,) = node.args
        return f"range(len({g.text(xs)}))"
    return g.text(node)


def _is_builtin(g: _Generator, node: Call) -> bool:
    return node.ref != DEF and g.state.program.functions[node.func] is BUILTINS.get(node.func)


def _call(g: _Generator, node: Call) -> Part:
    parts = [g.part(arg) for arg in node.args]
    args = [g.src(p) for p in parts]
    if node.ref == DEF:  # arguments first, left to right: Python's order too
        definition = g.state.definitions[node.func]
        if definition.inline is not None:
            return _inlined(g, definition.inline, parts)
        return Src(_group(f"{definition.fn}(", ["env", "m", *args], ")", comma=True))
    if _is_builtin(g, node) and node.func in _INLINE:
        code = _INLINE[node.func](args)
    else:
        code = _group(f"{g.state.function(node.func)}(", args, ")", comma=True)
    return g.fold(node, code, *parts)


def _inlined(g: _Generator, definition: CheckedDefinition, args: list[Part]) -> Part:
    """A small definition's body in place of its call: each argument that is not a local is
    first bound to a temporary (evaluated once, before the body, as for a call)."""
    scope, bound = {}, []
    for (param, _), arg in zip(definition.params, args):
        if isinstance(arg, Src) and not arg.local:
            scope[param] = g.state.new_name("t")
            bound.append(f"({scope[param]} := {arg.text})")
        else:
            scope[param] = g.src(arg)
    body = _Generator(g.state, definition.origin, scope).text(definition.node)
    if not bound:
        return Src(body)
    return Src(_group("(", [body, f"if ({', '.join(bound)},)", "else None"], ")"))


def _has_comprehension(node: Node) -> bool:
    return isinstance(node, Comprehension) or any(map(_has_comprehension, children(node)))


_RULES: dict[type, Callable[..., Part]] = {
    IntLit: _literal,
    StrLit: _literal,
    BoolLit: _literal,
    CardLit: _literal,
    ListLit: _list,
    Name: _name,
    Attr: _attr,
    Index: _index,
    Unary: _unary,
    Binary: _binary,
    Compare: _compare,
    BoolOp: _bool_op,
    IfExpr: _if,
    Comprehension: _comprehension,
    Call: _call,
}
