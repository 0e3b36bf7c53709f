"""Tree -> text with the fewest parentheses, such that `parse(unparse(t)).node == t`."""

from __future__ import annotations

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

# Binding strength, low to high (as in the parser).
IF, OR, AND, NOT, COMPARE, ADD, MUL, NEG, POSTFIX = range(9)
_BINARY = {"+": ADD, "-": ADD, "*": MUL, "//": MUL, "%": MUL}


def unparse(node: Node) -> str:
    return _text(node, IF)


def _text(node: Node, need: int) -> str:
    """The text of `node`, parenthesised if it binds looser than `need`."""
    strength, text = _bare(node)
    return f"({text})" if strength < need else text


def _bare(node: Node) -> tuple[int, str]:
    match node:
        case IntLit(value=v):
            return (NEG if v < 0 else POSTFIX), str(v)
        case StrLit(value=v):
            return POSTFIX, '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace(
                "\n", "\\n"
            ) + '"'
        case CardLit(value=v):
            return POSTFIX, str(v)
        case BoolLit(value=v):
            return POSTFIX, "true" if v else "false"
        case ListLit(items=items):
            return POSTFIX, "[" + ", ".join(_text(i, IF) for i in items) + "]"
        case Name(id=name):
            return POSTFIX, name
        case Attr(obj=obj, name=name):
            return POSTFIX, f"{_text(obj, POSTFIX)}.{name}"
        case Index(obj=obj, index=index):
            return POSTFIX, f"{_text(obj, POSTFIX)}[{_text(index, IF)}]"
        case Call(func=func, args=args):
            return POSTFIX, f"{func}({', '.join(_text(a, IF) for a in args)})"
        case Comprehension(kind=kind, var=var, source=source, body=body):
            return POSTFIX, f"{kind}({var} in {_text(source, IF)}: {_text(body, IF)})"
        case Unary(op="-", operand=operand):
            inner = _text(operand, NEG)
            return NEG, f"-({inner})" if isinstance(operand, IntLit) else f"-{inner}"
        case Unary(op="not", operand=operand):
            return NOT, f"not {_text(operand, NOT)}"
        case Binary(op=op, left=left, right=right):
            level = _BINARY[op]
            return level, f"{_text(left, level)} {op} {_text(right, level + 1)}"
        case Compare(op=op, left=left, right=right):
            return COMPARE, f"{_text(left, ADD)} {op} {_text(right, ADD)}"
        case BoolOp(op=op, left=left, right=right):
            level = OR if op == "or" else AND
            return level, f"{_text(left, level)} {op} {_text(right, level + 1)}"
        case IfExpr(cond=cond, then=then, orelse=orelse):
            return IF, f"if {_text(cond, IF)} then {_text(then, IF)} else {_text(orelse, IF)}"
    raise AssertionError(f"unknown node {node!r}")
