"""The type checker: a table of one small rule per node class.

`check_node` returns a copy of the tree in which every node carries its type and every name or
call says what it refers to, plus every error found. A failed sub-expression gets the `ERROR`
type, which every rule accepts silently, so one mistake is reported once.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from referee.spec.expr.ast import (
    BUILTIN,
    COMPREHENSIONS,
    DEF,
    LOCAL,
    VAR,
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
from referee.spec.expr.literals import WORDS
from referee.spec.expr.source import ExprError, Origin, Pos
from referee.spec.expr.types import (
    BOOL,
    CARD,
    ERROR,
    INT,
    STR,
    ListType,
    RecordType,
    Scope,
    Type,
    TypeVar,
    has_order,
    is_error,
)
from referee.spec.expr.vocabulary import Function


@dataclass(frozen=True)
class Signature:
    """A checked definition, as its callers see it."""

    name: str
    params: tuple[tuple[str, Type], ...]
    result: Type


Locals = Mapping[str, Type]


class Checker:
    """Checks one expression's tree against a scope, a vocabulary and the earlier definitions."""

    def __init__(
        self,
        scope: Scope,
        functions: Mapping[str, Function],
        definitions: Mapping[str, Signature],
        text: str,
        origin: Origin,
    ) -> None:
        self.scope, self.functions, self.definitions = scope, functions, definitions
        self.text, self.origin = text, origin
        self.errors: list[ExprError] = []

    def error(self, message: str, pos: Pos) -> Type:
        self.errors.append(ExprError(message, pos, self.text, self.origin))
        return ERROR

    def check(self, node: Node, env: Locals) -> Node:
        return _RULES[type(node)](self, node, env)

    def expect(self, node: Node, want: Type, what: str) -> None:
        """Report `node` (already checked) if its type is not `want`."""
        got = _ty(node)
        if not is_error(got) and got != want:
            self.error(f"{what} must be `{want}`, found `{got}`", node.pos)

    def names_in_reach(self, env: Locals) -> list[str]:
        values = [n for n, d in self.definitions.items() if not d.params]
        return [*env, *values, *self.scope.names()]


def _ty(node: Node) -> Type:
    ty = node.ty
    assert isinstance(ty, Type)
    return ty


def suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f": did you mean `{close[0]}`?" if close else ""


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ---- literals and names -------------------------------------------------------------------


def _literal(c: Checker, node: IntLit | StrLit | BoolLit | CardLit, env: Locals) -> Node:
    ty = {IntLit: INT, StrLit: STR, BoolLit: BOOL, CardLit: CARD}[type(node)]
    return replace(node, ty=ty)


def _list(c: Checker, node: ListLit, env: Locals) -> Node:
    items = tuple(c.check(item, env) for item in node.items)
    first = next((_ty(i) for i in items if not is_error(_ty(i))), ERROR)
    for k, item in enumerate(items):
        if not is_error(_ty(item)) and _ty(item) != first:
            c.error(
                f"the items of a list must have one type: item {k + 1} is `{_ty(item)}`, "
                f"the first is `{first}`",
                item.pos,
            )
    return replace(node, items=items, ty=ListType(first))


def _name(c: Checker, node: Name, env: Locals) -> Node:
    if node.id in env:
        return replace(node, ty=env[node.id], ref=LOCAL)
    definition = c.definitions.get(node.id)
    if definition is not None:
        if definition.params:
            n = len(definition.params)
            return replace(
                node,
                ty=c.error(
                    f"`{node.id}` takes {plural(n, 'argument')}: call it as `{node.id}(...)`",
                    node.pos,
                ),
            )
        return replace(node, ty=definition.result, ref=DEF)
    ty = c.scope.get(node.id)
    if ty is not None:
        return replace(node, ty=ty, ref=VAR)
    if node.id in WORDS:  # a rank or suit name: its value, as if written as a literal
        value = WORDS[node.id]
        if isinstance(value, int):
            return IntLit(node.pos, value, ty=INT)
        return StrLit(node.pos, value, ty=STR)
    if node.id in c.functions:
        return replace(
            node, ty=c.error(f"`{node.id}` is a function: call it as `{node.id}(...)`", node.pos)
        )
    hint = suggest(node.id, [*c.names_in_reach(env), *WORDS])
    return replace(node, ty=c.error(f"unknown name `{node.id}`{hint}", node.pos))


