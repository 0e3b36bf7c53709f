"""Hypothesis strategies: random well-typed expression trees over a fixed program, and inputs.

Trees are built type-directed (`expr_of(ty)`), so every one checks; binders come from a small
pool that also shadows context names (`n`), to exercise scoping in all four forms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from referee.cards import FRENCH_RANKS, FRENCH_SUITS, Card, PackKind
from referee.spec.expr import BOOL, CARD, INT, STR, Definition, ListType, Program, Scope, Type
from referee.spec.expr.ast import (
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
from referee.spec.expr.source import Pos

P = Pos()
L_INT, L_CARD, L_STR, L_BOOL = ListType(INT), ListType(CARD), ListType(STR), ListType(BOOL)
L_L_INT = ListType(L_INT)
TYPES = [INT, BOOL, STR, CARD, L_INT, L_CARD, L_STR, L_BOOL, L_L_INT]
MOVE = {"going_out": BOOL, "cards": L_CARD, "kind": STR}

SCOPE = Scope(
    {
        "n": INT,
        "m": INT,
        "flag": BOOL,
        "kind": STR,
        "c": CARD,
        "d": CARD,
        "cards": L_CARD,
        "xs": L_INT,
        "move": MOVE,
    }
)
STRINGS = ["S", "H", "trio", "same_rank", ""]
KINDS = ["same_rank", "next_rank", "trio"]
# card, rank and suit literals: French cards and tarot ones (trumps, the Matto, a knight)
CARD_LITERALS = [Card.parse(code, PackKind.TAROT) for code in ("T1", "T21", "MT", "NC", "KB")] + [
    Card.parse(code) for code in ("AS", "KH", "7D", "TC")
]
RANK_WORDS = ["ace", "jack", "queen", "king", "knight"]
SUIT_WORDS = ["spades", "hearts", "diamonds", "clubs", "swords", "batons", "trumps"]

DEFINITIONS = [
    Definition("twice", [("i", INT)], "i * 2"),
    Definition(
        "is_joker",
        [("c", CARD)],
        """
        if kind == "same_rank" then rank(c) == rank(d) and is_red(c) != is_red(d)
        else suit(c) == suit(d) and rank(c) == (rank(d) % 13) + 1""",
    ),
    Definition("anchor", body="first_index(x in cards: not is_joker(x))"),
    Definition("naturals", body="filter(x in cards: not is_joker(x))"),
    Definition("between", [("lo", INT), ("hi", INT)], "filter(v in xs: lo <= v and v < hi)"),
]
PROGRAM = Program(SCOPE, DEFINITIONS)

# Context names and zero-parameter definitions, by type (binders are added per tree).
GLOBALS: dict[str, Type] = {**dict(SCOPE.items()), "anchor": INT, "naturals": L_CARD}
BINDERS = ["x", "y", "n"]

Binders = dict[str, Type]
Draw = Callable[[st.SearchStrategy[Any]], Any]


def visible(binders: Binders) -> dict[str, Type]:
    return {**GLOBALS, **binders}


@st.composite
def expr_of(draw: Draw, ty: Type, depth: int = 3, binders: Binders | None = None) -> Node:
    """A random tree of type `ty` (leaves only at depth 0)."""
    binders = binders or {}
    makers = [m for m in (_COMPOSITES.get(ty, []) + _GENERIC) if depth > 0]
    if makers and draw(st.integers(0, 2)) > 0:
        maker: Callable[..., Node] = draw(st.sampled_from(makers))
        return maker(draw, ty, depth - 1, binders)
    return _leaf(draw, ty, binders)


def _leaf(draw: Draw, ty: Type, binders: Binders) -> Node:
    names: list[Node] = [Name(P, n) for n, t in visible(binders).items() if t == ty]
    if ty == INT:
        names.append(IntLit(P, draw(st.integers(-3, 13))))
        names.append(Name(P, draw(st.sampled_from(RANK_WORDS))))
    elif ty == CARD:
        names.append(CardLit(P, draw(st.sampled_from(CARD_LITERALS))))
    elif ty == BOOL:
        names.append(BoolLit(P, draw(st.booleans())))
        names.append(Attr(P, Name(P, "move"), "going_out"))
    elif ty == STR:
        names.append(StrLit(P, draw(st.sampled_from(STRINGS))))
        names.append(Name(P, draw(st.sampled_from(SUIT_WORDS))))
        names.append(Attr(P, Name(P, "move"), "kind"))
    elif ty == L_CARD:
        names.append(Attr(P, Name(P, "move"), "cards"))
    elif isinstance(ty, ListType) and ty.elem != CARD:
        size = draw(st.integers(1, 3))
        names.append(ListLit(P, tuple(_leaf(draw, ty.elem, binders) for _ in range(size))))
    chosen: Node = draw(st.sampled_from(names))
    return chosen


def sub(draw: Draw, ty: Type, depth: int, binders: Binders) -> Node:
    node: Node = draw(expr_of(ty, depth, binders))
    return node


# ---- generic constructors (any type) -------------------------------------------------------


def _if(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    return IfExpr(P, sub(draw, BOOL, depth, b), sub(draw, ty, depth, b), sub(draw, ty, depth, b))


def _index(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    xs = sub(draw, ListType(ty), depth, b)
    index = sub(draw, INT, depth, b)
    if draw(st.booleans()):  # mostly in range, so values (not only errors) get compared
        index = Binary(P, "%", index, Call(P, "size", (xs,)))
    return Index(P, xs, index)


_GENERIC = [_if, _index]


# ---- per type ------------------------------------------------------------------------------


def _arith(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
    return Binary(P, op, sub(draw, INT, depth, b), sub(draw, INT, depth, b))


def _negate(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    return Unary(P, "-", sub(draw, INT, depth, b))


def _int_call(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    choice = draw(st.sampled_from(["size", "rank", "min", "max", "abs", "twice", "index_of"]))
    if choice == "index_of":
        t = draw(st.sampled_from([INT, CARD, STR]))
        return Call(P, "index_of", (sub(draw, ListType(t), depth, b), sub(draw, t, depth, b)))
    if choice == "size":
        return Call(P, "size", (sub(draw, draw(st.sampled_from(TYPES[4:])), depth, b),))
    if choice == "rank":
        return Call(P, "rank", (sub(draw, CARD, depth, b),))
    arity = 2 if choice in ("min", "max") else 1
    return Call(P, choice, tuple(sub(draw, INT, depth, b) for _ in range(arity)))


def _comprehension(kind: str, body_type: Type | None = None) -> Callable[..., Node]:
    def make(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
        if kind == "filter":  # a filter keeps the element type of the list it filters
            assert isinstance(ty, ListType)
            elem = ty.elem
        else:
            elem = draw(st.sampled_from([INT, CARD, STR, BOOL]))
        var = draw(st.sampled_from(BINDERS))
        source = sub(draw, ListType(elem), depth, b)
        body_ty = body_type or (ty.elem if kind == "map" and isinstance(ty, ListType) else BOOL)
        body = sub(draw, body_ty, depth, {**b, var: elem})
        return Comprehension(P, kind, var, source, body)

    return make


def _compare(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    kind = draw(st.sampled_from(["eq", "order", "in"]))
    if kind == "order":
        op = draw(st.sampled_from(["<", "<=", ">", ">="]))
        return Compare(P, op, sub(draw, INT, depth, b), sub(draw, INT, depth, b))
    t = draw(st.sampled_from(TYPES))
    if kind == "eq":
        op = draw(st.sampled_from(["==", "!="]))
        return Compare(P, op, sub(draw, t, depth, b), sub(draw, t, depth, b))
    op = draw(st.sampled_from(["in", "not in"]))
    return Compare(P, op, sub(draw, t, depth, b), sub(draw, ListType(t), depth, b))


def _logic(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    op = draw(st.sampled_from(["and", "or", "not"]))
    if op == "not":
        return Unary(P, "not", sub(draw, BOOL, depth, b))
    return BoolOp(P, op, sub(draw, BOOL, depth, b), sub(draw, BOOL, depth, b))


def _bool_call(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    choice = draw(st.sampled_from(["is_red", "is_joker", "contains"]))
    if choice == "contains":
        t = ListType(draw(st.sampled_from([INT, CARD, STR])))
        return Call(P, "contains", (sub(draw, t, depth, b), sub(draw, t, depth, b)))
    return Call(P, choice, (sub(draw, CARD, depth, b),))


def _suit(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    return Call(P, "suit", (sub(draw, CARD, depth, b),))


def _list_call(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    choice = draw(st.sampled_from(["distinct", "reverse", "slice", "concat", "literal"]))
    xs = sub(draw, ty, depth, b)
    if choice == "slice":
        return Call(P, "slice", (xs, sub(draw, INT, depth, b), sub(draw, INT, depth, b)))
    if choice == "concat":
        return Binary(P, "+", xs, sub(draw, ty, depth, b))
    if choice == "literal":
        assert isinstance(ty, ListType)
        elem = ty.elem
        return ListLit(P, tuple(sub(draw, elem, depth, b) for _ in range(draw(st.integers(1, 3)))))
    return Call(P, choice, (xs,))


def _int_list(draw: Draw, ty: Type, depth: int, b: Binders) -> Node:
    if draw(st.booleans()):
        return Call(P, "indices", (sub(draw, draw(st.sampled_from(TYPES[4:])), depth, b),))
    return Call(P, "between", (sub(draw, INT, depth, b), sub(draw, INT, depth, b)))


_LIST = [_list_call, _comprehension("filter"), _comprehension("map")]
_COMPOSITES: dict[Type, list[Callable[..., Node]]] = {
    INT: [
        _arith,
        _negate,
        _int_call,
        _comprehension("count"),
        _comprehension("sum", INT),
        _comprehension("first_index"),
        _comprehension("best_index", INT),
    ],
    BOOL: [_compare, _logic, _bool_call, _comprehension("all"), _comprehension("any")],
    STR: [_suit],
    CARD: [],
    L_INT: [*_LIST, _int_list],
    L_CARD: _LIST,
    L_STR: _LIST,
    L_BOOL: _LIST,
    L_L_INT: _LIST,
}


# ---- inputs --------------------------------------------------------------------------------

cards_st = st.builds(Card, st.sampled_from(FRENCH_RANKS), st.sampled_from(FRENCH_SUITS))
card_lists = st.lists(cards_st, max_size=5).map(tuple) | st.lists(cards_st, max_size=5)


@st.composite
def envs(draw: Draw) -> dict[str, Any]:
    """Concrete values for every name of `SCOPE` (lists sometimes as tuples)."""
    small = st.integers(-5, 15)
    return {
        "n": draw(small),
        "m": draw(small),
        "flag": draw(st.booleans()),
        "kind": draw(st.sampled_from(KINDS)),
        "c": draw(cards_st),
        "d": draw(cards_st),
        "cards": draw(card_lists),
        "xs": draw(st.lists(st.integers(-3, 13), max_size=5)),
        "move": {
            "going_out": draw(st.booleans()),
            "cards": draw(card_lists),
            "kind": draw(st.sampled_from(STRINGS)),
        },
    }


# ---- focused trees: arithmetic corners and guards that must stop an error ------------------


@st.composite
def arithmetic(draw: Draw, depth: int = 3, names: tuple[str, ...] = ("n", "m")) -> Node:
    """Integer trees rich in `//`, `%` and negative operands (Python's floor semantics)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        leaves: list[Node] = [Name(P, name) for name in names]
        leaves += [IntLit(P, k) for k in range(-4, 5)]
        leaf: Node = draw(st.sampled_from(leaves))
        return leaf
    op = draw(st.sampled_from(["+", "-", "*", "//", "%", "//", "%", "neg", "min", "abs", "if"]))
    a, b = (draw(arithmetic(depth - 1, names)) for _ in range(2))
    if op == "neg":
        return Unary(P, "-", a)
    if op in ("min", "abs"):
        return Call(P, op, (a, b) if op == "min" else (a,))
    if op == "if":
        return IfExpr(P, Compare(P, "<", a, b), b, a)
    return Binary(P, op, a, b)


@st.composite
def risky(draw: Draw, names: tuple[str, ...] = ("n", "m")) -> Node:
    """A condition that raises on some inputs (a bad index, a division by zero)."""
    a = draw(arithmetic(2, names))
    k = IntLit(P, draw(st.integers(-2, 3)))
    if draw(st.booleans()):
        return Compare(P, "==", Index(P, Name(P, "xs"), a), k)
    return Compare(P, "<", Binary(P, draw(st.sampled_from(["//", "%"])), k, a), IntLit(P, 1))


@st.composite
def guarded(draw: Draw) -> Node:
    """A short-circuiting construct whose later part may raise: only evaluated parts count."""
    shape = draw(st.sampled_from(["and", "or", "if", "all", "any", "first_index", "count"]))
    if shape in ("and", "or"):
        return BoolOp(P, shape, draw(expr_of(BOOL, 1)), draw(risky()))
    if shape == "if":
        return IfExpr(P, draw(expr_of(BOOL, 1)), draw(risky()), draw(risky()))
    body = BoolOp(P, "and", draw(expr_of(BOOL, 1, {"x": INT})), draw(risky(("x", "n"))))
    node = Comprehension(P, shape, "x", Name(P, "xs"), body)
    return node if shape in ("all", "any") else Compare(P, ">", node, IntLit(P, 0))
