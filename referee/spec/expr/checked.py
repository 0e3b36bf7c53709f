"""What the interpreter and the compiler read of a checked program, as protocols, so that
`program` (which runs both) is the only module that knows `Program` itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from referee.spec.expr.ast import Node
from referee.spec.expr.source import Origin
from referee.spec.expr.types import Type
from referee.spec.expr.vocabulary import Function


@dataclass(frozen=True)
class CheckedDefinition:
    name: str
    params: tuple[tuple[str, Type], ...]
    result: Type
    node: Node
    text: str
    origin: Origin


class CheckedProgram(Protocol):
    """A program's checked definitions and its vocabulary."""

    @property
    def definitions(self) -> Mapping[str, CheckedDefinition]: ...
    @property
    def functions(self) -> Mapping[str, Function]: ...

    _compiled: Any  # the compiler's per-program state, made on first compile


class CheckedExpr(Protocol):
    """A checked expression and the program whose definitions it may call."""

    @property
    def node(self) -> Node: ...
    @property
    def type(self) -> Type: ...
    @property
    def text(self) -> str: ...
    @property
    def origin(self) -> Origin: ...
    @property
    def program(self) -> CheckedProgram: ...
