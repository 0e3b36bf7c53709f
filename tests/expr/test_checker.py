"""The type checker: the type of each construct, and every error, located and worded."""

from __future__ import annotations

import pytest

from referee.errors import SpecError, SpecErrors
from referee.spec.expr import (
    BOOL,
    CARD,
    INT,
    STR,
    Definition,
    ListType,
    Origin,
    Program,
    RecordType,
    Scope,
    Type,
    check,
    fields_read,
    parse,
    parse_signature,
    parse_type,
)
from referee.spec.expr.types import TypeSyntaxError

SCOPE = Scope(
    {
        "cards": ListType(CARD),
        "turned": CARD,
        "n": INT,
        "kind": STR,
        "options": {"joker_rule": STR},
        "move": {"going_out": BOOL, "meld": {"cards": ListType(CARD)}},
    }
)
PROGRAM = Program(
    SCOPE,
    [
        Definition("is_joker", [("c", CARD)], "rank(c) == rank(turned)"),
        Definition("anchor", body="first_index(c in cards: not is_joker(c))"),
        Definition("fits", [("i", INT), ("s", STR)], "suit(cards[i]) == s"),
    ],
)


def type_of(text: str) -> Type:
    return PROGRAM.check(text).type


@pytest.mark.parametrize(
    "text, ty",
    [
        ("1 + 2 * n", INT),
        ('"a"', STR),
        ("turned", CARD),
        ("options", RecordType({"joker_rule": STR})),
        ("move.meld.cards", ListType(CARD)),
        ("cards[0]", CARD),
        ("[1, 2] + [n]", ListType(INT)),
        ("[[1], [2]]", ListType(ListType(INT))),
        ('if n > 0 then kind else "x"', STR),
        ("all(c in cards: is_red(c))", BOOL),
        ("count(c in cards: is_red(c))", INT),
        ("filter(c in cards: is_red(c))", ListType(CARD)),
        ("map(c in cards: rank(c))", ListType(INT)),
        ("first_index(c in cards: is_red(c))", INT),
        ("sum(c in cards: rank(c))", INT),
        ("distinct(map(c in cards: suit(c)))", ListType(STR)),
        ("indices(cards)", ListType(INT)),
        ("slice(cards, 1, n)", ListType(CARD)),
        ("contains(cards, [turned])", BOOL),
        ("anchor", INT),
        ('is_joker(turned) and fits(0, "H")', BOOL),
        ("turned in cards", BOOL),
        ("cards == reverse(cards)", BOOL),
        ('all(n in ["a"]: n == kind)', BOOL),  # a binder shadows the context name `n`
    ],
)
def test_types(text: str, ty: Type) -> None:
    assert type_of(text) == ty


def errors(text: str, program: Program = PROGRAM, expected: Type | None = None) -> list[SpecError]:
    with pytest.raises(SpecErrors) as caught:
        program.check(parse(text), expected)
    return caught.value.errors


def message(text: str, expected: Type | None = None) -> str:
    (error,) = errors(text, expected=expected)
    return error.detail


