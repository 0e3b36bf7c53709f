"""The z3 encoding: symbolic cards and lists, error conditions, and proofs at realistic sizes."""

from __future__ import annotations

import time
from typing import Any

import pytest
import z3

from referee.cards import Card
from referee.proofs.encode import decode, encode, encode_full, fresh_env, lift
from referee.spec.expr import BOOL, CARD, INT, STR, Definition, ListType, Program, Scope
from referee.spec.expr.symbolic import STRINGS, SymCard, SymList, SymStr

from .agree import encoded, interpreted

SCOPE = Scope(
    {
        "cards": ListType(CARD),
        "turned": CARD,
        "xs": ListType(INT),
        "n": INT,
        "m": INT,
        "options": {"joker_rule": STR},
        "move": {"going_out": BOOL},
    }
)
RULES = [
    (
        "is_joker(c: card)",
        """
        if options.joker_rule == "same_rank_other_colour"
        then rank(c) == rank(turned) and is_red(c) != is_red(turned)
        else suit(c) == suit(turned) and rank(c) == (rank(turned) % 13) + 1""",
    ),
    ("naturals", "filter(c in cards: not is_joker(c))"),
    ("anchor", "first_index(c in cards: not is_joker(c))"),
    ("base", "rank(cards[anchor]) - anchor"),
    ("seq_suit", "suit(cards[anchor])"),
    ("fits(i: int)", "suit(cards[i]) == seq_suit and rank(cards[i]) == base + i"),
    ("ends_natural", "not is_joker(cards[0]) and not is_joker(cards[size(cards) - 1])"),
    (
        "sequence",
        """size(cards) >= 3 and anchor >= 0 and base >= 1 and base + size(cards) <= 14
                    and all(i in indices(cards): is_joker(cards[i]) or fits(i))
                    and (move.going_out or ends_natural)""",
    ),
    (
        "trio",
        """size(cards) == 3 and all(c in cards: rank(c) == rank(cards[0]))
                and size(distinct(map(c in cards: suit(c)))) == 3""",
    ),
]
PROGRAM = Program(SCOPE, [Definition.parse(sig, body) for sig, body in RULES])
JOKER_RULES = ["same_rank_other_colour", "next_rank_same_suit"]


def symbolic(n: int) -> tuple[dict[str, Any], list[Any]]:
    return fresh_env(SCOPE, {"cards": n, "xs": n}, {"options.joker_rule": JOKER_RULES})


def proved(claim: Any, domain: list[Any]) -> bool:
    solver = z3.Solver()
    solver.set("timeout", 20_000)
    solver.add(*domain, z3.Not(claim))
    result = solver.check()
    assert result != z3.unknown
    return bool(result == z3.unsat)


def test_fresh_cards_range_over_the_french_pack_and_decode_to_cards() -> None:
    card, domain = SymCard.fresh("c")
    solver = z3.Solver()
    solver.add(*domain, card.rank == 12, card.suit == STRINGS.code("H"))
    assert solver.check() == z3.sat
    assert decode(card, solver.model()) == Card.parse("QH")
    solver.reset()
    solver.add(*domain, card.rank == 14)
    assert solver.check() == z3.unsat


def test_concrete_values_lift_and_fold() -> None:
    lifted = lift({"cards": [Card.parse("7D")], "kind": "trio"})
    assert isinstance(lifted["cards"], SymList) and lifted["cards"].items[0].rank == 7
    env = {
        "cards": [Card.parse(c) for c in ("7D", "7S", "7H")],
        "turned": Card.parse("2C"),
        "xs": [],
        "n": 0,
        "m": 0,
        "options": {"joker_rule": "next_rank_same_suit"},
        "move": {"going_out": False},
    }
    assert encode(PROGRAM.check("trio"), env) is True  # no z3 term at all: everything folded


@pytest.mark.parametrize("a", [-7, -6, 0, 6, 7])
@pytest.mark.parametrize("b", [-3, -2, 0, 2, 3])
def test_symbolic_division_follows_python(a: int, b: int) -> None:
    env = {
        "n": a,
        "m": b,
        "cards": [],
        "turned": Card.parse("AS"),
        "xs": [],
        "options": {"joker_rule": "x"},
        "move": {"going_out": False},
    }
    for text in ("n // m", "n % m", "n // 2", "n % -2", "-7 // m"):
        typed = PROGRAM.check(text)
        assert encoded(typed, env) == interpreted(typed, env), text


