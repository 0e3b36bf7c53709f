"""The compiler: a typed tree -> nested Python closures, the fast path that judges live moves.

Every node compiles to a `Const` (folded at compile time) or a closure `code(env, frame)`.
`env` is the caller's dict of context values; `frame` is a per-call list of slots holding the
binders, the parameters of the definition being run, and the memoised value of each
definition without parameters (those depend on `env` only). Each binder and parameter of the
program owns one slot: there is no recursion and arguments are evaluated before a call binds
them, so a slot is never needed twice at once. Evaluation order, short-circuits and errors are
those of the reference interpreter (`interp.py`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.spec.expr import values
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
    type_of,
)
from referee.spec.expr.checked import CheckedExpr, CheckedProgram
from referee.spec.expr.comprehend import COMPREHENSION_CODE
from referee.spec.expr.source import EvalError, Origin, where
from referee.spec.expr.types import BOOL, CARD, INT, STR, ListType

Code = Callable[[Mapping[str, Any], list[Any]], Any]
UNSET: Any = object()
_SCALARS = (INT, BOOL, STR, CARD)


@dataclass(frozen=True, slots=True)
class Const:
    value: Any


Part = Const | Code


def run(part: Part) -> Code:
    """A closure for a part, constant or not."""
    if isinstance(part, Const):
        value = part.value
        return lambda env, frame: value
    return part


def fold(code: Code, *parts: Part) -> Part:
    """Evaluate `code` now if all its parts are constants and it succeeds (else keep it)."""
    if not all(isinstance(p, Const) for p in parts):
        return code
    try:
        return Const(code({}, []))
    except EvalError:
        return code  # the error belongs to run time, with its message


class Check:
    """A compiled condition: call it with the env. Subclasses say what they are in `repr`."""

    def __call__(self, env: Mapping[str, Any]) -> Any:
        raise NotImplementedError


class Compiled(Check):
    """One compiled expression; `repr` shows its label and source text."""

    __slots__ = ("_code", "_size", "label", "text", "type", "where")

    def __init__(self, code: Code, size: int, typed: CheckedExpr, label: str) -> None:
        self._code, self._size = code, size
        self.text, self.label, self.type = typed.text, label, typed.type
        self.where = f"{typed.origin.file}:{typed.origin.line}"

    def __call__(self, env: Mapping[str, Any]) -> Any:
        return self._code(env, [UNSET] * self._size)

    def __repr__(self) -> str:
        label = f"{self.label} " if self.label else ""
        return f"<compiled {label}at {self.where}: {' '.join(self.text.split())}>"


class _AllOf(Check):
    def __init__(self, checks: tuple[Check, ...]) -> None:
        self.checks = checks

    def __call__(self, env: Mapping[str, Any]) -> bool:
        return all(check(env) for check in self.checks)

    def __repr__(self) -> str:
        return f"all_of({', '.join(map(repr, self.checks))})"


class _AnyOf(_AllOf):
    def __call__(self, env: Mapping[str, Any]) -> bool:
        return any(check(env) for check in self.checks)

    def __repr__(self) -> str:
        return f"any_of({', '.join(map(repr, self.checks))})"


class _Not(Check):
    def __init__(self, check: Check) -> None:
        self.check = check

    def __call__(self, env: Mapping[str, Any]) -> bool:
        return not self.check(env)

    def __repr__(self) -> str:
        return f"not_({self.check!r})"


def all_of(*checks: Check) -> Check:
    """True iff every check holds; stops at the first that does not."""
    return _AllOf(checks)


def any_of(*checks: Check) -> Check:
    """True iff some check holds; stops at the first that does."""
    return _AnyOf(checks)


def not_(check: Check) -> Check:
    return _Not(check)


# ---- per-program state --------------------------------------------------------------------


class ProgramCode:
    """The compiled definitions of one program and its slot counter."""

    def __init__(self, program: CheckedProgram) -> None:
        self.program = program
        self.slots = 0
        self.bodies: dict[str, Part] = {}
        self.param_slots: dict[str, tuple[int, ...]] = {}
        self.memo_slots: dict[str, int] = {}
        for name, definition in program.definitions.items():
            params = {p: self.new_slot() for p, _ in definition.params}
            self.param_slots[name] = tuple(params.values())
            if not params:
                self.memo_slots[name] = self.new_slot()
            self.bodies[name] = _Compiler(self, definition.origin).part(definition.node, params)

    def new_slot(self) -> int:
        self.slots += 1
        return self.slots - 1


def program_code(program: CheckedProgram) -> ProgramCode:
    if program._compiled is None:
        program._compiled = ProgramCode(program)
    code: ProgramCode = program._compiled
    return code


def compile_expr(typed: CheckedExpr, label: str = "") -> Compiled:
    """Compile a checked expression into a callable `fn(env)`."""
    state = program_code(typed.program)
    part = _Compiler(state, typed.origin).part(typed.node, {})
    return Compiled(run(part), state.slots, typed, label)


class _Compiler:
    def __init__(self, state: ProgramCode, origin: Origin) -> None:
        self.state, self.origin = state, origin

    def part(self, node: Node, slots: Mapping[str, int]) -> Part:
        return _RULES[type(node)](self, node, slots)

    def at(self, node: Node) -> str:
        return where(self.origin, node.pos)


Slots = Mapping[str, int]


def _literal(c: _Compiler, node: IntLit | StrLit | BoolLit | CardLit, slots: Slots) -> Part:
    return Const(node.value)


def _list(c: _Compiler, node: ListLit, slots: Slots) -> Part:
    parts = [c.part(item, slots) for item in node.items]
    constants = [p for p in parts if isinstance(p, Const)]
    if len(constants) == len(parts):
        return Const(tuple(p.value for p in constants))
    codes = [run(p) for p in parts]
    return lambda env, frame: [code(env, frame) for code in codes]


def _name(c: _Compiler, node: Name, slots: Slots) -> Part:
    if node.ref == LOCAL:
        slot = slots[node.id]
        return lambda env, frame: frame[slot]
    if node.ref == DEF:
        return _definition_value(c.state, node.id)
    name, at = node.id, c.at(node)

    def var(env: Mapping[str, Any], frame: list[Any]) -> Any:
        try:
            return env[name]
        except KeyError:
            raise EvalError(f"no value for `{name}` in the context", at) from None

    return var


def _definition_value(state: ProgramCode, name: str) -> Part:
    body = state.bodies[name]
    if isinstance(body, Const):
        return body
    slot = state.memo_slots[name]

    def memo(env: Mapping[str, Any], frame: list[Any]) -> Any:
        value = frame[slot]
        if value is UNSET:
            value = frame[slot] = body(env, frame)
        return value

    return memo


def _attr(c: _Compiler, node: Attr, slots: Slots) -> Part:
    obj, name, at = run(c.part(node.obj, slots)), node.name, c.at(node)

    def attr(env: Mapping[str, Any], frame: list[Any]) -> Any:
        record = obj(env, frame)
        try:
            return record[name]
        except (KeyError, TypeError):
            raise EvalError(f"the record has no field `{name}`", at) from None

    return attr


def _index(c: _Compiler, node: Index, slots: Slots) -> Part:
    obj_part, index_part = c.part(node.obj, slots), c.part(node.index, slots)
    obj, index, at = run(obj_part), run(index_part), c.at(node)

    def item(env: Mapping[str, Any], frame: list[Any]) -> Any:
        xs, i = obj(env, frame), index(env, frame)
        if 0 <= i < len(xs):
            return xs[i]
        raise EvalError(f"index `{i}` out of range for a list of size `{len(xs)}`", at)

    return fold(item, obj_part, index_part)


def _unary(c: _Compiler, node: Unary, slots: Slots) -> Part:
    part = c.part(node.operand, slots)
    if isinstance(part, Const):
        return Const(-part.value if node.op == "-" else not part.value)
    if node.op == "-":
        return lambda env, frame: -part(env, frame)
    return lambda env, frame: not part(env, frame)


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def _binary(c: _Compiler, node: Binary, slots: Slots) -> Part:
    left, right = c.part(node.left, slots), c.part(node.right, slots)
    a, b = run(left), run(right)
    if isinstance(type_of(node), ListType):
        return fold(lambda env, frame: [*a(env, frame), *b(env, frame)], left, right)
    if node.op in _ARITH:
        op = _ARITH[node.op]
        if isinstance(right, Const):
            k = right.value
            return fold(lambda env, frame: op(a(env, frame), k), left)
        return fold(lambda env, frame: op(a(env, frame), b(env, frame)), left, right)
    return fold(_division(node.op, a, b, c.at(node)), left, right)


def _division(op: str, a: Code, b: Code, at: str) -> Code:
    divide = values.floordiv if op == "//" else values.mod
    return lambda env, frame: divide(a(env, frame), b(env, frame), at)


_ORDER = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def _compare(c: _Compiler, node: Compare, slots: Slots) -> Part:
    left, right = c.part(node.left, slots), c.part(node.right, slots)
    scalar = type_of(node.left) in _SCALARS
    if node.op in ("in", "not in"):
        code = _membership(left, right, scalar)
        if node.op == "not in":
            inner = code
            code = lambda env, frame: not inner(env, frame)
        return fold(code, left, right)
    a, b = run(left), run(right)
    if not scalar:
        equal = values.equal if node.op == "==" else (lambda x, y: not values.equal(x, y))
        return fold(lambda env, frame: equal(a(env, frame), b(env, frame)), left, right)
    op = _ORDER[node.op]
    if isinstance(right, Const):
        k = right.value
        return fold(lambda env, frame: op(a(env, frame), k), left)
    return fold(lambda env, frame: op(a(env, frame), b(env, frame)), left, right)


def _membership(left: Part, right: Part, scalar: bool) -> Code:
    a, b = run(left), run(right)
    if scalar and isinstance(right, Const):
        members = frozenset(right.value)  # scalars are hashable: one lookup instead of a scan
        return lambda env, frame: a(env, frame) in members
    if scalar:
        return lambda env, frame: a(env, frame) in b(env, frame)

    def member(env: Mapping[str, Any], frame: list[Any]) -> bool:
        item = a(env, frame)
        return any(values.equal(item, x) for x in b(env, frame))

    return member


def _bool_op(c: _Compiler, node: BoolOp, slots: Slots) -> Part:
    left, right = c.part(node.left, slots), c.part(node.right, slots)
    if isinstance(left, Const):  # `true and x` is x; `false and x` is false
        stops = left.value is (node.op == "or")
        return left if stops else right
    a, b = left, run(right)
    if node.op == "and":
        return lambda env, frame: a(env, frame) and b(env, frame)
    return lambda env, frame: a(env, frame) or b(env, frame)


def _if(c: _Compiler, node: IfExpr, slots: Slots) -> Part:
    cond = c.part(node.cond, slots)
    then, orelse = c.part(node.then, slots), c.part(node.orelse, slots)
    if isinstance(cond, Const):
        return then if cond.value else orelse
    t, e = run(then), run(orelse)
    return lambda env, frame: t(env, frame) if cond(env, frame) else e(env, frame)


def _comprehension(c: _Compiler, node: Comprehension, slots: Slots) -> Part:
    slot = c.state.new_slot()
    source = run(c.part(node.source, slots))
    body = run(c.part(node.body, {**slots, node.var: slot}))
    return COMPREHENSION_CODE[node.kind](source, body, slot)


def _call(c: _Compiler, node: Call, slots: Slots) -> Part:
    parts = [c.part(arg, slots) for arg in node.args]
    if node.ref == DEF:
        return _call_definition(c.state, node.func, [run(p) for p in parts])
    fn = c.state.program.functions[node.func].py
    codes = [run(p) for p in parts]
    if len(codes) == 1:
        (a,) = codes
        code: Code = lambda env, frame: fn(a(env, frame))
    elif len(codes) == 2:
        a, b = codes
        code = lambda env, frame: fn(a(env, frame), b(env, frame))
    else:
        code = lambda env, frame: fn(*[g(env, frame) for g in codes])
    return fold(code, *parts)


def _call_definition(state: ProgramCode, name: str, args: list[Code]) -> Code:
    body, params = run(state.bodies[name]), state.param_slots[name]
    if len(args) == 1:
        (a,), (p,) = args, params

        def call1(env: Mapping[str, Any], frame: list[Any]) -> Any:
            frame[p] = a(env, frame)
            return body(env, frame)

        return call1

    def call(env: Mapping[str, Any], frame: list[Any]) -> Any:
        bound = [g(env, frame) for g in args]  # all arguments first: one may call `name` too
        for slot, value in zip(params, bound):
            frame[slot] = value
        return body(env, frame)

    return call


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
