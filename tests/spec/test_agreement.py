"""One semantics, several implementations (STYLE.md 8): every meld rule and kind expression of
the Pontinho spec gives the same answer in the reference interpreter, the compiled closures the
engine runs, and the z3 encoding the prover uses; and the engine's meld reader accepts exactly
what the acceptance conditions (a kind's shape and rules) accept."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import z3
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from referee.cards import FRENCH_RANKS, FRENCH_SUITS, Card, codes, french_pack
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.mechanics.rummy.melds import Reading
from referee.mechanics.rummy.state import TURNED
from referee.proofs.encode import decode, encode_full, lift
from referee.spec.expr import BOOL, EvalError, TypedExpr
from referee.spec.expr.symbolic import STRINGS, SymCard, SymList
from tests.support.games import shipped_games
from tests.support.mechanic_of import mechanic_of
from tests.support.soak import SOAK_SCALE

GAME = shipped_games()["pontinho"]
MECHANIC = mechanic_of(GAME, RummyMechanic)
RULES = MECHANIC.rules
KINDS = ("trio", "sequence")
JOKER_RULES = ("same_rank_other_colour", "next_rank_same_suit")
PACK = french_pack(2)
Outcome = tuple[str, Any]

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Expression:
    label: str
    typed: TypedExpr
    engine: Callable[[Any], Any]  # the closure the engine itself runs for it


def _expressions(kind: str) -> list[Expression]:
    """The kind's shape and wild expressions and every `when` / `require` judged at the kind."""
    meld_kind = MECHANIC.reader.kinds[kind]
    (shape_when, shape), *rule_pairs = MECHANIC.acceptance(kind)
    assert shape_when is None
    wild_text = str(GAME.spec.sections["meld_kinds"][kind]["wild"])
    wild_where = MECHANIC.config.shapes[kind][1]
    wild = RULES.check_expression(kind, wild_text, wild_where, BOOL)
    found = [
        Expression(f"{kind}.shape", shape, meld_kind.shape),
        Expression(f"{kind}.wild", wild, meld_kind.wild),
    ]
    for rule in RULES.rules_at(kind):
        if rule.typed_when is not None:
            found.append(Expression(f"{rule.spec.id}.when", rule.typed_when, rule.when))
        found.append(Expression(f"{rule.spec.id}.require", rule.typed_require, rule.require))
    assert len(rule_pairs) == len(RULES.rules_at(kind))
    return found


EXPRESSIONS = {kind: _expressions(kind) for kind in KINDS}


def test_every_meld_rule_is_covered() -> None:
    ids = {e.label.split(".")[0] for exprs in EXPRESSIONS.values() for e in exprs}
    # (PN-11 is judged where a move took the discard, `take`, not at a meld)
    assert {"PN-7", "PN-8", "PN-12", "PN-13", "PN-13-size"} <= ids


# --- inputs -------------------------------------------------------------------------------

cards = st.sampled_from(PACK)
random_lists = st.lists(st.integers(0, len(PACK) - 1), min_size=1, max_size=8, unique=True).map(
    lambda picks: [PACK[i] for i in picks]
)


def _joker_candidates(turned: Card) -> list[Card]:
    """The cards either joker rule makes jokers for `turned` (and a few that look like them)."""
    next_rank = FRENCH_RANKS[FRENCH_RANKS.index(turned.rank) + 1 - 13]
    return [Card(turned.rank, s) for s in FRENCH_SUITS] + [Card(next_rank, turned.suit)]


@st.composite
def meld_like_lists(draw: st.DrawFn, turned: Card) -> list[Card]:
    """Runs of one suit or cards of one rank, some places taken by jokers, sometimes shuffled:
    inputs near the boundary of what the rules accept."""
    size = draw(st.integers(1, 8))
    if draw(st.booleans()):
        suit, low = draw(st.sampled_from(FRENCH_SUITS)), draw(st.integers(0, 13 - min(size, 13)))
        made = [Card((FRENCH_RANKS + "A")[low + k], suit) for k in range(size)]
    else:
        rank, suits = draw(st.sampled_from(FRENCH_RANKS)), draw(st.permutations(FRENCH_SUITS))
        made = [Card(rank, suits[k % 4]) for k in range(size)]  # a 4th suit, then repeats
    for place in draw(st.lists(st.integers(0, size - 1), max_size=3)):
        made[place] = draw(st.sampled_from(_joker_candidates(turned)))
    if draw(st.integers(0, 4)) == 0:
        made = draw(st.permutations(made))
    assume(max(Counter(made).values()) <= 2)  # drawn from two packs
    return list(made)