def _attr(c: Checker, node: Attr, env: Locals) -> Node:
    obj = c.check(node.obj, env)
    ty = _ty(obj)
    if is_error(ty):
        return replace(node, obj=obj, ty=ERROR)
    if not isinstance(ty, RecordType):
        return replace(
            node,
            obj=obj,
            ty=c.error(f"only records have fields: `{describe(obj)}` is a `{ty}`", node.pos),
        )
    field = ty.field(node.name)
    if field is None:
        hint = suggest(node.name, ty.names())
        field = c.error(f"`{describe(obj)}` has no field `{node.name}`{hint}", node.pos)
    return replace(node, obj=obj, ty=field)


def describe(node: Node) -> str:
    """A short text for a record-valued expression, for messages."""
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Attr):
        return f"{describe(node.obj)}.{node.name}"
    return "the value"


def _index(c: Checker, node: Index, env: Locals) -> Node:
    obj, index = c.check(node.obj, env), c.check(node.index, env)
    c.expect(index, INT, "an index")
    ty = _ty(obj)
    if is_error(ty):
        return replace(node, obj=obj, index=index, ty=ERROR)
    if not isinstance(ty, ListType):
        return replace(
            node,
            obj=obj,
            index=index,
            ty=c.error(f"only lists can be indexed, found `{ty}`", node.pos),
        )
    return replace(node, obj=obj, index=index, ty=ty.elem)


# ---- operators ----------------------------------------------------------------------------


def _unary(c: Checker, node: Unary, env: Locals) -> Node:
    operand = c.check(node.operand, env)
    want = BOOL if node.op == "not" else INT
    c.expect(operand, want, f"the operand of `{node.op}`")
    return replace(node, operand=operand, ty=want)


def _binary(c: Checker, node: Binary, env: Locals) -> Node:
    left, right = c.check(node.left, env), c.check(node.right, env)
    a, b = _ty(left), _ty(right)
    if is_error(a) or is_error(b):
        ty: Type = a if not is_error(a) else b
    elif a == b == INT or (node.op == "+" and a == b and isinstance(a, ListType)):
        ty = a
    elif node.op == "+":
        ty = c.error(
            f"`+` adds two `int`s or joins two lists of one type, found `{a}` and `{b}`", node.pos
        )
    else:
        ty = c.error(f"the operands of `{node.op}` must be `int`, found `{a}` and `{b}`", node.pos)
    return replace(node, left=left, right=right, ty=ty)


def _compare(c: Checker, node: Compare, env: Locals) -> Node:
    left, right = c.check(node.left, env), c.check(node.right, env)
    a, b = _ty(left), _ty(right)
    if is_error(a) or is_error(b):
        pass
    elif node.op in ("in", "not in"):
        if not isinstance(b, ListType):
            c.error(f"`{node.op}` looks for an item in a list, found `{b}` on the right", node.pos)
        elif b.elem != a:
            c.error(f"`{node.op}` looks for a `{a}` in a `{b}`", node.pos)
    elif a != b:
        c.error(f"`{node.op}` compares values of one type, found `{a}` and `{b}`", node.pos)
    elif node.op not in ("==", "!=") and not has_order(a):
        c.error(
            f"`{node.op}` compares `int`s, found `{a}`: compare `rank(...)` for cards", node.pos
        )
    return replace(node, left=left, right=right, ty=BOOL)


def _bool_op(c: Checker, node: BoolOp, env: Locals) -> Node:
    left, right = c.check(node.left, env), c.check(node.right, env)
    c.expect(left, BOOL, f"the operands of `{node.op}`")
    c.expect(right, BOOL, f"the operands of `{node.op}`")
    return replace(node, left=left, right=right, ty=BOOL)


def _if(c: Checker, node: IfExpr, env: Locals) -> Node:
    cond, then, orelse = (c.check(n, env) for n in (node.cond, node.then, node.orelse))
    c.expect(cond, BOOL, "the condition of `if`")
    a, b = _ty(then), _ty(orelse)
    ty = b if is_error(a) else a
    if not is_error(a) and not is_error(b) and a != b:
        ty = c.error(f"the branches of `if` must have one type, found `{a}` and `{b}`", orelse.pos)
    return replace(node, cond=cond, then=then, orelse=orelse, ty=ty)


