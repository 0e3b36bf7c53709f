"""Each feature's meaning, checked in every form: interpreter, compiled, z3 (concrete and symbolic)."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import pytest

from referee.cards import Card
from referee.spec.expr import (
    BOOL,
    CARD,
    INT,
    STR,
    Definition,
    EvalError,
    ListType,
    Origin,
    Program,
    Scope,
    parse,
)
from referee.spec.expr.values import freeze

from .agree import Outcome, compiled, encoded, encoded_concrete, interpreted


def cards(*codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes]


SCOPE = Scope(
    {
        "cards": ListType(CARD),
        "turned": CARD,
        "n": INT,
        "xs": ListType(INT),
        "words": ListType(STR),
        "options": {"joker_rule": STR},
        "move": {"going_out": BOOL, "cards": ListType(CARD)},
    }
)
DEFINITIONS = [
    Definition(
        "is_joker",
        [("c", CARD)],
        """
        if options.joker_rule == "same_rank_other_colour"
        then rank(c) == rank(turned) and is_red(c) != is_red(turned)
        else suit(c) == suit(turned) and rank(c) == (rank(turned) % 13) + 1""",
    ),
    Definition("anchor", body="first_index(c in cards: not is_joker(c))"),
    Definition("base", body="rank(cards[anchor]) - anchor"),
    Definition("seq_suit", body="suit(cards[anchor])"),
    Definition("fits", [("i", INT)], "suit(cards[i]) == seq_suit and rank(cards[i]) == base + i"),
    Definition(
        "sequence", body="anchor >= 0 and all(i in indices(cards): is_joker(cards[i]) or fits(i))"
    ),
]
PROGRAM = Program(SCOPE, DEFINITIONS)
ENV: dict[str, Any] = {
    "cards": cards("5H", "6H", "2D", "8H"),
    "turned": Card.parse("2S"),
    "n": 7,
    "xs": (3, -1, 3, 8),
    "words": ["trio", "seq", "trio"],
    "options": {"joker_rule": "same_rank_other_colour"},
    "move": {"going_out": False, "cards": cards("KS", "KH", "KD")},
}
FORMS: dict[str, Callable[..., Outcome]] = {
    "interpreter": interpreted,
    "compiled": compiled,
    "z3 concrete": encoded_concrete,
    "z3 symbolic": encoded,
}

CASES = [
    # literals and arithmetic (Python's floor division and modulo)
    ("1 + 2 * 3 - 4", 3),
    ("-7 // 2", -4),
    ("-7 % 3", 2),
    ("7 // -2", -4),
    ("7 % -2", -1),
    ("n // 2 + n % 2", 4),
    ("-n", -7),
    ("--n", 7),
    ("[1, 2] + xs", [1, 2, 3, -1, 3, 8]),
    ('"trio"', "trio"),
    ("true and not false", True),
    # comparisons
    ("n == 7 and n != 8 and n < 8 and n <= 7 and n > 6 and n >= 7", True),
    ("cards[0] == cards[1]", False),
    ("turned == turned", True),
    ("xs == [3, -1, 3, 8]", True),
    ("words == reverse(reverse(words))", True),
    ("3 in xs and 4 not in xs", True),
    ("turned in cards", False),
    ('"seq" in words', True),
    ("[3, -1] in [xs, [3, -1]]", True),
    ("move == move", True),
    ('options.joker_rule == "same_rank_other_colour"', True),
    # if, and/or
    ('if n > 3 then "big" else "small"', "big"),
    ("if n > 30 then xs else [0]", [0]),
    ("n > 3 or n // 0 == 1", True),
    # records, indexing
    ("move.going_out", False),
    ("move.cards[2]", Card.parse("KD")),
    ("xs[3]", 8),
    # comprehensions
    ("all(x in xs: x > -2)", True),
    ("any(x in xs: x > 7)", True),
    ("any(x in xs: x > 9)", False),
    ("count(x in xs: x == 3)", 2),
    ("filter(x in xs: x > 0)", [3, 3, 8]),
    ("map(c in cards: rank(c))", [5, 6, 2, 8]),
    ("sum(x in xs: x)", 13),
    ("first_index(x in xs: x > 3)", 3),
    ("first_index(x in xs: x > 30)", -1),
    ("map(x in xs: map(y in [1, 2]: x * y))", [[3, 6], [-1, -2], [3, 6], [8, 16]]),
    ("all(x in xs: any(y in xs: y == x))", True),
    ("count(n in xs: n > 0) + n", 10),  # the binder `n` shadows the context name inside only
    # filters then the list operations on the (masked) result
    ("size(filter(x in xs: x > 0))", 3),
    ("filter(x in xs: x > 0)[1]", 3),
    ("distinct(filter(x in xs: x > 0))", [3, 8]),
    ("reverse(filter(c in cards: is_red(c)))", cards("8H", "2D", "6H", "5H")),
    ("first_index(x in filter(x in xs: x > 0): x > 3)", 2),
    ("indices(filter(x in xs: x > 0))", [0, 1, 2]),
    ("slice(filter(x in xs: x != -1), 1, 2)", [3]),
    ("filter(x in xs: x > 0) == [3, 3, 8]", True),
    ("contains(filter(x in xs: x > 0), [3, 8])", True),
    ("sum(x in filter(y in xs: y > 0): x)", 14),
    # builtins
    ("size(cards)", 4),
    ("indices(words)", [0, 1, 2]),
    ("distinct(words)", ["trio", "seq"]),
    ("rank(turned)", 2),
    ("suit(turned)", "S"),
    ("is_red(cards[0])", True),
    ("min(n, 3) + max(n, 3) + abs(-4)", 14),
    ("contains(xs, [3, 3])", True),
    ("contains(xs, [8, 8])", False),
    ("contains(cards, [turned])", False),
    ("reverse(xs)", [8, 3, -1, 3]),
    ("slice(xs, 1, 3)", [-1, 3]),
    ("slice(xs, -5, 2)", [3, -1]),
    ("slice(xs, 3, 99)", [8]),
    ("slice(xs, 3, 1)", []),
    # definitions (a joker is a red 2 when the turned card is a black 2)
    ("is_joker(cards[2])", True),
    ("anchor", 0),
    ("base", 5),
    ("sequence", True),
    ("anchor >= 0 and rank(cards[anchor]) == 5", True),
]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("text, expected", CASES)
def test_meaning(form: str, text: str, expected: Any) -> None:
    typed = PROGRAM.check(text)
    assert FORMS[form](typed, ENV) == ("ok", freeze(expected))


ERRORS = [
    "xs[4]",
    "xs[-1]",
    "cards[first_index(c in cards: rank(c) == 13)]",
    "n // 0",
    "n % (n - 7)",
    "all(x in xs: 12 // (x - 3) != 0)",
    "count(x in xs: x == 8 or xs[x] > 0) > 0",
    "map(x in xs: 1 // (x - 8))",
    "if n > 3 then xs[9] else 0",
    "is_joker(cards[n])",
    "[xs[0], xs[10]]",
    "filter(x in xs: x > 0)[3]",
    "slice(xs, 0, 1)[1]",
]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("text", ERRORS)
def test_runtime_errors(form: str, text: str) -> None:
    assert FORMS[form](PROGRAM.check(text), ENV) == ("error", None)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(
    "text",
    [
        "n < 0 and xs[9] == 1",
        "n > 0 or xs[9] == 1",
        "if n > 0 then 1 else xs[9]",
        "all(x in xs: x < 8 and 100 // (x - 8) > 0)",
        "any(x in xs: x == -1 or 1 // (x + 1) > 0)",
        "first_index(x in xs: x == 3 or 1 // (x + 1) > 0)",
    ],
)
def test_guards_stop_evaluation_before_an_error(form: str, text: str) -> None:
    assert FORMS[form](PROGRAM.check(text), ENV)[0] == "ok"


def test_a_guard_on_a_definition_protects_its_use() -> None:
    all_jokers = {**ENV, "cards": cards("2H", "2D")}
    typed = PROGRAM.check("anchor >= 0 and rank(cards[anchor]) == 1")
    for form in FORMS.values():
        assert form(typed, all_jokers) == ("ok", False)


def test_runtime_errors_say_where_and_why() -> None:
    origin = Origin(file="specs/p.yaml", line=30, column=11)
    typed = PROGRAM.check(parse("size(xs) > 0 and\n xs[n] > 0", origin))
    for run in (lambda env: PROGRAM.evaluate(typed, env), PROGRAM.compile(typed)):
        with pytest.raises(EvalError) as caught:
            run(ENV)
        assert caught.value.code == "eval_error"
        assert (
            str(caught.value) == "specs/p.yaml:31:4: index `7` out of range for a list of size `4`"
        )


def test_an_error_inside_a_definition_points_into_the_definition() -> None:
    program = Program(
        SCOPE, [Definition.parse("third", "xs[2 * n]", Origin(file="d.yaml", line=5, column=9))]
    )
    typed = program.check("third > 0")
    for run in (lambda env: program.evaluate(typed, env), program.compile(typed)):
        with pytest.raises(EvalError, match=r"^d\.yaml:5:11: index `14` out of range"):
            run(ENV)


def test_missing_context_values_and_fields_are_eval_errors() -> None:
    typed = PROGRAM.check("move.going_out or n > 0")
    env = {**ENV, "move": {"cards": []}}
    for run in (lambda e: PROGRAM.evaluate(typed, e), PROGRAM.compile(typed)):
        with pytest.raises(EvalError, match="the record has no field `going_out`"):
            run(env)
        with pytest.raises(EvalError, match="no value for `move` in the context"):
            run({"n": 1})


def test_records_may_be_any_mapping_and_lists_any_sequence() -> None:
    env = {**ENV, "move": MappingProxyType({"going_out": True, "cards": tuple(cards("KS"))})}
    typed = PROGRAM.check("move.going_out and move.cards == [move.cards[0]]")
    assert PROGRAM.evaluate(typed, env) is True
    assert PROGRAM.compile(typed)(env) is True


def test_compiled_results_are_plain_values() -> None:
    assert PROGRAM.compile(PROGRAM.check("filter(x in xs: x > 0)"))(ENV) == [3, 3, 8]
    assert PROGRAM.compile(PROGRAM.check("count(x in xs: x > 0)"))(ENV) == 3
    assert PROGRAM.compile(PROGRAM.check("sequence"))(ENV) is True