@st.composite
def meld_inputs(draw: st.DrawFn) -> dict[str, Any]:
    turned = draw(cards)
    listed = draw(st.one_of(random_lists, meld_like_lists(turned)))
    return {
        "cards": listed,
        "turned": turned,
        "taken_card": draw(cards),
        "going_out": draw(st.booleans()),
        "has_taken": draw(st.booleans()),
        "new": draw(st.booleans()),
        "place": draw(st.integers(0, len(listed) - 1)),
    }


def base_env(joker_rule: str, given: dict[str, Any]) -> dict[str, Any]:
    """The context of a meld checkpoint, built the way `RummyMechanic.replay_accepts` builds it."""
    env: dict[str, Any] = {
        name: False
        for name in ("in_turn", "has_discard", "top_is_turned", "going_out", "has_taken")
    }
    env.update(
        seat=0,
        to_act=0,
        mao=0,
        seats=1,
        phase="play",
        hand=[],
        discard_top=given["turned"],
        discarder=TURNED,
        move_type="meld",
        taken_card=given["taken_card"],
        turned=given["turned"],
        options=GAME.resolve_options({"joker_rule": joker_rule}),
        going_out=given["going_out"],
        has_taken=given["has_taken"],
    )
    return env


def meld_env(joker_rule: str, kind: str, given: dict[str, Any]) -> dict[str, Any]:
    env = MECHANIC.reader.meld_env(
        base_env(joker_rule, given), kind, list(given["cards"]), new=given["new"]
    )
    env["place"] = given["place"]
    return env


# --- the implementations ------------------------------------------------------------------


def _outcome(run: Callable[[], Any]) -> Outcome:
    try:
        return "ok", bool(run())
    except EvalError:
        return "error", None


def interpreted(expr: Expression, env: dict[str, Any]) -> Outcome:
    return _outcome(lambda: expr.typed.program.evaluate(expr.typed, env))


def compiled(expr: Expression, env: dict[str, Any]) -> Outcome:
    return _outcome(lambda: expr.typed.program.compile(expr.typed)(env))


def engine_closure(expr: Expression, env: dict[str, Any]) -> Outcome:
    return _outcome(lambda: expr.engine(env))


def _encoded(
    expr: Expression, symenv: dict[str, Any], evaluate: Callable[[z3.ExprRef], z3.ExprRef]
) -> Outcome:
    encoding = encode_full(expr.typed, symenv)
    if decode(encoding.error, evaluate):
        return "error", None
    return "ok", bool(decode(encoding.value, evaluate))


def lifted_z3(expr: Expression, env: dict[str, Any]) -> Outcome:
    """The encoding over the concrete context, lifted into symbolic values."""
    symenv = {name: lift(value) for name, value in env.items()}
    assert all(isinstance(c, SymCard) for c in symenv["cards"].items)
    return _encoded(expr, symenv, z3.simplify)


def symbolic_z3(expr: Expression, env: dict[str, Any]) -> Outcome:
    """The encoding over z3 variables (as the prover builds it), then the concrete values
    substituted in."""
    pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []

    def card(name: str, value: Card) -> SymCard:
        sym = SymCard(z3.Int(f"{name}.rank"), z3.Int(f"{name}.suit"))
        pairs.extend(
            [(sym.rank, z3.IntVal(value.value)), (sym.suit, z3.IntVal(STRINGS.code(value.suit)))]
        )
        return sym

    symenv = dict(env)
    symenv["cards"] = SymList.of(card(f"cards[{i}]", c) for i, c in enumerate(env["cards"]))
    symenv["turned"] = card("turned", env["turned"])
    symenv["taken_card"] = card("taken_card", env["taken_card"])
    for name in ("going_out", "has_taken", "new"):
        symenv[name] = z3.Bool(name)
        pairs.append((symenv[name], z3.BoolVal(env[name])))
    symenv["place"] = z3.Int("place")
    pairs.append((symenv["place"], z3.IntVal(env["place"])))
    return _encoded(expr, symenv, lambda term: z3.simplify(z3.substitute(term, *pairs)))


def _show(given: dict[str, Any]) -> str:
    return (
        f"cards {codes(given['cards'])} turned {given['turned']} taken {given['taken_card']} "
        f"going_out={given['going_out']} has_taken={given['has_taken']} new={given['new']} "
        f"place={given['place']}"
    )


# --- agreement ----------------------------------------------------------------------------