# ---- comprehensions and calls -------------------------------------------------------------

_BODY = {
    "all": BOOL,
    "any": BOOL,
    "count": BOOL,
    "filter": BOOL,
    "first_index": BOOL,
    "sum": INT,
    "best_index": INT,
}


def _comprehension(c: Checker, node: Comprehension, env: Locals) -> Node:
    source = c.check(node.source, env)
    src = _ty(source)
    elem: Type = ERROR
    if isinstance(src, ListType):
        elem = src.elem
    elif not is_error(src):
        c.error(f"`{node.kind}` ranges over a list, found `{src}`", source.pos)
    body = c.check(node.body, {**env, node.var: elem})
    if node.kind in _BODY:
        c.expect(body, _BODY[node.kind], f"the body of `{node.kind}`")
    ty = _comprehension_type(node.kind, src, _ty(body))
    return replace(node, source=source, body=body, ty=ty)


def _comprehension_type(kind: str, source: Type, body: Type) -> Type:
    if kind in ("all", "any"):
        return BOOL
    if kind in ("count", "first_index", "sum", "best_index"):
        return INT
    if kind == "filter":
        return source if isinstance(source, ListType) else ERROR
    return ListType(body)  # map


def _call(c: Checker, node: Call, env: Locals) -> Node:
    args = tuple(c.check(a, env) for a in node.args)
    definition = c.definitions.get(node.func)
    if definition is not None:
        return _call_definition(c, replace(node, args=args), definition)
    function = c.functions.get(node.func)
    if function is None:
        known = [*c.functions, *c.definitions, *COMPREHENSIONS]
        ty = c.error(f"unknown function `{node.func}`{suggest(node.func, known)}", node.pos)
        return replace(node, args=args, ty=ty)
    params = function.params
    if not _arity_ok(c, node, len(params)):
        return replace(node, args=args, ty=ERROR)
    return replace(
        node, args=args, ty=_bind_generic(c, node.func, params, function.result, args), ref=BUILTIN
    )


def _call_definition(c: Checker, node: Call, definition: Signature) -> Node:
    if not definition.params:
        return replace(
            node, ty=c.error(f"`{node.func}` takes no arguments: write `{node.func}`", node.pos)
        )
    if _arity_ok(c, node, len(definition.params)):
        for k, (arg, (pname, ptype)) in enumerate(zip(node.args, definition.params)):
            c.expect(arg, ptype, f"argument {k + 1} (`{pname}`) of `{node.func}`")
    return replace(node, ty=definition.result, ref=DEF)


def _arity_ok(c: Checker, node: Call, want: int) -> bool:
    if len(node.args) == want:
        return True
    c.error(f"`{node.func}` takes {plural(want, 'argument')}, got {len(node.args)}", node.pos)
    return False


def _bind_generic(
    c: Checker, name: str, params: tuple[Type, ...], result: Type, args: tuple[Node, ...]
) -> Type:
    """Check arguments against a signature whose type variables bind at their first use."""
    bound: dict[str, Type] = {}
    failed = False
    for k, (param, arg) in enumerate(zip(params, args)):
        if is_error(_ty(arg)):
            failed = True
        elif not unify(param, _ty(arg), bound):
            want = substitute(param, bound)
            c.error(f"argument {k + 1} of `{name}` must be `{want}`, found `{_ty(arg)}`", arg.pos)
            failed = True
    return ERROR if failed else substitute(result, bound)


def unify(param: Type, arg: Type, bound: dict[str, Type]) -> bool:
    if isinstance(param, TypeVar):
        if param.name not in bound:
            bound[param.name] = arg
        return bound[param.name] == arg
    if isinstance(param, ListType):
        return isinstance(arg, ListType) and unify(param.elem, arg.elem, bound)
    return param == arg


def substitute(ty: Type, bound: Mapping[str, Type]) -> Type:
    if isinstance(ty, TypeVar):
        return bound.get(ty.name, ty)
    if isinstance(ty, ListType):
        return ListType(substitute(ty.elem, bound))
    return ty


_RULES: dict[type, Callable[..., Node]] = {
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
