"""The compiler: a typed tree -> generated Python functions, the fast path that judges moves.

`codegen` turns a program's definitions and each compiled expression into Python source,
compiled once per program; `Compiled` calls the expression's function. Where the generated
code fails (a missing name or field, a division by zero, a bad index: whatever Python raises),
`Compiled` re-runs the reference interpreter (`interp.py`), which raises the EvalError with its
message and location: expressions are pure, so running one twice is safe. Values,
short-circuits and errors are therefore the interpreter's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.spec.expr.checked import CheckedExpr, CheckedProgram
from referee.spec.expr.codegen import Const, GeneratedFn, ProgramCode
from referee.spec.expr.interp import interpret
from referee.spec.expr.runtime import UNSET

__all__ = ["Check", "Compiled", "Const", "all_of", "any_of", "compile_expr", "not_"]


class Check:
    """A compiled condition: call it with the env. Subclasses say what they are in `repr`."""

    def __call__(self, env: Mapping[str, Any]) -> Any:
        raise NotImplementedError


class Compiled(Check):
    """One compiled expression; `repr` shows its label and source text, `source` the Python
    generated for it (`definitions_source`: for its program's definitions)."""

    __slots__ = ("_fn", "_memo", "_state", "_typed", "label", "source", "text", "type", "where")

    def __init__(
        self, fn: GeneratedFn, source: str, state: ProgramCode, typed: CheckedExpr, label: str
    ) -> None:
        self._fn, self._memo, self._state, self._typed = fn, state.memo_size, state, typed
        self.source = source
        self.text, self.label, self.type = typed.text, label, typed.type
        self.where = f"{typed.origin.file}:{typed.origin.line}"

    def __call__(self, env: Mapping[str, Any]) -> Any:
        try:
            return self._fn(env, [UNSET] * self._memo)
        except Exception:  # noqa: BLE001 - the interpreter raises the error as the language says
            return interpret(self._typed, env)

    @property
    def fn(self) -> GeneratedFn:
        """The generated function, `fn(env, memo)`: raising whatever Python raises (the caller
        then calls this object, whose interpreter says why). A memo (`[UNSET] * memo_size`)
        may be shared by the expressions of one program (`shares`) judged in one environment:
        each definition without parameters is then computed once for them all."""
        return self._fn

    @property
    def memo_size(self) -> int:
        return self._memo

    def shares(self, other: Compiled) -> bool:
        """Is `other` of the same program (its memo slots are this one's)?"""
        return self._state is other._state

    def generated(self, env: Mapping[str, Any]) -> Any:
        """The generated code alone, raising whatever Python raises (for tests)."""
        return self._fn(env, [UNSET] * self._memo)

    @property
    def definitions_source(self) -> str:
        return self._state.source

    def __repr__(self) -> str:
        label = f"{self.label} " if self.label else ""
        return f"<compiled {label}at {self.where}: {' '.join(self.text.split())}>"


class _AllOf(Check):
    def __init__(self, checks: tuple[Check, ...]) -> None:
        self.checks = checks

    def __call__(self, env: Mapping[str, Any]) -> bool:
        return all(check(env) for check in self.checks)

    def __repr__(self) -> str:
        return f"all_of({', '.join(map(repr, self.checks))})"


class _AnyOf(_AllOf):
    def __call__(self, env: Mapping[str, Any]) -> bool:
        return any(check(env) for check in self.checks)

    def __repr__(self) -> str:
        return f"any_of({', '.join(map(repr, self.checks))})"


class _Not(Check):
    def __init__(self, check: Check) -> None:
        self.check = check

    def __call__(self, env: Mapping[str, Any]) -> bool:
        return not self.check(env)

    def __repr__(self) -> str:
        return f"not_({self.check!r})"


def all_of(*checks: Check) -> Check:
    """True iff every check holds; stops at the first that does not."""
    return _AllOf(checks)


def any_of(*checks: Check) -> Check:
    """True iff some check holds; stops at the first that does."""
    return _AnyOf(checks)


def not_(check: Check) -> Check:
    return _Not(check)


# ---- per-program state --------------------------------------------------------------------


def program_code(program: CheckedProgram) -> ProgramCode:
    """The program's generated module, made on its first compile."""
    if program._compiled is None:
        program._compiled = ProgramCode(program)
    code: ProgramCode = program._compiled
    return code


def compile_expr(typed: CheckedExpr, label: str = "") -> Compiled:
    """Compile a checked expression into a callable `fn(env)`."""
    state = program_code(typed.program)
    fn, source = state.expression(typed.node, typed.origin, typed.text, label)
    return Compiled(state.fn(fn), source, state, typed, label)
