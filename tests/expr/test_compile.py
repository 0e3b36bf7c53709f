"""The compiled form: repr, composition, constant folding, extra vocabulary."""

from __future__ import annotations

import ast as pyast
import traceback
from dataclasses import replace

import pytest
import z3

from referee.cards import Card, french_pack, tarot_pack
from referee.proofs.encode import EncodeError, encode_full, fresh_env
from referee.spec.expr import (
    BOOL,
    CARD,
    INT,
    STR,
    Compiled,
    Definition,
    EvalError,
    Function,
    ListType,
    Origin,
    ParsedExpr,
    Program,
    Scope,
    all_of,
    any_of,
    compile_expr,
    evaluate,
    not_,
    parse,
)
from referee.spec.expr.ast import Attr, BoolOp, Compare
from referee.spec.expr.compile import Const, program_code
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
    return program_code(PROGRAM).part(PROGRAM.check(text).node, Origin())


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


# ---- the generated code: errors, names, source ------------------------------------------------

ERRORS = Program(
    Scope({"xs": ListType(INT), "n": INT, "r": {"a": INT}}),
    [
        Definition.parse("at(i: int)", "xs[i]"),
        Definition.parse("last", "xs[size(xs) - 1]"),
        Definition.parse("firsts", "map(i in indices(xs): xs[i - n])"),
        Definition.parse("one(i: int)", "1"),  # small: written in place, its argument unused
    ],
)


@pytest.mark.parametrize(
    "text, env",
    [
        ("xs[n] > 0", {"xs": [1, 2], "n": -1}),  # Python would give the last item
        ("xs[-1] > 0", {"xs": [1, 2], "n": 0}),
        ("xs[n + 1] > 0", {"xs": [1, 2], "n": -2}),
        ("at(n) > 0", {"xs": [1, 2], "n": -2}),
        ("last > 0", {"xs": [], "n": 0}),
        ("size(firsts) > 0", {"xs": [1, 2], "n": 1}),
        ("sum(x in map(i in indices(xs): xs[i - n]): x) > 0", {"xs": [1, 2], "n": 1}),
        ("xs[n] > 0", {"xs": [1, 2], "n": 2}),
        ("n // (n - 1) > 0", {"xs": [], "n": 1}),
        ("n % (n - 1) > 0", {"xs": [], "n": 1}),
        ("r.a > n", {"xs": [], "n": 1, "r": {"b": 1}}),
        ("r.a > n", {"xs": [], "n": 1, "r": 7}),
        ("n > 0", {"xs": []}),
        ("one(xs[n]) > 0", {"xs": [1], "n": 3}),  # call by value, even where the body is inlined
        ("one(n // 0) + one(1) > 0", {"xs": [1], "n": 3}),
    ],
)
def test_errors_are_the_interpreters_with_its_message_and_place(
    text: str, env: dict[str, object]
) -> None:
    typed = ERRORS.check(parse(text, Origin(file="specs/x.yaml", line=9, column=5)))
    fn = ERRORS.compile(typed)
    with pytest.raises(EvalError) as expected:
        evaluate(typed, env)
    with pytest.raises(Exception):  # noqa: B017 - whatever Python raises
        fn.generated(env)  # the generated code alone fails too: never a wrapped-around value
    with pytest.raises(EvalError) as got:
        fn(env)
    assert (str(got.value), got.value.where) == (str(expected.value), expected.value.where)


def test_booleans_are_the_interpreters() -> None:
    typed = ERRORS.check("n > 0 and n < 5 or size(xs) == 0")
    for env in ({"xs": [], "n": 0}, {"xs": [1], "n": 3}, {"xs": [1], "n": 9}):
        assert ERRORS.compile(typed)(env) is evaluate(typed, env)


def test_the_generated_source_is_reachable_and_names_the_spec() -> None:
    fn = compiled("all(c in cards: rank(c) > n) and big", "PN-12")
    # the comprehension's own function, then the expression's, each titled by its spec text
    assert fn.source.startswith("def c_") and "\n    # all(c in cards: rank(c) > n)\n" in fn.source
    assert "def e_" in fn.source and "# PN-12: all(c in cards: rank(c) > n) and big" in fn.source
    assert "def d_" in fn.definitions_source and "# big := n > 10" in fn.definitions_source
    with pytest.raises(TypeError) as failure:
        fn.generated({"cards": [Card.parse("AS")], "n": "x"})
    frames = [frame.filename for frame in traceback.extract_tb(failure.value.__traceback__)]
    assert "<rules specs/pontinho.yaml:42>" in frames


HOSTILE = "x'] + __import__('os').getcwd() + env['\n__import__(\"os\")\r\x00\" #"


def test_spec_text_cannot_become_code() -> None:
    """Strings, field names and labels from a spec only ever reach the source as literals or
    comments: parse the generated text and look for anything but our own names."""
    program = Program(Scope({"r": {HOSTILE: STR}}), [Definition("d", body="1")])
    literal = '"' + HOSTILE.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    text = f'{literal} == "a" or r.x == {literal}'
    node = parse(text).node
    assert isinstance(node, BoolOp) and isinstance(node.right, Compare)
    attr = node.right.left
    assert isinstance(attr, Attr)
    hostile_field = replace(node, right=replace(node.right, left=replace(attr, name=HOSTILE)))
    typed = program.check(ParsedExpr(hostile_field, text, Origin(file=HOSTILE, line=1)))
    fn = program.compile(typed, label=HOSTILE)
    assert fn({"r": {HOSTILE: HOSTILE}}) is True
    assert fn({"r": {HOSTILE: "b"}}) is False
    called = {
        node.func.id
        for node in pyast.walk(pyast.parse(fn.source))
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name)
    }
    assert called <= {"len", "min", "max", "abs", "all", "any", "sum", "next", "enumerate"}
    assert not any(
        isinstance(node, pyast.Name) and "import" in node.id
        for node in pyast.walk(pyast.parse(fn.source))
    )


def test_card_properties_read_from_tables_agree_with_the_cards() -> None:
    program = Program(Scope({"c": CARD}))
    rank, red = (program.compile(program.check(text)) for text in ("rank(c)", "is_red(c)"))
    assert "_rank[" in rank.source and "_red[" in red.source
    for card in [*french_pack(), *tarot_pack()]:
        assert (rank.generated({"c": card}), red.generated({"c": card})) == (
            card.value,
            card.is_red,
        )
