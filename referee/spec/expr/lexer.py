"""Tokens of the expression language. Whitespace and newlines separate tokens; `#` starts a
comment that runs to the end of the line."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from referee.spec.expr.literals import CARD_CODE, card_literal
from referee.spec.expr.source import Pos

KEYWORDS = frozenset({"true", "false", "if", "then", "else", "and", "or", "not", "in"})
# Longest first, so `//` wins over `/` and `<=` over `<`.
SYMBOLS = (
    "==",
    "!=",
    "<=",
    ">=",
    "//",
    "<",
    ">",
    "+",
    "-",
    "*",
    "%",
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    ":",
)

INT, STR, CARD, NAME, KEYWORD, SYMBOL, END = (
    "int",
    "str",
    "card",
    "name",
    "keyword",
    "symbol",
    "end",
)

_SPACE = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9]+")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n"}


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    pos: Pos

    def describe(self) -> str:
        return "the end of the expression" if self.kind == END else f"`{self.text}`"


class LexError(Exception):
    """A character that starts no token; the parser reports it as a located ExprError."""

    def __init__(self, message: str, pos: Pos) -> None:
        super().__init__(message)
        self.message, self.pos = message, pos


def tokenize(text: str) -> list[Token]:
    """All tokens of `text`, ending with an END token."""
    lines = _line_starts(text)
    tokens: list[Token] = []
    at = _skip_space(text, 0)
    while at < len(text):
        token, at = _next_token(text, at, lambda offset: _pos(lines, offset))
        tokens.append(token)
        at = _skip_space(text, at)
    tokens.append(Token(END, "", _pos(lines, len(text))))
    return tokens


def _next_token(text: str, at: int, pos_of: Callable[[int], Pos]) -> tuple[Token, int]:
    pos = pos_of(at)
    if match := CARD_CODE.match(text, at):
        if card_literal(match.group()) is None:
            raise LexError(f"`{match.group()}` is no card of a French or tarot pack", pos)
        return Token(CARD, match.group(), pos), match.end()
    if match := _NAME.match(text, at):
        word = match.group()
        if word != word.lower():
            raise LexError(f"names are lowercase: `{word}`", pos)
        return Token(KEYWORD if word in KEYWORDS else NAME, word, pos), match.end()
    if match := _NUMBER.match(text, at):
        return Token(INT, match.group(), pos), match.end()
    if text[at] == '"':
        return _string(text, at, pos)
    for symbol in SYMBOLS:
        if text.startswith(symbol, at):
            return Token(SYMBOL, symbol, pos), at + len(symbol)
    hint = ": strings use double quotes" if text[at] == "'" else ""
    raise LexError(f"unexpected character `{text[at]}`{hint}", pos)


def _string(text: str, at: int, pos: Pos) -> tuple[Token, int]:
    match = _STRING.match(text, at)
    if not match:
        raise LexError('unterminated string: a string ends with `"` on the same line', pos)
    raw = match.group(1)
    value = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), raw)
    return Token(STR, value, pos), match.end()


def _skip_space(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at


def _line_starts(text: str) -> list[int]:
    return [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]


def _pos(line_starts: list[int], offset: int) -> Pos:
    line = bisect.bisect_right(line_starts, offset) - 1
    return Pos(line + 1, offset - line_starts[line] + 1)
