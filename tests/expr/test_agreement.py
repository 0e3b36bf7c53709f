"""Differential tests: parser round-trip, and interpreter == compiler == z3 on random inputs.

The symbolic z3 runs are the costly ones: `make test` runs a third of their examples, `make soak`
(SOAK_SCALE=3) all of them, and a little more."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.spec.expr import ParsedExpr, parse
from referee.spec.expr.ast import Node
from referee.spec.expr.printer import unparse
from tests.support.soak import SOAK_SCALE

from .agree import compiled, encoded, encoded_concrete, interpreted
from .gen import PROGRAM, TYPES, arithmetic, envs, expr_of, guarded

pytestmark = pytest.mark.slow  # every test here is a long run (z3 on every example)

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)

typed_trees = st.sampled_from(TYPES).flatmap(lambda ty: st.tuples(st.just(ty), expr_of(ty)))


def _typed(node: Node) -> Any:
    parsed = parse(unparse(node))
    assert parsed.node == node, unparse(node)
    return PROGRAM.check(parsed)


@SETTINGS
@given(typed_trees)
def test_printed_tree_parses_back_and_checks_to_its_type(tree: tuple[Any, Node]) -> None:
    ty, node = tree
    assert isinstance(parse(unparse(node)), ParsedExpr)
    assert _typed(node).type == ty


@settings(SETTINGS, max_examples=350 * SOAK_SCALE)
@given(typed_trees, envs())
def test_interpreter_compiler_and_symbolic_z3_agree(
    tree: tuple[Any, Node], env: dict[str, Any]
) -> None:
    typed = _typed(tree[1])
    expected = interpreted(typed, env)
    assert compiled(typed, env) == expected, typed.text
    assert encoded(typed, env) == expected, typed.text


@settings(SETTINGS, max_examples=200)
@given(typed_trees, envs())
def test_interpreter_and_concrete_z3_encoding_agree(
    tree: tuple[Any, Node], env: dict[str, Any]
) -> None:
    typed = _typed(tree[1])
    assert encoded_concrete(typed, env) == interpreted(typed, env), typed.text


@settings(SETTINGS, max_examples=200 * SOAK_SCALE)
@given(st.one_of(arithmetic(4), guarded()), envs())
def test_the_three_forms_agree_on_arithmetic_and_guards(node: Node, env: dict[str, Any]) -> None:
    typed = _typed(node)
    expected = interpreted(typed, env)
    assert compiled(typed, env) == expected, typed.text
    assert encoded(typed, env) == expected, typed.text
