"""Where an expression comes from, and the two errors it can raise.

An expression is a small piece of text inside a YAML spec. Positions inside it are counted from
1 (line and column within the expression); the caller's `Origin` says where the expression
itself starts in the file, so an error can print `specs/pontinho.yaml:42:7: ...` followed by
the expression line with a caret under the spot (STYLE.md item 7).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import RefereeError, SpecError


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an expression's text starts: file, 1-based line and column, and the YAML key path.

    Lines after the first are reported at `indent + column` (a YAML block scalar strips the
    indentation of its continuation lines; `indent` puts it back).
    """

    file: str = "<expr>"
    line: int = 1
    column: int = 1
    path: str = ""
    indent: int = 0

    def locate(self, pos: Pos) -> tuple[int, int]:
        """The file line and column of a position inside the expression."""
        if pos.line == 1:
            return self.line, self.column + pos.column - 1
        return self.line + pos.line - 1, self.indent + pos.column


NOWHERE = Origin()  # the origin of an expression given without one


@dataclass(frozen=True, slots=True)
class Pos:
    """A 1-based line and column inside one expression's text."""

    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


def excerpt(text: str, pos: Pos) -> str:
    """The expression line holding `pos`, with a caret under the column."""
    lines = text.splitlines() or [""]
    line = lines[min(pos.line, len(lines)) - 1]
    return f"    {line}\n    {' ' * (pos.column - 1)}^"


class ExprError(SpecError):
    """One located problem in an expression (syntax or type). `pos` is inside the expression."""

    def __init__(self, message: str, pos: Pos, text: str, origin: Origin) -> None:
        line, column = origin.locate(pos)
        super().__init__(
            message,
            file=origin.file,
            line=line,
            column=column,
            path=origin.path,
            excerpt=excerpt(text, pos),
        )
        self.pos = pos


class EvalError(RefereeError):
    """A rule expression failed while judging (an index out of range, a division by zero).

    Raised identically by the reference interpreter and compiled expressions (which re-run
    the interpreter where their generated code fails). Inside the engine this is a bug in a
    spec (an INTERNAL verdict), never "rule not satisfied".
    """

    code = "eval_error"

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.detail = message
        self.where = where


def where(origin: Origin, pos: Pos) -> str:
    """`file:line:column` of a position, for runtime error messages."""
    line, column = origin.locate(pos)
    return f"{origin.file}:{line}:{column}"
