"""Run one typed expression through the three forms and say what each produced.

An outcome is `("ok", frozen value)` or `("error", None)`; values are compared in their
canonical form (`freeze`), so a tuple and a list of the same items agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from referee.cards import Card
from referee.proofs.encode import decode, encode_full, fresh_env
from referee.spec.expr import EvalError, TypedExpr
from referee.spec.expr.symbolic import STRINGS, SymCard, SymList, SymStr
from referee.spec.expr.values import freeze

Outcome = tuple[str, Any]


def interpreted(typed: TypedExpr, env: dict[str, Any]) -> Outcome:
    return _outcome(lambda: typed.program.evaluate(typed, env))


def compiled(typed: TypedExpr, env: dict[str, Any]) -> Outcome:
    """The compiled form; its generated code alone must agree too, wherever it gives a value,
    and it must fail wherever the interpreter does (its errors are then the interpreter's)."""
    fn = typed.program.compile(typed)
    outcome = _outcome(lambda: fn(env))
    try:
        generated = "ok", freeze(fn.generated(env))
    except Exception:  # noqa: BLE001 - any Python error: the compiled form re-runs the interpreter
        assert outcome[0] == "error", (
            f"the generated code failed where the language does not: {fn.source}"
        )
        return outcome
    assert generated == outcome == interpreted(typed, env), fn.source
    return outcome


def _outcome(run: Callable[[], Any]) -> Outcome:
    try:
        return "ok", freeze(run())
    except EvalError:
        return "error", None


def encoded(typed: TypedExpr, env: dict[str, Any]) -> Outcome:
    """Encode over a fully symbolic context shaped like `env`, then substitute `env` into it."""
    lengths = _lengths(env)
    symenv, _ = fresh_env(typed.program.scope, lengths)
    pairs = _bind(symenv, env)
    encoding = encode_full(typed, symenv)

    def evaluate(term: z3.ExprRef) -> z3.ExprRef:
        return z3.simplify(z3.substitute(term, *pairs)) if pairs else z3.simplify(term)

    if decode(encoding.error, evaluate):
        return "error", None
    return "ok", freeze(decode(encoding.value, evaluate))


def encoded_concrete(typed: TypedExpr, env: dict[str, Any]) -> Outcome:
    """Encode over the concrete context itself: everything folds to python values."""
    encoding = encode_full(typed, env)
    evaluate = z3.simplify
    if decode(encoding.error, evaluate):
        return "error", None
    return "ok", freeze(decode(encoding.value, evaluate))


def _lengths(env: dict[str, Any], prefix: str = "") -> dict[str, int]:
    out: dict[str, int] = {}
    for name, value in env.items():
        path = f"{prefix}{name}"
        if isinstance(value, (list, tuple)):
            out[path] = len(value)
        elif isinstance(value, dict):
            out.update(_lengths(value, f"{path}."))
    return out


def _bind(sym: Any, value: Any) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
    """Pairs (symbolic variable, constant) that make `sym` equal to the concrete `value`."""
    if isinstance(sym, SymCard):
        assert isinstance(value, Card)
        return [(sym.rank, z3.IntVal(value.value)), (sym.suit, z3.IntVal(STRINGS.code(value.suit)))]
    if isinstance(sym, SymStr):
        return [(sym.code, z3.IntVal(STRINGS.code(value)))]
    if isinstance(sym, SymList):
        return [p for s, v in zip(sym.items, value) for p in _bind(s, v)]
    if isinstance(sym, dict):
        return [p for k in sym for p in _bind(sym[k], value[k])]
    if isinstance(sym, z3.BoolRef):
        return [(sym, z3.BoolVal(value))]
    if isinstance(sym, z3.ArithRef):
        return [(sym, z3.IntVal(value))]
    return []
