"""The z3 encoding of a checked expression over symbolic inputs (the third form of a rule).

`encode_full(typed, symenv)` returns an `Encoding`: the expression's symbolic value and the
condition under which the reference interpreter would raise `EvalError` (an index out of
range, a division by zero) on the same inputs. Lists have concrete length, so quantifiers
unroll into plain conjunctions: no z3 quantifier is ever produced. Python constants are folded
as the formula is built, so the concrete parts of a state (options, a known turned card) cost
nothing. Definitions are inlined at each use; those without parameters are encoded once.

Symbolic inputs (see `referee.spec.expr.symbolic`): ints/bools as python values or z3 terms,
strings as python `str` or `SymStr`, cards as `Card` or `SymCard`, lists as list/tuple or
`SymList`, records as dicts. `fresh_env(scope, lengths)` builds a fully symbolic context with
its domain constraints; `decode(value, model)` turns a model back into python values and cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import z3

from referee.cards import Card
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
from referee.spec.expr.program import Program, TypedExpr
from referee.spec.expr.symbolic import (
    STRINGS,
    BoolLike,
    IntLike,
    Sym,
    SymCard,
    SymList,
    SymStr,
    card_of,
    is_sym,
    s_and,
    s_count,
    s_eq,
    s_if,
    s_implies,
    s_lt,
    s_member,
    s_not,
    s_or,
    s_sum,
)
from referee.spec.expr.types import BOOL, CARD, INT, STR, ListType, RecordType, Scope, Type


class EncodeError(Exception):
    """The expression uses something the encoder cannot express (a function without z3 form)."""


@dataclass(frozen=True)
class Encoding:
    value: Sym
    error: BoolLike  # holds exactly when evaluation would raise EvalError

    @property
    def holds(self) -> BoolLike:
        """For a condition: it evaluates without error and is true."""
        return s_and(s_not(self.error), self.value)


def encode(typed: TypedExpr, symenv: Mapping[str, Any]) -> Sym:
    return encode_full(typed, symenv).value


def encode_full(typed: TypedExpr, symenv: Mapping[str, Any]) -> Encoding:
    encoder = _Encoder(typed.program, symenv)
    value = encoder.enc(typed.node, {}, True)
    return Encoding(value, s_or(*encoder.errors))


# ---- symbolic values in and out ------------------------------------------------------------


def lift(value: Any) -> Sym:
    """The symbolic representation of a (possibly partly) concrete value."""
    if isinstance(value, Card):
        return SymCard.lift(value)
    if isinstance(value, (list, tuple)):
        return SymList.of(lift(v) for v in value)
    if isinstance(value, Mapping):
        return {k: lift(v) for k, v in value.items()}
    return value


def fresh(
    ty: Type,
    name: str,
    lengths: Mapping[str, int] | None = None,
    choices: Mapping[str, list[str]] | None = None,
    default_length: int = 3,
) -> tuple[Sym, list[BoolLike]]:
    """A fully symbolic value of a type, and its domain constraints.

    A list at path `p` (e.g. `meld.cards`) gets `lengths[p]` items (else `default_length`);
    a string at path `p` ranges over `choices[p]` when given.
    """
    lengths, choices = lengths or {}, choices or {}
    if ty == INT:
        return z3.Int(name), []
    if ty == BOOL:
        return z3.Bool(name), []
    if ty == STR:
        return SymStr.fresh(name, choices.get(name, ()))
    if ty == CARD:
        return SymCard.fresh(name)
    if isinstance(ty, ListType):
        n = lengths.get(name, default_length)
        items = [fresh(ty.elem, f"{name}[{k}]", lengths, choices, default_length) for k in range(n)]
        return SymList.of(v for v, _ in items), [c for _, cs in items for c in cs]
    if isinstance(ty, RecordType):
        fields = {
            f: fresh(t, f"{name}.{f}", lengths, choices, default_length) for f, t in ty.fields
        }
        return {f: v for f, (v, _) in fields.items()}, [c for _, cs in fields.values() for c in cs]
    raise EncodeError(f"no symbolic form for type `{ty}`")


def fresh_env(
    scope: Scope,
    lengths: Mapping[str, int] | None = None,
    choices: Mapping[str, list[str]] | None = None,
    default_length: int = 3,
) -> tuple[dict[str, Sym], list[BoolLike]]:
    """A symbolic value for every name of a scope, and all their domain constraints."""
    env, domain = {}, []
    for name, ty in scope.items():
        env[name], constraints = fresh(ty, name, lengths, choices, default_length)
        domain += constraints
    return env, domain


Evaluator = Callable[[z3.ExprRef], z3.ExprRef]


def decode(value: Sym, model: z3.ModelRef | Evaluator) -> Any:
    """The python value (ints, bools, strs, `Card`s, lists, dicts) a model gives a symbolic value."""
    ev: Evaluator = (
        (lambda t: model.eval(t, model_completion=True))
        if isinstance(model, z3.ModelRef)
        else model
    )
    return _decode(value, ev)


def _decode(value: Sym, ev: Evaluator) -> Any:
    if isinstance(value, SymList):
        return [_decode(v, ev) for v, f in zip(value.items, value.flags) if _decode(f, ev)]
    if isinstance(value, SymCard):
        return card_of(_decode(value.rank, ev), STRINGS.name(_decode(value.suit, ev)))
    if isinstance(value, SymStr):
        return STRINGS.name(_decode(value.code, ev))
    if isinstance(value, dict):
        return {k: _decode(v, ev) for k, v in value.items()}
    if isinstance(value, z3.BoolRef):
        return z3.is_true(ev(value))
    if isinstance(value, z3.ArithRef):
        return ev(value).as_long()
    return value


def default(ty: Type) -> Sym:
    """Some value of a type: what an erroneous index yields (the error flag says it is moot)."""
    if ty == INT:
        return 0
    if ty == BOOL:
        return False
    if ty == STR:
        return ""
    if ty == CARD:
        return SymCard(1, STRINGS.code("S"))
    if isinstance(ty, ListType):
        return SymList.of(())
    if isinstance(ty, RecordType):
        return {f: default(t) for f, t in ty.fields}
    raise EncodeError(f"no default for type `{ty}`")


# ---- the encoder ----------------------------------------------------------------------------

Locals = Mapping[str, Sym]


class _Encoder:
    """Encodes nodes under a path condition `guard` (when the node is evaluated at all)."""

    def __init__(self, program: Program, env: Mapping[str, Any]) -> None:
        self.program, self.env = program, env
        self.errors: list[BoolLike] = []
        self.lifted: dict[str, Sym] = {}
        self.memo: dict[str, tuple[Sym, BoolLike]] = {}

    def enc(self, node: Node, env: Locals, guard: BoolLike) -> Sym:
        return _RULES[type(node)](self, node, env, guard)

    def fail(self, guard: BoolLike, condition: BoolLike) -> None:
        """Record that evaluation raises when `guard` and `condition` both hold."""
        failing = s_and(guard, condition)
        if failing is not False:
            self.errors.append(failing)

    def isolated(self, node: Node, env: Locals) -> tuple[Sym, BoolLike]:
        """Encode a node on its own: its value and its error condition, free of any guard."""
        outer, self.errors = self.errors, []
        try:
            value = self.enc(node, env, True)
            return value, s_or(*self.errors)
        finally:
            self.errors = outer

    def var(self, name: str) -> Sym:
        if name not in self.lifted:
            if name not in self.env:
                raise EncodeError(f"no symbolic value for `{name}`")
            self.lifted[name] = lift(self.env[name])
        return self.lifted[name]


def _literal(
    e: _Encoder, node: IntLit | StrLit | BoolLit | CardLit, env: Locals, guard: BoolLike
) -> Sym:
    return SymCard.lift(node.value) if isinstance(node, CardLit) else node.value


def _list(e: _Encoder, node: ListLit, env: Locals, guard: BoolLike) -> Sym:
    return SymList.of(e.enc(item, env, guard) for item in node.items)


def _name(e: _Encoder, node: Name, env: Locals, guard: BoolLike) -> Sym:
    if node.ref == LOCAL:
        return env[node.id]
    if node.ref != DEF:
        return e.var(node.id)
    if node.id not in e.memo:
        e.memo[node.id] = e.isolated(e.program.definitions[node.id].node, {})
    value, error = e.memo[node.id]
    e.fail(guard, error)
    return value


def _attr(e: _Encoder, node: Attr, env: Locals, guard: BoolLike) -> Sym:
    record = e.enc(node.obj, env, guard)
    if node.name not in record:
        raise EncodeError(f"the symbolic record has no field `{node.name}`")
    return record[node.name]


def _index(e: _Encoder, node: Index, env: Locals, guard: BoolLike) -> Sym:
    xs, index = e.enc(node.obj, env, guard), e.enc(node.index, env, guard)
    value, out_of_range = xs.at(index)
    e.fail(guard, out_of_range)
    return default(type_of(node)) if value is None else value


def _unary(e: _Encoder, node: Unary, env: Locals, guard: BoolLike) -> Sym:
    value = e.enc(node.operand, env, guard)
    return -value if node.op == "-" else s_not(value)


def _binary(e: _Encoder, node: Binary, env: Locals, guard: BoolLike) -> Sym:
    a, b = e.enc(node.left, env, guard), e.enc(node.right, env, guard)
    if isinstance(a, SymList):
        return SymList(a.items + b.items, a.flags + b.flags)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    e.fail(guard, s_eq(b, 0))
    return _floor_division(node.op, a, b)


def _floor_division(op: str, a: IntLike, b: IntLike) -> IntLike:
    """Python's `//` and `%` (rounding toward minus infinity) from z3's Euclidean div/mod."""
    if not is_sym(a) and not is_sym(b):
        if b == 0:
            return 0
        return a // b if op == "//" else a % b
    quotient, remainder = a / b, a % b  # z3's integer div and mod: one side is a z3 term
    if isinstance(b, int) and b > 0:
        return quotient if op == "//" else remainder
    euclid = s_or(b > 0, remainder == 0)
    return (
        s_if(euclid, quotient, quotient - 1)
        if op == "//"
        else s_if(euclid, remainder, remainder + b)
    )


def _compare(e: _Encoder, node: Compare, env: Locals, guard: BoolLike) -> Sym:
    a, b = e.enc(node.left, env, guard), e.enc(node.right, env, guard)
    match node.op:
        case "==":
            return s_eq(a, b)
        case "!=":
            return s_not(s_eq(a, b))
        case "in":
            return s_member(a, b)
        case "not in":
            return s_not(s_member(a, b))
        case "<":
            return a < b
        case "<=":
            return a <= b
        case ">":
            return a > b
    return a >= b


def _bool_op(e: _Encoder, node: BoolOp, env: Locals, guard: BoolLike) -> Sym:
    a = e.enc(node.left, env, guard)
    if node.op == "and":
        return s_and(a, e.enc(node.right, env, s_and(guard, a)) if a is not False else False)
    return s_or(a, e.enc(node.right, env, s_and(guard, s_not(a))) if a is not True else True)


def _if(e: _Encoder, node: IfExpr, env: Locals, guard: BoolLike) -> Sym:
    cond = e.enc(node.cond, env, guard)
    if isinstance(cond, bool):
        return e.enc(node.then if cond else node.orelse, env, guard)
    then = e.enc(node.then, env, s_and(guard, cond))
    orelse = e.enc(node.orelse, env, s_and(guard, s_not(cond)))
    return s_if(cond, then, orelse)


def _comprehension(e: _Encoder, node: Comprehension, env: Locals, guard: BoolLike) -> Sym:
    xs: SymList = e.enc(node.source, env, guard)
    stops = node.kind in ("all", "any", "first_index")  # these stop at the deciding item
    going: BoolLike = True  # no earlier item decided the answer
    values, hits = [], []
    for item, flag in zip(xs.items, xs.flags):
        value = e.enc(node.body, {**env, node.var: item}, s_and(guard, flag, going))
        values.append(value)
        hit = s_and(flag, s_not(value) if node.kind == "all" else value) if stops else False
        hits.append(hit)
        going = s_and(going, s_not(hit))
    return _COMBINE[node.kind](xs, values, hits, going)


def _first_index(xs: SymList, values: list[Sym], hits: list[BoolLike], none: BoolLike) -> Sym:
    result: IntLike = -1
    for position, hit in reversed(list(zip(xs.prefix_counts(), hits))):
        result = s_if(hit, position, result)
    return result


def _best_index(xs: SymList, values: list[Sym], hits: list[BoolLike], none: BoolLike) -> Sym:
    """Slot j is the best iff present, above every present key before it and no lower than
    every present key after it: the first greatest, at its position among present items."""
    result: IntLike = -1
    slots, positions = list(zip(xs.flags, values)), xs.prefix_counts()
    for j in reversed(range(len(slots))):
        flag, key = slots[j]
        before = [s_implies(f, s_lt(k, key)) for f, k in slots[:j]]
        after = [s_implies(f, s_not(s_lt(key, k))) for f, k in slots[j + 1 :]]
        result = s_if(s_and(flag, *before, *after), positions[j], result)
    return result


_COMBINE: dict[str, Callable[[SymList, list[Sym], list[BoolLike], BoolLike], Sym]] = {
    "all": lambda xs, values, hits, none: none,
    "any": lambda xs, values, hits, none: s_not(none),
    "first_index": _first_index,
    "best_index": _best_index,
    "count": lambda xs, values, hits, none: s_count(s_and(f, v) for f, v in zip(xs.flags, values)),
    "filter": lambda xs, values, hits, none: SymList(
        xs.items, tuple(s_and(f, v) for f, v in zip(xs.flags, values))
    ),
    "map": lambda xs, values, hits, none: SymList(tuple(values), xs.flags),
    "sum": lambda xs, values, hits, none: s_sum(s_if(f, v, 0) for f, v in zip(xs.flags, values)),
}


def _call(e: _Encoder, node: Call, env: Locals, guard: BoolLike) -> Sym:
    args = [e.enc(arg, env, guard) for arg in node.args]
    if node.ref == DEF:
        definition = e.program.definitions[node.func]
        bound = {pname: arg for (pname, _), arg in zip(definition.params, args)}
        return e.enc(definition.node, bound, guard)
    function = e.program.functions[node.func]
    if function.z3 is None:
        raise EncodeError(f"function `{node.func}` has no z3 implementation")
    return lift(function.z3(*args))


_RULES: dict[type, Callable[..., Sym]] = {
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
