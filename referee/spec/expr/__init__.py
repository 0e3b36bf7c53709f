"""The typed expression language in which every rule condition of a spec is written.

One semantics, four forms that agree (tested against each other on random expressions):
the reference interpreter (`evaluate`, the definition of meaning), the generated Python code
(`compile_expr`, the fast path: `codegen.py`), the z3 encoding (`referee.proofs.encode`), all
over the tree the parser and the type checker produce.

API
---
    parse(text: str, origin: Origin | None = None) -> ParsedExpr
        raises SpecErrors (one located ExprError) on a syntax error
    Program(scope: Scope | Mapping[str, TypeLike] | None = None,
            definitions: Iterable[Definition] = (),
            functions: Iterable[Function] | Mapping[str, Function] | None = None)
        checks every definition in order; raises SpecErrors listing every error
    Program.check(expr: ParsedExpr | str, expected: Type | None = None) -> TypedExpr
        raises SpecErrors listing every error (ExprError, a SpecError subclass)
    Program.evaluate(typed: TypedExpr, env: Mapping[str, Any]) -> Any       # interpreter
    Program.compile(typed: TypedExpr, label: str = "") -> Compiled          # fn(env) -> value
        Compiled.source / .definitions_source: the Python generated for it / its program
    check(expr, scope=None, expected=None, functions=None) -> TypedExpr     # no definitions
    names_read(typed_exprs) -> frozenset[str]   # the context names read, through definitions
    fields_read(typed_exprs) -> {name: fields | None}   # ... and the record fields read of each
    words_given(typed_expr) -> frozenset[str]   # the text literals it can give as its value
    evaluate(typed, env) -> Any;  compile_expr(typed, label="") -> Compiled
    all_of(*checks) / any_of(*checks) / not_(check) -> Check               # compose Compiled

    Definition(name: str, params: Sequence[tuple[str, TypeLike]] = (),
               body: ParsedExpr | str = "", result: Type | None = None, origin: Origin = NOWHERE)
    Definition.parse(signature: str, body: str, origin=NOWHERE, body_origin=None)
        e.g. Definition.parse("fits(i: int)", "suit(cards[i]) == seq_suit")
    Function(name, params: tuple[Type, ...], result: Type, py: Callable, z3: Callable | None,
             doc: str = "")                  # extra vocabulary, passed as Program(functions=...)
    Origin(file="<expr>", line=1, column=1, path="", indent=0)   # where the text sits in a file
    Scope(mapping name -> Type | nested dict of field types)
    Types: INT, BOOL, STR, CARD, ListType(elem), RecordType({field: type}), TypeVar("T"),
           parse_type("list[card]")
    EvalError (RefereeError, code "eval_error"): raised at run time by interpreter and compiled code

    TypedExpr(node, type, text, origin, program): .evaluate(env), .compile(label)
    unparse(node) (printer.py): the text of a tree, `parse(unparse(t)).node == t`

z3 side (`referee.proofs.encode`, over `referee.spec.expr.symbolic` values):
    encode(typed, symenv) -> Sym;  encode_full(typed, symenv) -> Encoding
        Encoding.value, Encoding.error (true iff evaluation raises EvalError), Encoding.holds
    fresh(ty, name, lengths=None, choices=None, default_length=3) -> (Sym, domain constraints)
    fresh_env(scope, lengths={"meld.cards": 5}, choices={"options.joker_rule": [...]})
        -> (symenv, domain constraints)
    lift(concrete value) -> Sym;  decode(sym value, model | evaluator) -> python value
    SymCard.fresh(name, domain=None) -> (SymCard, domain constraints): a French card, or one of
        `CardDomain.of(pack)` (a spec's `pack()`: its distinct cards);
    SymCard.lift(card);  SymCard.decode(model) -> Card
    SymStr.fresh(name, choices) -> (SymStr, domain);  SymList(items, flags);  STRINGS (codes)
    EncodeError: a function without z3 form, a symbolic env that lacks a name

Runtime values: int, bool, str, `referee.cards.Card`, lists (list or tuple), records (any
Mapping; `a.b` is `a["b"]`). List results are python lists (a constant one may be a tuple).
Literals: card codes (`KS`, `T21`, `MT`) are `card`s; rank and suit names (`king`, `knight`,
`cups`, `trumps`) are the `int` and `str` that `rank` and `suit` give (`literals.py`). The spec
writer's reference is docs/spec-language.md.
Semantics: evaluation is left to right; `and or if all any first_index` stop at the deciding
part; everything else evaluates all its parts (arguments too: call by value). `//` and `%`
round like Python's; indices must be in `0..size-1` (no counting from the end); `slice` clamps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.spec.expr.ast import ParsedExpr
from referee.spec.expr.compile import Check, Compiled, all_of, any_of, compile_expr, not_
from referee.spec.expr.parser import parse
from referee.spec.expr.printer import unparse
from referee.spec.expr.program import (
    Definition,
    Program,
    TypedExpr,
    check,
    fields_read,
    names_read,
    parse_signature,
    words_given,
)
from referee.spec.expr.source import EvalError, ExprError, Origin, Pos
from referee.spec.expr.types import (
    BOOL,
    CARD,
    INT,
    STR,
    ListType,
    RecordType,
    Scope,
    Type,
    TypeLike,
    TypeVar,
    parse_type,
)
from referee.spec.expr.vocabulary import BUILTINS, Function


def evaluate(typed: TypedExpr, env: Mapping[str, Any]) -> Any:
    """The reference interpreter (the meaning of an expression)."""
    return typed.program.evaluate(typed, env)


__all__ = [
    "BOOL",
    "BUILTINS",
    "CARD",
    "INT",
    "STR",
    "Check",
    "Compiled",
    "Definition",
    "EvalError",
    "ExprError",
    "Function",
    "ListType",
    "Origin",
    "ParsedExpr",
    "Pos",
    "Program",
    "RecordType",
    "Scope",
    "Type",
    "TypeLike",
    "TypeVar",
    "TypedExpr",
    "all_of",
    "any_of",
    "check",
    "compile_expr",
    "evaluate",
    "fields_read",
    "names_read",
    "not_",
    "parse",
    "parse_signature",
    "parse_type",
    "unparse",
    "words_given",
]
