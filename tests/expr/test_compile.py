"""The compiled form: repr, composition, constant folding, extra vocabulary."""

from __future__ import annotations

import pytest
import z3

from referee.cards import Card
from referee.proofs.encode import EncodeError, encode_full, fresh_env
from referee.spec.expr import (
    BOOL,
    CARD,
    INT,
    Compiled,
    Definition,
    EvalError,
    Function,
    ListType,
    Origin,
    Program,
    Scope,
    all_of,
    any_of,
    compile_expr,
    evaluate,
    not_,
    parse,
)
from referee.spec.expr.compile import Const, _Compiler, program_code
from referee.spec.expr.symbolic import SymCard, s_if

SCOPE = Scope({"cards": ListType(CARD), "n": INT, "options": {"rule": INT}})
PROGRAM = Program(SCOPE, [Definition("two", body="1 + 1"), Definition("big", body="n > 10")])


def compiled(text: str, label: str = "") -> Compiled:
    origin = Origin(file="specs/pontinho.yaml", line=42, column=7)
    return compile_expr(PROGRAM.check(parse(text, origin)), label)


def test_repr_shows_the_label_the_place_and_the_source() -> None:
    fn = compiled("size(cards) >= 3 and\n    n > 0", "PN-12")
    assert repr(fn) == "<compiled PN-12 at specs/pontinho.yaml:42: size(cards) >= 3 and n > 0>"


def test_checks_compose() -> None:
    small, many = compiled("n < 5", "small"), compiled("size(cards) > 2", "many")
    env = {"n": 3, "cards": []}
    assert all_of(small, not_(many))(env) is True
    assert any_of(many, not_(small))(env) is False
    assert repr(all_of(small, not_(many))) == (
        "all_of(<compiled small at specs/pontinho.yaml:42: n < 5>, "
        "not_(<compiled many at specs/pontinho.yaml:42: size(cards) > 2>))"
    )


def test_all_of_stops_at_the_first_failing_check() -> None:
    fails, raises = compiled("n > 100"), compiled("n // 0 == 1")
    assert all_of(fails, raises)({"n": 1}) is False
    assert any_of(not_(fails), raises)({"n": 1}) is True


def folded(text: str) -> object:
    state = program_code(PROGRAM)
    return _Compiler(state, Origin()).part(PROGRAM.check(text).node, {})


@pytest.mark.parametrize(
    "text, value",
    [
        ("1 + 2 * 3 == 7", True),
        ("two * 3", 6),
        ('if 1 < 2 then "a" else "b"', "a"),
        ("size([1, 2, 3])", 3),
        ("3 in [1, 2, 3]", True),
        ("false and n > 1", False),
        ("true or n // 0 > 1", True),
        ("not (two == 2)", False),
    ],
)
def test_constant_parts_are_folded(text: str, value: object) -> None:
    assert folded(text) == Const(value)


def test_a_constant_error_is_kept_for_run_time() -> None:
    assert not isinstance(folded("1 // 0 == 1"), Const)
    with pytest.raises(EvalError, match="division by zero"):
        compiled("1 // 0 == 1")({})


def test_definitions_without_parameters_are_computed_once_per_call() -> None:
    calls: list[int] = []

    def record(value: int) -> int:
        calls.append(value)
        return value

    spy = Function("spy", (INT,), INT, record)
    program = Program(SCOPE, [Definition("twice_n", body="spy(n) * 2")], functions=[spy])
    fn = program.compile(program.check("twice_n + twice_n + twice_n"))
    assert fn({"n": 4}) == 24 and calls == [4]
    assert fn({"n": 5}) == 30 and calls == [4, 5]


def test_a_compiled_check_is_reentrant() -> None:
    fn = compiled("all(c in cards: count(d in cards: d == c) == 1)")
    unique, twice = [Card.parse("AS"), Card.parse("2S")], [Card.parse("AS")] * 2
    assert (fn({"cards": unique}), fn({"cards": twice}), fn({"cards": unique})) == (
        True,
        False,
        True,
    )


# ---- extra vocabulary -------------------------------------------------------------------------


def _points_py(card: Card) -> int:
    return 15 if card.value == 1 else min(card.value, 10)


def _points_z3(card: SymCard) -> object:
    return s_if(card.rank == 1, 15, s_if(card.rank >= 10, 10, card.rank))


POINTS = Function("points", (CARD,), INT, _points_py, _points_z3, "scoring value of a card")


def test_extra_functions_work_in_every_form() -> None:
    program = Program(
        SCOPE, [Definition("score", body="sum(c in cards: points(c))")], functions=[POINTS]
    )
    typed = program.check("score")
    env = {"cards": [Card.parse(c) for c in ("AS", "KH", "7D")], "n": 0, "options": {"rule": 1}}
    assert evaluate(typed, env) == program.compile(typed)(env) == 32
    symenv, domain = fresh_env(SCOPE, {"cards": 3})
    solver = z3.Solver()
    solver.add(*domain, encode_full(typed, symenv).value == 45)
    assert solver.check() == z3.sat  # three aces
    solver.add(symenv["cards"].items[0].rank != 1)
    assert solver.check() == z3.unsat


def test_extra_functions_are_checked_like_builtins() -> None:
    program = Program(SCOPE, functions={"points": POINTS})
    with pytest.raises(Exception, match="argument 1 of `points` must be `card`, found `int`"):
        program.check("points(1)")


def test_a_builtin_cannot_be_replaced() -> None:
    with pytest.raises(ValueError, match="`size` is a builtin function and cannot be redefined"):
        Program(SCOPE, functions=[Function("size", (INT,), INT, abs)])


def test_a_function_without_z3_form_cannot_be_encoded() -> None:
    program = Program(SCOPE, functions=[Function("opaque", (INT,), BOOL, bool)])
    typed = program.check("opaque(n)")
    assert program.compile(typed)({"n": 2}) is True
    with pytest.raises(EncodeError, match="function `opaque` has no z3 implementation"):
        encode_full(typed, {"n": z3.Int("n")})
