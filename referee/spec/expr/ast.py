"""The syntax tree: frozen dataclasses that carry their source position.

The parser builds nodes with `ty=None`; the checker returns a copy of the tree in which every
node has its type and every `Name`/`Call` says what it refers to (`ref`). Positions, types and
refs do not take part in equality, so two trees of the same text compare equal.

A node's `pos` is the spot an error about it should point at: the operator of a binary
expression, the name of a call or field, the `[` of an index, the first token otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import Card
from referee.spec.expr.source import NOWHERE, Origin, Pos
from referee.spec.expr.types import Type

# What a checked `Name` refers to: a context name, a binder/parameter, a definition.
VAR, LOCAL, DEF = "var", "local", "def"
# What a checked `Call` refers to: a vocabulary function or a definition with parameters.
BUILTIN = "builtin"

COMPREHENSIONS = ("all", "any", "count", "filter", "map", "first_index", "sum", "best_index")
ARITH_OPS = ("+", "-", "*", "//", "%")
COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


@dataclass(frozen=True, slots=True)
class Node:
    pos: Pos = field(compare=False)
    # Set by the checker. Keyword-only, so subclasses can add positional fields after it.
    ty: Type | None = field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True, slots=True)
class StrLit(Node):
    value: str


@dataclass(frozen=True, slots=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class CardLit(Node):
    """A card code written in the expression (`KS`, `T21`, `MT`)."""

    value: Card


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Name(Node):
    id: str
    ref: str = field(default="", compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True, slots=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]
    ref: str = field(default="", compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str  # "-" or "not"
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str  # one of ARITH_OPS
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare(Node):
    op: str  # one of COMPARE_OPS
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class BoolOp(Node):
    op: str  # "and" or "or"
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class IfExpr(Node):
    cond: Node
    then: Node
    orelse: Node


@dataclass(frozen=True, slots=True)
class Comprehension(Node):
    """`kind(var in source: body)`: a bounded quantifier, counter, filter, map or sum."""

    kind: str  # one of COMPREHENSIONS
    var: str
    source: Node
    body: Node


@dataclass(frozen=True, slots=True)
class ParsedExpr:
    """A parsed expression with its text and origin (for error messages and `repr`)."""

    node: Node
    text: str
    origin: Origin = NOWHERE


def type_of(node: Node) -> Type:
    """The type the checker gave a node (only call on checked trees)."""
    ty: Type | None = node.ty
    assert ty is not None, f"unchecked node {node!r}"
    return ty


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-expressions of a node, in evaluation order."""
    match node:
        case ListLit(items=items) | Call(args=items):
            return items
        case Attr(obj=obj):
            return (obj,)
        case Index(obj=obj, index=index):
            return (obj, index)
        case Unary(operand=operand):
            return (operand,)
        case Binary(left=a, right=b) | Compare(left=a, right=b) | BoolOp(left=a, right=b):
            return (a, b)
        case IfExpr(cond=c, then=t, orelse=e):
            return (c, t, e)
        case Comprehension(source=s, body=b):
            return (s, b)
    return ()


def string_literals(node: Node) -> set[str]:
    """Every string literal in a tree (the z3 encoder gives each one an integer code)."""
    found = {node.value} if isinstance(node, StrLit) else set()
    for child in children(node):
        found |= string_literals(child)
    return found