@pytest.mark.slow
@settings(SETTINGS, max_examples=250)
@given(meld_inputs())
def test_interpreter_compiler_engine_and_lifted_z3_agree(given_: dict[str, Any]) -> None:
    for joker_rule in JOKER_RULES:
        for kind in KINDS:
            env = meld_env(joker_rule, kind, given_)
            for expr in EXPRESSIONS[kind]:
                expected = interpreted(expr, env)
                where = f"{expr.label} [{joker_rule}] on {_show(given_)}"
                assert compiled(expr, env) == expected, where
                assert engine_closure(expr, env) == expected, where
                assert lifted_z3(expr, env) == expected, where


@pytest.mark.slow
@settings(SETTINGS, max_examples=15 * SOAK_SCALE)  # z3 on each: `make soak` runs 45
@given(meld_inputs())
def test_interpreter_and_symbolic_z3_agree(given_: dict[str, Any]) -> None:
    for joker_rule in JOKER_RULES:
        for kind in KINDS:
            env = meld_env(joker_rule, kind, given_)
            for expr in EXPRESSIONS[kind]:
                where = f"{expr.label} [{joker_rule}] on {_show(given_)}"
                assert symbolic_z3(expr, env) == interpreted(expr, env), where


# --- the meld reader against the acceptance conditions ------------------------------------


def accepts(joker_rule: str, kind: str, given: dict[str, Any]) -> bool:
    """Every acceptance condition of `kind` holds (the shape first), by the interpreter."""
    env = meld_env(joker_rule, kind, given)
    for when, require in MECHANIC.acceptance(kind):
        program = require.program
        if when is not None and not program.evaluate(when, env):
            continue
        if not program.evaluate(require, env):
            return False
    return True


@settings(SETTINGS, max_examples=300)
@given(meld_inputs())
def test_meld_reader_accepts_exactly_what_some_kind_accepts(given_: dict[str, Any]) -> None:
    new = {**given_, "new": True}  # a new meld
    for joker_rule in JOKER_RULES:
        reading = MECHANIC.reader.read_new(base_env(joker_rule, new), list(new["cards"]))
        fitting = [kind for kind in KINDS if accepts(joker_rule, kind, new)]
        where = f"[{joker_rule}] {_show(new)}: read {reading}"
        event(f"accepted as {fitting[0]}" if fitting else "rejected")
        assert isinstance(reading, Reading) == bool(fitting), where
        if isinstance(reading, Reading):
            assert reading.kind == fitting[0], where
            assert reading.cards == new["cards"], where
            wild = EXPRESSIONS[reading.kind][1]
            env = meld_env(joker_rule, reading.kind, new)
            flags = [interpreted(wild, {**env, "place": p}) for p in range(len(new["cards"]))]
            assert reading.wild == [flag for _, flag in flags], where
        else:
            assert reading and all(v.rule and v.message for v in reading), where


@settings(SETTINGS, max_examples=150)
@given(meld_inputs())
def test_replay_accepts_is_the_acceptance_conditions(given_: dict[str, Any]) -> None:
    for joker_rule in JOKER_RULES:
        options = GAME.resolve_options({"joker_rule": joker_rule})
        context = {
            "options": options,
            "going_out": given_["going_out"],
            "new": given_["new"],
            "has_taken": given_["has_taken"],
            "taken_card": given_["taken_card"],
        }
        for kind in KINDS:
            replayed = MECHANIC.replay_accepts(
                kind, context, list(given_["cards"]), given_["turned"]
            )
            where = f"{kind} [{joker_rule}] {_show(given_)}"
            assert replayed == accepts(joker_rule, kind, given_), where


def test_hand_picked_melds_are_judged_as_the_rules_say() -> None:
    # a sanity check of `accepts` itself: a run, a trio, two suits, a joker inside a run
    seen = {True: 0, False: 0}
    for turned, listed in [
        ("9D", ["4C", "5C", "6C"]),
        ("9D", ["4C", "4H", "4S"]),
        ("9D", ["4C", "5H", "6C"]),
        ("9D", ["4C", "9S", "6C"]),
    ]:
        given_ = {
            "cards": [Card.parse(c) for c in listed],
            "turned": Card.parse(turned),
            "taken_card": Card.parse("2S"),
            "going_out": False,
            "has_taken": False,
            "new": True,
            "place": 0,
        }
        seen[any(accepts(JOKER_RULES[0], k, given_) for k in KINDS)] += 1
    assert seen == {True: 3, False: 1}
