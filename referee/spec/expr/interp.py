"""The reference interpreter: a direct walk of the typed tree. Slow, and obviously right.

This is where an expression's meaning is defined; the compiler and the z3 encoder are tested
against it. Evaluation order is left to right; `and`, `or`, `if`, `all`, `any` and
`first_index` stop as soon as the answer is known (so a guard protects what follows it);
every other construct evaluates all of its parts. A definition's body is evaluated each time it
is used, with the definition's own origin for error messages.
"""

from __future__ import annotations

from collections.abc import Mapping
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
)
from referee.spec.expr.checked import CheckedExpr, CheckedProgram
from referee.spec.expr.source import EvalError, Origin, where


@dataclass(frozen=True)
class _Frame:
    """The binders and parameters in reach, and where the running text comes from."""

    locals: Mapping[str, Any]
    origin: Origin

    def bind(self, name: str, value: Any) -> _Frame:
        return _Frame({**self.locals, name: value}, self.origin)


def interpret(typed: CheckedExpr, env: Mapping[str, Any]) -> Any:
    return _Interpreter(typed.program, env).eval(typed.node, _Frame({}, typed.origin))


class _Interpreter:
    def __init__(self, program: CheckedProgram, env: Mapping[str, Any]) -> None:
        self.program, self.env = program, env

    def eval(self, node: Node, frame: _Frame) -> Any:
        match node:
            case IntLit(value=v) | StrLit(value=v) | BoolLit(value=v) | CardLit(value=v):
                return v
            case ListLit(items=items):
                return [self.eval(item, frame) for item in items]
            case Name():
                return self.name(node, frame)
            case Attr(obj=obj, name=name):
                return values.field(self.eval(obj, frame), name, _at(node, frame))
            case Index(obj=obj, index=index):
                xs, i = self.eval(obj, frame), self.eval(index, frame)
                return values.item(xs, i, _at(node, frame))
            case Unary(op="-", operand=operand):
                return -self.eval(operand, frame)
            case Unary(op="not", operand=operand):
                return not self.eval(operand, frame)
            case Binary(op=op, left=left, right=right):
                a, b = self.eval(left, frame), self.eval(right, frame)
                return arithmetic(op, a, b, _at(node, frame))
            case Compare(op=op, left=left, right=right):
                return compare(op, self.eval(left, frame), self.eval(right, frame))
            case BoolOp(op="and", left=left, right=right):
                return self.eval(left, frame) and self.eval(right, frame)
            case BoolOp(op="or", left=left, right=right):
                return self.eval(left, frame) or self.eval(right, frame)
            case IfExpr(cond=cond, then=then, orelse=orelse):
                return self.eval(then if self.eval(cond, frame) else orelse, frame)
            case Comprehension():
                return self.comprehension(node, frame)
            case Call():
                return self.call(node, frame)
        raise AssertionError(f"unknown node {node!r}")

    def name(self, node: Name, frame: _Frame) -> Any:
        if node.ref == LOCAL:
            return frame.locals[node.id]
        if node.ref == DEF:
            return self.definition(node.id, [])
        if node.id not in self.env:
            raise EvalError(f"no value for `{node.id}` in the context", _at(node, frame))
        return self.env[node.id]

    def definition(self, name: str, args: list[Any]) -> Any:
        definition = self.program.definitions[name]
        bound = {pname: arg for (pname, _), arg in zip(definition.params, args)}
        return self.eval(definition.node, _Frame(bound, definition.origin))

    def call(self, node: Call, frame: _Frame) -> Any:
        args = [self.eval(arg, frame) for arg in node.args]
        if node.ref == DEF:
            return self.definition(node.func, args)
        return self.program.functions[node.func].py(*args)

    def comprehension(self, node: Comprehension, frame: _Frame) -> Any:
        items = list(self.eval(node.source, frame))

        def body(item: Any) -> Any:
            return self.eval(node.body, frame.bind(node.var, item))

        match node.kind:
            case "all":
                return all(body(x) for x in items)
            case "any":
                return any(body(x) for x in items)
            case "count":
                return sum(1 for x in [body(x) for x in items] if x)
            case "filter":
                return [x for x, keep in [(x, body(x)) for x in items] if keep]
            case "map":
                return [body(x) for x in items]
            case "sum":
                return sum(body(x) for x in items)
            case "first_index":
                return next((k for k, x in enumerate(items) if body(x)), -1)
            case "best_index":
                return best_index([body(x) for x in items])
        raise AssertionError(f"unknown comprehension {node.kind!r}")


def best_index(keys: list[int]) -> int:
    """The index of the first greatest key; -1 when there is none."""
    best = -1
    for k, key in enumerate(keys):
        if best < 0 or key > keys[best]:
            best = k
    return best


def _at(node: Node, frame: _Frame) -> str:
    return where(frame.origin, node.pos)


def arithmetic(op: str, a: Any, b: Any, at: str) -> Any:
    match op:
        case "+":
            return list(a) + list(b) if isinstance(a, (list, tuple)) else a + b
        case "-":
            return a - b
        case "*":
            return a * b
        case "//":
            return values.floordiv(a, b, at)
        case "%":
            return values.mod(a, b, at)
    raise AssertionError(f"unknown operator {op!r}")


def compare(op: str, a: Any, b: Any) -> bool:
    match op:
        case "==":
            return values.equal(a, b)
        case "!=":
            return not values.equal(a, b)
        case "<":
            return bool(a < b)
        case "<=":
            return bool(a <= b)
        case ">":
            return bool(a > b)
        case ">=":
            return bool(a >= b)
        case "in":
            return any(values.equal(a, x) for x in b)
        case "not in":
            return not any(values.equal(a, x) for x in b)
    raise AssertionError(f"unknown comparison {op!r}")