@pytest.mark.parametrize(
    "text, wording",
    [
        ("size(card)", "unknown name `card`: did you mean `cards`?"),
        ("zzz", "unknown name `zzz`"),
        ("siz(cards)", "unknown function `siz`: did you mean `size`?"),
        ("size(cards, 1)", "`size` takes 1 argument, got 2"),
        ("min(1)", "`min` takes 2 arguments, got 1"),
        ("rank(1)", "argument 1 of `rank` must be `card`, found `int`"),
        (
            "contains(cards, [1])",
            "argument 2 of `contains` must be `list[card]`, found `list[int]`",
        ),
        ("size(turned)", "argument 1 of `size` must be `list[T]`, found `card`"),
        ("1 + true", "`+` adds two `int`s or joins two lists of one type, found `int` and `bool`"),
        ("kind * 2", "the operands of `*` must be `int`, found `str` and `int`"),
        ("-kind", "the operand of `-` must be `int`, found `str`"),
        ("not n", "the operand of `not` must be `bool`, found `int`"),
        ("n and true", "the operands of `and` must be `bool`, found `int`"),
        ("n == kind", "`==` compares values of one type, found `int` and `str`"),
        ("turned < cards[0]", "`<` compares `int`s, found `card`: compare `rank(...)` for cards"),
        ('kind < "b"', "`<` compares `int`s, found `str`: compare `rank(...)` for cards"),
        ("n in cards", "`in` looks for a `int` in a `list[card]`"),
        ("n in n", "`in` looks for an item in a list, found `int` on the right"),
        ("if n then 1 else 2", "the condition of `if` must be `bool`, found `int`"),
        (
            "if true then 1 else kind",
            "the branches of `if` must have one type, found `int` and `str`",
        ),
        (
            "[1, kind]",
            "the items of a list must have one type: item 2 is `str`, the first is `int`",
        ),
        ("turned.rank", "only records have fields: `turned` is a `card`"),
        ("move.going", "`move` has no field `going`: did you mean `going_out`?"),
        ("move.meld.card", "`move.meld` has no field `card`: did you mean `cards`?"),
        ("turned[0]", "only lists can be indexed, found `card`"),
        ("cards[kind]", "an index must be `int`, found `str`"),
        ("all(c in turned: true)", "`all` ranges over a list, found `card`"),
        ("all(c in cards: rank(c))", "the body of `all` must be `bool`, found `int`"),
        ("sum(c in cards: is_red(c))", "the body of `sum` must be `int`, found `bool`"),
        ("is_joker", "`is_joker` takes 1 argument: call it as `is_joker(...)`"),
        ("anchor()", "`anchor` takes no arguments: write `anchor`"),
        ("size", "`size` is a function: call it as `size(...)`"),
        ("fits(0, 1)", "argument 2 (`s`) of `fits` must be `str`, found `int`"),
        ("fits(0)", "`fits` takes 2 arguments, got 1"),
    ],
)
def test_each_error_has_a_clear_message(text: str, wording: str) -> None:
    assert message(text) == wording


def test_expected_type_is_checked() -> None:
    assert message("size(cards)", expected=BOOL) == "the expression must be `bool`, found `int`"


def test_every_error_is_reported_once_with_its_location() -> None:
    origin = Origin(file="specs/pontinho.yaml", line=42, column=7, path="rules[3].require")
    found = errors_at("size(cardz) >= 3 and\n  rank(turned) == kind and siz(cards) > 0", origin)
    assert [(e.line, e.column, e.detail) for e in found] == [
        (42, 12, "unknown name `cardz`: did you mean `cards`?"),
        (43, 16, "`==` compares values of one type, found `int` and `str`"),
        (43, 28, "unknown function `siz`: did you mean `size`?"),
    ]
    assert str(found[0]) == (
        "specs/pontinho.yaml:42:12: at `rules[3].require`: unknown name "
        "`cardz`: did you mean `cards`?\n"
        "    size(cardz) >= 3 and\n"
        "         ^"
    )


def errors_at(text: str, origin: Origin) -> list[SpecError]:
    with pytest.raises(SpecErrors) as caught:
        PROGRAM.check(parse(text, origin))
    return caught.value.errors


def test_a_failed_part_does_not_echo_errors_upward() -> None:
    found = errors("rank(cardz[0]) + 1 > size(cardz) and is_red(cardz[1])")
    assert [e.detail for e in found] == ["unknown name `cardz`: did you mean `cards`?"] * 3


def test_binders_are_scoped_to_their_body() -> None:
    assert message("count(c in cards: is_red(c)) + rank(c)") == "unknown name `c`"


def test_check_shortcut_without_definitions() -> None:
    assert check("size(xs) > 1", Scope({"xs": ListType(INT)}), expected=BOOL).type == BOOL


# ---- definitions -----------------------------------------------------------------------------


def program_errors(*definitions: Definition) -> list[str]:
    with pytest.raises(SpecErrors) as caught:
        Program(SCOPE, definitions)
    return [e.detail for e in caught.value.errors]


def test_definitions_see_only_earlier_definitions() -> None:
    assert program_errors(
        Definition("a", body="b + 1"),
        Definition("b", body="1"),
    ) == ["unknown name `b`"]


def test_a_definition_cannot_call_itself() -> None:
    assert program_errors(Definition("f", [("i", INT)], "f(i - 1)")) == ["unknown function `f`"]


