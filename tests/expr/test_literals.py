"""Card, rank and suit literals, `index_of` and `best_index`: typed by the checker, and the
interpreter, the compiler and the z3 encoding agree on them (focused trees, random inputs)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card, PackKind
from referee.errors import SpecErrors
from referee.spec.expr import CARD, INT, STR, Definition, ListType, Program, check, parse
from referee.spec.expr.printer import unparse

from .agree import compiled, encoded, encoded_concrete, interpreted
from .gen import PROGRAM, envs


def tarot(code: str) -> Card:
    return Card.parse(code, PackKind.TAROT)


@pytest.mark.parametrize(
    "text, ty, value",
    [
        ("KS", CARD, Card.parse("KS")),
        ("T21", CARD, tarot("T21")),
        ("MT", CARD, tarot("MT")),
        ("NC", CARD, tarot("NC")),
        ("7H", CARD, Card.parse("7H")),
        ("knight", INT, 14),
        ("king", INT, 13),
        ("cups", STR, "C"),
        ("trumps", STR, "T"),
        ("rank(MT) + rank(T21)", INT, 21),
        ("index_of([5, 6, jack, knight, queen, king], knight)", INT, 3),
        ("index_of([KS, QS], AS)", INT, -1),
    ],
)
def test_a_literal_has_its_type_and_value(text: str, ty: Any, value: Any) -> None:
    typed = check(text)
    assert typed.type == ty
    assert typed.evaluate({}) == value == typed.compile()({})


def test_a_card_code_prints_back_as_itself() -> None:
    node = parse("c in [KS, T21, MT, 7H]").node
    assert unparse(node) == "c in [KS, T21, MT, 7H]"
    assert parse(unparse(node)).node == node


@pytest.mark.parametrize(
    "text, message",
    [
        ("NH == c", "`NH` is no card of a French or tarot pack"),
        ("Kx == c", "names are lowercase: `Kx`"),
    ],
)
def test_a_malformed_card_code_is_a_located_error(text: str, message: str) -> None:
    with pytest.raises(SpecErrors) as raised:
        parse(text)
    assert message in str(raised.value)


def test_a_spec_name_comes_before_a_card_word_and_a_definition_may_not_take_one() -> None:
    assert check("king + 1", {"king": INT}).evaluate({"king": 1}) == 2
    with pytest.raises(SpecErrors, match="`king` is a card word"):
        Program({}, [Definition("king", body="13")])


def test_best_index_is_the_first_greatest_key() -> None:
    typed = check("best_index(x in xs: x % 10)", {"xs": ListType(INT)})
    for xs, want in [([], -1), ([3], 0), ([3, 9, 19, 1], 1), ([5, 5], 0)]:
        assert typed.evaluate({"xs": xs}) == want == typed.compile()({"xs": xs})


FOCUSED = [
    "best_index(x in cards: rank(x))",
    "best_index(x in filter(y in cards: suit(y) == hearts): if rank(x) == ace then 14 else rank(x))",
    "best_index(x in xs: 0 - x)",
    "index_of(cards, c) + index_of(move.cards, KH)",
    "index_of(map(x in cards: suit(x)), suit(d))",
    "index_of([ace, 5, king], rank(c))",
    "c == KH or d in [AS, T21, MT] or suit(c) == spades",
    "best_index(x in xs: 10 // x)",
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(FOCUSED), envs())
def test_the_three_forms_agree_on_literals_and_orderings(text: str, env: dict[str, Any]) -> None:
    typed = PROGRAM.check(text)
    expected = interpreted(typed, env)
    assert compiled(typed, env) == expected, text
    assert encoded(typed, env) == expected, text
    assert encoded_concrete(typed, env) == expected, text
