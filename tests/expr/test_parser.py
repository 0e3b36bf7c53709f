"""The parser: syntax, precedence, positions, and located syntax errors."""

from __future__ import annotations

import pytest

from referee.errors import SpecError, SpecErrors
from referee.spec.expr import Origin, parse
from referee.spec.expr.ast import (
    Attr,
    Binary,
    BoolLit,
    BoolOp,
    Call,
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
from referee.spec.expr.printer import unparse
from referee.spec.expr.source import Pos


def node(text: str) -> Node:
    return parse(text).node


def grouped(n: Node) -> str:
    """Fully parenthesised text, to make precedence visible."""
    match n:
        case (
            Binary(op=op, left=a, right=b)
            | Compare(op=op, left=a, right=b)
            | BoolOp(op=op, left=a, right=b)
        ):
            return f"({grouped(a)} {op} {grouped(b)})"
        case Unary(op=op, operand=a):
            return f"({op} {grouped(a)})"
        case IfExpr(cond=c, then=t, orelse=e):
            return f"(if {grouped(c)} then {grouped(t)} else {grouped(e)})"
    return unparse(n)


@pytest.mark.parametrize(
    "text, tree",
    [
        ("42", IntLit(Pos(), 42)),
        ("-3", IntLit(Pos(), -3)),
        ('"trio"', StrLit(Pos(), "trio")),
        ('"say \\"hi\\""', StrLit(Pos(), 'say "hi"')),
        ("true", BoolLit(Pos(), True)),
        ("false", BoolLit(Pos(), False)),
        ("[1, 2,]", ListLit(Pos(), (IntLit(Pos(), 1), IntLit(Pos(), 2)))),
        ("move.going_out", Attr(Pos(), Name(Pos(), "move"), "going_out")),
        ("xs[0]", Index(Pos(), Name(Pos(), "xs"), IntLit(Pos(), 0))),
        ("min(a, b)", Call(Pos(), "min", (Name(Pos(), "a"), Name(Pos(), "b")))),
        ("all(x in xs: x)", Comprehension(Pos(), "all", "x", Name(Pos(), "xs"), Name(Pos(), "x"))),
        ("a not in b", Compare(Pos(), "not in", Name(Pos(), "a"), Name(Pos(), "b"))),
    ],
)
def test_each_construct_parses_to_its_node(text: str, tree: Node) -> None:
    assert node(text) == tree


@pytest.mark.parametrize(
    "text, shape",
    [
        ("a or b and c", "(a or (b and c))"),
        ("not a and b", "((not a) and b)"),
        ("not a == b", "(not (a == b))"),
        ("a + b * c", "(a + (b * c))"),
        ("a - b - c", "((a - b) - c)"),
        ("a // b % c", "((a // b) % c)"),
        ("-a * b", "((- a) * b)"),
        ("a + b < c * d", "((a + b) < (c * d))"),
        ("x in xs and y not in ys", "((x in xs) and (y not in ys))"),
        ("if a then b else if c then d else e", "(if a then b else (if c then d else e))"),
        ("if a then b else c or d", "(if a then b else (c or d))"),
        ("-xs[0]", "(- xs[0])"),
        ("--3", "(- -3)"),
        ("f(x)[1].y", "f(x)[1].y"),
    ],
)
def test_precedence_and_associativity(text: str, shape: str) -> None:
    assert grouped(node(text)) == shape


def test_whitespace_newlines_and_comments_are_insignificant() -> None:
    text = """all(c in cards:   # every card
                 rank(c)
                   == 3)"""
    assert node(text) == node("all(c in cards: rank(c) == 3)")


def test_positions_point_at_the_operator_or_name() -> None:
    tree = node("size(xs) >=\n  move.going_out")
    assert isinstance(tree, Compare) and tree.pos == Pos(1, 10)
    assert tree.left.pos == Pos(1, 1)
    assert isinstance(tree.right, Attr) and tree.right.pos == Pos(2, 8)


def syntax_error(text: str, origin: Origin | None = None) -> SpecError:
    with pytest.raises(SpecErrors) as caught:
        parse(text, origin)
    (error,) = caught.value.errors
    return error


@pytest.mark.parametrize(
    "text, message, column",
    [
        ("", "empty expression", 1),
        ("1 +", "expected an expression, found the end of the expression", 4),
        ("a < b < c", "comparisons do not chain: join them with `and`", 7),
        ("a == b == c", "comparisons do not chain: join them with `and`", 8),
        ("f(1", "expected `)` to close the call, found the end of the expression", 4),
        ("[]", "an empty list `[]` has no element type: a list literal needs an element", 1),
        (
            "if a then b",
            (
                "expected `else` after the `then` branch, found the end of the expression: "
                "an `if` always has an `else`"
            ),
            12,
        ),
        ("if a b", "expected `then` after the condition of `if`, found `b`", 6),
        ("Size(xs)", "names are lowercase: `Size`", 1),
        ("'trio'", "unexpected character `'`: strings use double quotes", 1),
        ('"trio', 'unterminated string: a string ends with `"` on the same line', 1),
        ("a $ b", "unexpected character `$`", 3),
        ("a b", "unexpected `b` after a complete expression", 3),
        ("xs[0](1)", "only a named function can be called", 6),
        ("all(xs)", "`all` needs a binder: `all(x in xs: ...)`", 5),
        ("count(x in xs)", "expected `:` after the list of `count(x in xs: ...)`, found `)`", 14),
        ("move.", "expected a name after `.`, found the end of the expression", 6),
    ],
)
def test_syntax_errors_are_located(text: str, message: str, column: int) -> None:
    error = syntax_error(text)
    assert error.detail == message
    assert (error.line, error.column) == (1, column)


def test_syntax_error_is_located_in_the_file_with_a_caret() -> None:
    origin = Origin(file="specs/pontinho.yaml", line=42, column=7, path="rules[3].require")
    error = syntax_error("size(cards) >= 3 and\n  rank(c) < < 2", origin)
    assert (error.file, error.line, error.column, error.path) == (
        "specs/pontinho.yaml",
        43,
        13,
        "rules[3].require",
    )
    assert str(error).startswith(
        "specs/pontinho.yaml:43:13: at `rules[3].require`: expected an expression, found `<`"
    )
    assert error.excerpt == "      rank(c) < < 2\n                ^"


def test_continuation_lines_add_the_block_indent() -> None:
    origin = Origin(file="s.yaml", line=10, column=5, indent=6)
    error = syntax_error("a and\nb c", origin)
    assert (error.line, error.column) == (11, 9)