def test_definition_name_clashes_are_reported() -> None:
    assert program_errors(
        Definition("size", body="1"),
        Definition("turned", body="1"),
        Definition("all", body="1"),
        Definition("g", [("i", INT), ("i", INT)], "i"),
        Definition("h", body="1"),
        Definition("h", body="2"),
    ) == [
        "`size` is already a function",
        "`turned` is already a context name",
        "`all` cannot name a definition",
        "parameter `i` of `g` appears twice",
        "`h` is already a definition",
    ]


def test_all_definition_errors_are_collected_and_a_broken_one_does_not_echo() -> None:
    assert program_errors(
        Definition("a", body="rank(1)"),
        Definition("b", body="a + 1 +"),
        Definition("c", body="a + b + zz"),
    ) == [
        "argument 1 of `rank` must be `card`, found `int`",
        "expected an expression, found the end of the expression",
        "unknown name `zz`",
    ]


def test_declared_result_type_is_checked() -> None:
    assert program_errors(Definition("a", body="1", result=BOOL)) == [
        "the body of `a` must be `bool`, found `int`"
    ]


def test_definition_errors_point_into_the_definition() -> None:
    origin = Origin(file="specs/x.yaml", line=7, column=12)
    with pytest.raises(SpecErrors) as caught:
        Program(SCOPE, [Definition.parse("f(i: int)", "i + kind", origin)])
    (error,) = caught.value.errors
    assert (error.file, error.line, error.column) == ("specs/x.yaml", 7, 14)


def test_signatures_and_types_parse_from_spec_text() -> None:
    assert parse_signature("anchor") == ("anchor", [])
    assert parse_signature("fits(i: int, m: {cards: list[card], kind: str})") == (
        "fits",
        [("i", INT), ("m", RecordType({"cards": ListType(CARD), "kind": STR}))],
    )
    assert parse_type("list[list[int]]") == ListType(ListType(INT))
    assert str(parse_type("{b: bool, a: list[card]}")) == "{a: list[card], b: bool}"


@pytest.mark.parametrize(
    "text, wording",
    [
        ("lst[int]", "unknown type `lst`: expected one of `int bool str card list[...] {...}`"),
        ("list[int", "expected `]` in type `list[int`, found the end"),
        ("int int", "unexpected `int` in type `int int`"),
        ("{a int}", "expected `:` in type `{a int}`, found `int`"),
    ],
)
def test_malformed_types_are_reported(text: str, wording: str) -> None:
    with pytest.raises(TypeSyntaxError) as caught:
        parse_type(text)
    assert str(caught.value) == wording


@pytest.mark.parametrize(
    "signature, wording",
    [
        (
            "Fits(i: int)",
            (
                "malformed definition name `Fits(i: int)`: expected `name` or "
                "`name(param: type, ...)`"
            ),
        ),
        ("fits(i)", "malformed parameter `i`: expected `name: type`"),
        (
            "fits(i: integer)",
            ("unknown type `integer`: expected one of `int bool str card list[...] {...}`"),
        ),
    ],
)
def test_malformed_signatures_are_spec_errors(signature: str, wording: str) -> None:
    with pytest.raises(SpecErrors) as caught:
        parse_signature(signature, Origin(file="s.yaml", line=3, column=5))
    (error,) = caught.value.errors
    assert (error.detail, error.file, error.line) == (wording, "s.yaml", 3)


@pytest.mark.parametrize(
    "text, fields",
    [
        ('options.joker_rule == "x"', {"options": {"joker_rule"}}),
        ('options == options and options.joker_rule == "x"', {"options": None}),
        (
            "move.going_out and size(move.meld.cards) > n",
            {"move": {"going_out", "meld"}, "n": None},
        ),
        ("is_joker(turned)", {"turned": None}),  # through a definition
        ("anchor >= 0", {"cards": None, "turned": None}),
    ],
)
def test_the_fields_read_of_each_name(text: str, fields: dict[str, set[str] | None]) -> None:
    expected = {name: None if f is None else frozenset(f) for name, f in fields.items()}
    assert fields_read([PROGRAM.check(text)]) == expected
