"""Recursive-descent parser: text -> `ParsedExpr`.

Precedence, low to high: `if c then a else b` (right-assoc), `or`, `and`, `not`, comparisons
(`== != < <= > >= in`, `not in`; they do not chain), `+ -`, `* // %`, unary `-`, postfix
(call, index, attribute). A comprehension reads `kind(x in xs: body)`.
"""

from __future__ import annotations

from referee.errors import SpecErrors
from referee.spec.expr.ast import (
    COMPARE_OPS,
    COMPREHENSIONS,
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
    ParsedExpr,
    StrLit,
    Unary,
)
from referee.spec.expr.lexer import (
    CARD,
    END,
    INT,
    KEYWORD,
    NAME,
    STR,
    SYMBOL,
    LexError,
    Token,
    tokenize,
)
from referee.spec.expr.literals import card_literal
from referee.spec.expr.source import ExprError, Origin, Pos


class _SyntaxError(Exception):
    def __init__(self, message: str, pos: Pos) -> None:
        super().__init__(message)
        self.message, self.pos = message, pos


def parse(text: str, origin: Origin | None = None) -> ParsedExpr:
    """Parse one expression; raise `SpecErrors` (one located `ExprError`) if it is malformed."""
    origin = origin or Origin()
    try:
        node = _Parser(tokenize(text)).parse_all()
    except (LexError, _SyntaxError) as err:
        raise SpecErrors([ExprError(err.message, err.pos, text, origin)]) from None
    return ParsedExpr(node, text, origin)


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.at = 0

    # ---- token helpers ------------------------------------------------------------------

    @property
    def tok(self) -> Token:
        return self.tokens[self.at]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.at + ahead, len(self.tokens) - 1)]

    def is_(self, text: str, token: Token | None = None) -> bool:
        token = token or self.tok
        return token.kind in (SYMBOL, KEYWORD) and token.text == text

    def take(self) -> Token:
        token = self.tok
        self.at = min(self.at + 1, len(self.tokens) - 1)
        return token

    def expect(self, text: str, context: str = "", hint: str = "") -> Token:
        if not self.is_(text):
            after = f" {context}" if context else ""
            raise _SyntaxError(
                f"expected `{text}`{after}, found {self.tok.describe()}{hint}", self.tok.pos
            )
        return self.take()

    # ---- grammar ------------------------------------------------------------------------

    def parse_all(self) -> Node:
        if self.tok.kind == END:
            raise _SyntaxError("empty expression", self.tok.pos)
        node = self.expr()
        if self.tok.kind != END:
            raise _SyntaxError(
                f"unexpected {self.tok.describe()} after a complete expression", self.tok.pos
            )
        return node

    def expr(self) -> Node:
        if not self.is_("if"):
            return self.or_expr()
        start = self.take().pos
        cond = self.expr()
        self.expect("then", "after the condition of `if`")
        then = self.expr()
        self.expect("else", "after the `then` branch", ": an `if` always has an `else`")
        return IfExpr(start, cond, then, self.expr())

    def or_expr(self) -> Node:
        node = self.and_expr()
        while self.is_("or"):
            pos = self.take().pos
            node = BoolOp(pos, "or", node, self.and_expr())
        return node

    def and_expr(self) -> Node:
        node = self.not_expr()
        while self.is_("and"):
            pos = self.take().pos
            node = BoolOp(pos, "and", node, self.not_expr())
        return node

    def not_expr(self) -> Node:
        if self.is_("not"):
            pos = self.take().pos
            return Unary(pos, "not", self.not_expr())
        return self.comparison()

    def comparison(self) -> Node:
        left = self.additive()
        op = self.compare_op()
        if op is None:
            return left
        pos = self.tok.pos
        self.at += 2 if op == "not in" else 1
        node = Compare(pos, op, left, self.additive())
        if self.compare_op() is not None:
            raise _SyntaxError("comparisons do not chain: join them with `and`", self.tok.pos)
        return node

    def compare_op(self) -> str | None:
        if self.is_("not") and self.is_("in", self.peek()):
            return "not in"
        if self.tok.kind in (SYMBOL, KEYWORD) and self.tok.text in COMPARE_OPS:
            return self.tok.text
        return None

    def additive(self) -> Node:
        node = self.term()
        while self.is_("+") or self.is_("-"):
            token = self.take()
            node = Binary(token.pos, token.text, node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.is_("*") or self.is_("//") or self.is_("%"):
            token = self.take()
            node = Binary(token.pos, token.text, node, self.unary())
        return node

    def unary(self) -> Node:
        if not self.is_("-"):
            return self.postfix()
        pos = self.take().pos
        if self.tok.kind == INT:  # `-3` is a literal; `-(3)` and `--3` stay operations
            return IntLit(pos, -int(self.take().text))
        return Unary(pos, "-", self.unary())

    def postfix(self) -> Node:
        node = self.primary()
        while True:
            if self.is_("("):
                node = self.call(node)
            elif self.is_("["):
                pos = self.take().pos
                index = self.expr()
                self.expect("]", "to close the index")
                node = Index(pos, node, index)
            elif self.is_("."):
                self.take()
                name = self.name_token("after `.`")
                node = Attr(name.pos, node, name.text)
            else:
                return node

    def call(self, callee: Node) -> Node:
        if not isinstance(callee, Name):
            raise _SyntaxError("only a named function can be called", self.tok.pos)
        if callee.id in COMPREHENSIONS:
            return self.comprehension(callee)
        self.take()
        return Call(callee.pos, callee.id, self.sequence(")", "the call"))

    def comprehension(self, kind: Name) -> Node:
        self.take()
        if self.tok.kind != NAME or not self.is_("in", self.peek()):
            raise _SyntaxError(
                f"`{kind.id}` needs a binder: `{kind.id}(x in xs: ...)`", self.tok.pos
            )
        var = self.take().text
        self.take()
        source = self.expr()
        self.expect(":", f"after the list of `{kind.id}(x in xs: ...)`")
        body = self.expr()
        self.expect(")", f"to close `{kind.id}(...)`")
        return Comprehension(kind.pos, kind.id, var, source, body)

    def sequence(self, close: str, what: str) -> tuple[Node, ...]:
        """Comma-separated expressions up to `close` (a trailing comma is allowed)."""
        items: list[Node] = []
        while not self.is_(close):
            items.append(self.expr())
            if not self.is_(","):
                break
            self.take()
        self.expect(close, f"to close {what}")
        return tuple(items)

    def primary(self) -> Node:
        token = self.tok
        if token.kind == INT:
            self.take()
            return IntLit(token.pos, int(token.text))
        if token.kind == STR:
            self.take()
            return StrLit(token.pos, token.text)
        if token.kind == CARD:
            self.take()
            card = card_literal(token.text)
            assert card is not None  # the lexer only makes card tokens of card codes
            return CardLit(token.pos, card)
        if token.kind == NAME:
            self.take()
            return Name(token.pos, token.text)
        if self.is_("true") or self.is_("false"):
            self.take()
            return BoolLit(token.pos, token.text == "true")
        if self.is_("("):
            self.take()
            node = self.expr()
            self.expect(")", "to close the parenthesis")
            return node
        if self.is_("["):
            return self.list_literal()
        raise _SyntaxError(f"expected an expression, found {token.describe()}", token.pos)

    def list_literal(self) -> Node:
        pos = self.take().pos
        items = self.sequence("]", "the list")
        if not items:
            raise _SyntaxError(
                "an empty list `[]` has no element type: a list literal needs an element", pos
            )
        return ListLit(pos, items)

    def name_token(self, context: str) -> Token:
        if self.tok.kind != NAME:
            raise _SyntaxError(
                f"expected a name {context}, found {self.tok.describe()}", self.tok.pos
            )
        return self.take()