def test_symbolic_index_fails_exactly_outside_the_list() -> None:
    i = z3.Int("i")
    symenv, domain = symbolic(4)
    encoding = encode_full(PROGRAM.check("xs[n]"), {**symenv, "n": i})
    assert proved(encoding.error == z3.Or(i < 0, i >= 4), domain)


def test_indexing_a_filtered_list_picks_the_kth_kept_item() -> None:
    symenv, domain = symbolic(5)
    typed = PROGRAM.check("filter(x in xs: x > 0)[n] > 0")
    encoding = encode_full(typed, symenv)
    assert proved(z3.Implies(z3.Not(encoding.error), encoding.value), domain)
    in_range = PROGRAM.check("n >= 0 and n < count(x in xs: x > 0)")
    assert proved(encode(in_range, symenv) == z3.Not(encoding.error), domain)


def test_symbolic_strings_range_over_their_choices() -> None:
    kind, domain = SymStr.fresh("kind", ["trio", "sequence"])
    solver = z3.Solver()
    solver.add(*domain, kind.code != STRINGS.code("trio"))
    assert solver.check() == z3.sat and decode(kind, solver.model()) == "sequence"


def test_holds_excludes_inputs_on_which_evaluation_fails() -> None:
    symenv, domain = symbolic(3)
    n = symenv["n"]
    encoding = encode_full(PROGRAM.check("rank(cards[n]) >= 1"), symenv)
    assert proved(encoding.value, domain)  # the value alone is true even at n = 7 ...
    assert not proved(encoding.holds, domain)  # ... where evaluation fails
    assert proved(z3.Implies(encoding.holds, z3.And(n >= 0, n < 3)), domain)


# ---- proofs over the pontinho-like rules, meld sizes 3..10, symbolic turned card ------------


def claim(text: str, n: int) -> tuple[Any, list[Any]]:
    symenv, domain = symbolic(n)
    encoding = encode_full(PROGRAM.check(text, expected=BOOL), symenv)
    return z3.Implies(z3.Not(encoding.error), encoding.value), domain


@pytest.mark.parametrize("n", range(3, 11))
def test_sequence_rule_never_fails_and_its_naturals_are_distinct_and_of_one_suit(n: int) -> None:
    started = time.perf_counter()
    symenv, domain = symbolic(n)
    assert proved(z3.Not(encode_full(PROGRAM.check("sequence"), symenv).error), domain)
    prop, domain = claim(
        """not sequence or (
            all(c in naturals: suit(c) == suit(naturals[0]))
            and size(distinct(naturals)) == size(naturals))""",
        n,
    )
    assert proved(prop, domain)
    prop, domain = claim("not sequence or move.going_out or ends_natural", n)
    assert proved(prop, domain)
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize("n", range(3, 11))
def test_every_accepted_trio_has_three_distinct_suits(n: int) -> None:
    prop, domain = claim(
        """not trio or (suit(cards[0]) != suit(cards[1])
        and suit(cards[0]) != suit(cards[2]) and suit(cards[1]) != suit(cards[2]))""",
        n,
    )
    assert proved(prop, domain)


def test_a_false_property_yields_a_counterexample_that_replays() -> None:
    """ "No accepted sequence holds a joker" is false: decode the model and replay it."""
    symenv, domain = symbolic(4)
    prop, _ = claim("not sequence or size(naturals) == size(cards)", 4)
    solver = z3.Solver()
    solver.add(*domain, z3.Not(prop))
    assert solver.check() == z3.sat
    found = decode(symenv, solver.model())
    env = {**found, "xs": found["xs"], "n": found["n"], "m": found["m"]}
    assert PROGRAM.evaluate(PROGRAM.check("sequence"), env) is True
    assert PROGRAM.compile(PROGRAM.check("size(naturals) < size(cards)"))(env) is True
