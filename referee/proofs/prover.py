"""Proving a spec's `properties` with z3, from the same rules and expressions the engine runs.

A property says: for every input in a context (a checkpoint, or the context of a spec
expression), every list it ranges over up to a bound, and each option combination, a claim
holds. The premise is either what the checkpoint accepts (its rules all hold, and whatever the
mechanic adds, such as a meld kind's shape) or nothing (every input). The claim may name results
of the spec's own expressions (`scoring.hand_points`), each evaluated under its option values,
so two evaluations can be compared. For each option combination and list size, z3 looks for an
input where the claim fails (or an evaluation would raise):
- unsat: proved for that size;
- sat: a counterexample, decoded into cards and ints and replayed through the engine: its meld
  checker accepts the meld, and its compiled expressions give the same failing results;
- unknown (budget exhausted): never counted as proved.
The solver budget is z3's deterministic `rlimit`, so results do not depend on machine speed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

import z3

from referee.cards import Card, codes
from referee.errors import SpecError
from referee.proofs.encode import Encoding, decode
from referee.proofs.properties import DEFAULT_LIST, Evaluation, Property, read_properties
from referee.spec.expr import (BOOL, BUILTINS, CARD, INT, STR, Definition, EvalError, ListType,
                               Program, Scope, TypedExpr, parse)
from referee.spec.expr.symbolic import SymCard, s_and, s_eq, s_implies, s_not, s_or
from referee.spec.registry import Game

DEFAULT_RLIMIT = 50_000_000
LIST_NAME = DEFAULT_LIST  # the symbolic list a property ranges over unless it says otherwise
Condition = tuple[Any, Any]  # (when, require), typed: the checkpoint accepts when all hold


@dataclass
class Outcome:
    """The result for one option combination, over every size up to the bound."""

    property: Property
    options: dict[str, Any]
    status: str = "proved"          # proved | counterexample | unknown
    sizes: int = 0                  # how many sizes were settled
    counterexample: dict[str, Any] = field(default_factory=dict)
    replayed: bool | None = None    # the engine agrees with the counterexample
    replay: str = ""                # what the engine was asked, and what it said
    unit: str = "cards"             # what the list holds, for the report

    def line(self) -> str:
        opts = ", ".join(f"{k}={_option_text(v)}" for k, v in self.options.items()) or "defaults"
        head = f"{self.status:>14}  {self.property.id} [{opts}]"
        prop = self.property
        if self.status == "proved":
            return f"{head}: for every {self._domain()}"
        if self.status == "counterexample":
            return f"{head}: {_shown(prop, self.counterexample)} ({self.replay})"
        size = prop.min_size + self.sizes
        unit = self.unit.removesuffix("s") if size == 1 else self.unit
        return f"{head}: the solver gave up at {size} {unit} (not proved)"

    def _domain(self) -> str:
        prop = self.property
        text = f"`{prop.over}` of {prop.min_size}..{prop.max_size} {self.unit}"
        for name, (low, high) in prop.ranges.items():
            within = "each" if name == prop.over else f"`{name}`"
            text += f", {within} in {low}..{high}"
        return text


def _option_text(value: Any) -> str:
    """An option value as the spec writes it (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _shown(prop: Property, cx: Mapping[str, Any]) -> str:
    """A counterexample as a reader wants it: the list, the turned card, the bounded ints (or,
    with no premise, every free one), then the results."""
    text = f"`{prop.over}` [{', '.join(map(str, cx[prop.over]))}]"
    if "turned" in cx:
        text += f" with turned {cx['turned']}"
    for name, value in cx.get("context", {}).items():
        if name in prop.ranges or prop.premise == "none":
            text += f", `{name}` {value}"
    results = _results_text(cx.get("results", {}), cx.get("raises", []))
    return f"{text}: {results}" if results else text


@dataclass(frozen=True)
class Setting:
    """What proving one property needs, resolved once for all its option sets."""

    program: Program                 # the context's: its names and definitions
    claim: TypedExpr                 # checked in that context, plus constants and results
    premise: list[Condition]         # empty: every input
    evaluations: list[tuple[Evaluation, Any]]  # each with its `SpecExpression`
    element: Any                     # the type of the items of the list ranged over


@dataclass
class Query:
    """One size of one option set: the symbolic context and the formulas z3 is given."""

    env: dict[str, Any]
    items: list[Any]                 # the list ranged over, item by item
    results: dict[str, Encoding]     # each evaluation: its value and when it would raise
    formulas: list[Any]              # domain, premise, and: an evaluation raises or the claim fails


def option_sets(game: Game, prop: Property) -> Iterator[dict[str, Any]]:
    names = list(prop.options)
    for values in itertools.product(*(prop.options[n] for n in names)):
        yield game.resolve_options(dict(zip(names, values)))


def prove(game: Game, prop: Property, rlimit: int = DEFAULT_RLIMIT) -> list[Outcome]:
    setting = _setting(game, prop)
    return [_prove_options(game, prop, setting, options, rlimit)
            for options in option_sets(game, prop)]


def _prove_options(game: Game, prop: Property, setting: Setting, options: dict[str, Any],
                   rlimit: int) -> Outcome:
    outcome = Outcome(prop, {k: options[k] for k in prop.options},
                      unit="cards" if setting.element == CARD else "ints")
    for size in prop.sizes:
        query = _query(game, prop, setting, options, size)
        solver = z3.Solver()
        solver.set("rlimit", rlimit)
        solver.add(*query.formulas)
        answer = solver.check()
        if answer == z3.unsat:
            outcome.sizes += 1
            continue
        if answer == z3.sat:
            _counterexample(outcome, game, setting, query, solver.model(), options)
        else:
            outcome.status = "unknown"
        return outcome
    return outcome


# ---- what a property is about ---------------------------------------------------------------

def _setting(game: Game, prop: Property) -> Setting:
    expressions = _spec_expressions(game)
    program = _context(game, prop, expressions)
    element = _list_element(game, prop, program)
    _check_ranges(game, prop, program)
    evaluations = [(ev, _evaluated(game, prop, ev, expressions)) for ev in prop.evaluations]
    claim_program = _claim_program(game, prop, program, evaluations)
    claim = claim_program.check(parse(prop.claim, origin=prop.origin), expected=BOOL)
    premise = _premise(game, prop)
    return Setting(program, claim, premise, evaluations, element)


def _premise(game: Game, prop: Property) -> list[Condition]:
    """What the checkpoint accepts (the mechanic says), or nothing: every input counts."""
    if prop.premise != "acceptance":
        return []
    return list(game.mechanic.acceptance(prop.on))  # type: ignore[attr-defined]


def _error(game: Game, prop: Property, key: tuple[Any, ...], message: str) -> SpecError:
    return game.spec.located.error(prop.path + key, f"property `{prop.id}`: {message}")


def _spec_expressions(game: Game) -> Mapping[str, Any]:
    """The spec expressions the mechanic computes with, by dotted path (none if it names none)."""
    config = getattr(game.mechanic, "config", None)
    return dict(getattr(config, "expressions", {}) or {})


def _context(game: Game, prop: Property, expressions: Mapping[str, Any]) -> Program:
    """A checkpoint's program, or the program of the spec expressions reading context `on`."""
    programs: dict[str, Program] = dict(game.mechanic.rules.programs)  # type: ignore[attr-defined]
    for expression in expressions.values():
        programs.setdefault(expression.context, expression.typed.program)
    if prop.on not in programs:
        known = ", ".join(f"`{c}`" for c in sorted(programs))
        raise _error(game, prop, ("on",),
                     f"unknown checkpoint `{prop.on}`: expected one of {known}")
    return programs[prop.on]


def _list_element(game: Game, prop: Property, program: Program) -> Any:
    typ = program.scope.get(prop.over)
    if not isinstance(typ, ListType) or typ.elem not in (CARD, INT):
        raise _error(game, prop, ("over",), f"`{prop.over}` is no list of cards or ints "
                     f"at `{prop.on}`")
    return typ.elem


def _check_ranges(game: Game, prop: Property, program: Program) -> None:
    for name in prop.ranges:
        if program.scope.get(name) not in (INT, ListType(INT)) or name in prop.given:
            raise _error(game, prop, ("ranges", name), f"`{name}` is no free int, nor list of "
                         f"ints, at `{prop.on}`")


def _evaluated(game: Game, prop: Property, ev: Evaluation, expressions: Mapping[str, Any]) -> Any:
    expression = expressions.get(ev.expression)
    if expression is None:
        known = ", ".join(f"`{p}`" for p in sorted(expressions)) or "none"
        raise _error(game, prop, ("evaluate", ev.name), f"unknown expression `{ev.expression}`: "
                     f"the engine computes with {known}")
    if expression.context != prop.on:
        raise _error(game, prop, ("evaluate", ev.name), f"`{ev.expression}` reads the "
                     f"`{expression.context}` context, not `{prop.on}`")
    return expression


def _claim_program(game: Game, prop: Property, program: Program,
                   evaluations: list[tuple[Evaluation, Any]]) -> Program:
    """The context's program, with names for the constants and the evaluations' results."""
    extra = {**{name: INT for name in prop.constants},
             **{ev.name: expression.typed.type for ev, expression in evaluations}}
    if not extra:
        return program
    for name in extra:
        if name in program.scope or name in program.definitions or name in program.functions:
            raise _error(game, prop, (), f"`{name}` already names something at `{prop.on}`")
    definitions = [Definition(d.name, d.params, d.text, origin=d.origin)
                   for d in program.definitions.values()]
    functions = {n: f for n, f in program.functions.items() if n not in BUILTINS}
    return Program(Scope({**dict(program.scope.items()), **extra}), definitions, functions)


# ---- the formulas -----------------------------------------------------------------------------

def _query(game: Game, prop: Property, setting: Setting, options: dict[str, Any],
           size: int) -> Query:
    env, domain, items = _symbolic_env(game, prop, setting, options, size)
    # accepted: every condition holds, and none would raise (the engine would stop on it)
    premise = [_accepted(setting.program, when, require, env) for when, require in setting.premise]
    results = {ev.name: expression.typed.program.encode_full(
                   expression.typed, {**env, "options": _changed(game, options, ev)})
               for ev, expression in setting.evaluations}
    claim_env = {**env, **prop.constants, **{n: r.value for n, r in results.items()}}
    claim = setting.claim.program.encode_full(setting.claim, claim_env)
    failing = s_or(*(r.error for r in results.values()), s_not(claim.holds))
    return Query(env, items, results, [*domain, *premise, _as_bool(failing)])


def _accepted(program: Program, when: Any, require: Any, env: Mapping[str, Any]) -> Any:
    held = _as_bool(program.encode_full(require, env).holds)
    if when is not None:
        guard = program.encode_full(when, env)
        held = s_and(s_not(guard.error), s_implies(guard.value, held))
    return _as_bool(held)


def _changed(game: Game, options: Mapping[str, Any], ev: Evaluation) -> dict[str, Any]:
    """The property's option set, with the values this evaluation sets."""
    return game.resolve_options({**options, **ev.options}) if ev.options else dict(options)


def _symbolic_env(game: Game, prop: Property, setting: Setting, options: dict[str, Any],
                  size: int) -> tuple[dict[str, Any], list[Any], list[Any]]:
    env: dict[str, Any] = {"options": options}
    items, domain = _symbolic_list(game, prop, setting.element, size)
    env[prop.over] = items
    # `turned` right after the list: the order the meld proofs always gave z3
    names = sorted((n for n in setting.program.scope.names() if n not in env),
                   key=lambda n: n != "turned")
    for name in names:
        if name in prop.given:
            env[name] = prop.given[name]
            continue
        env[name], extra = _fresh(name, setting.program.scope.get(name), prop.on)
        domain += extra + _within(env[name], prop.ranges.get(name))
    return env, domain, items


def _symbolic_list(game: Game, prop: Property, element: Any,
                   size: int) -> tuple[list[Any], list[Any]]:
    """`size` free items; cards no more often than the pack holds them, ints in their range."""
    if element == CARD:
        pairs = [SymCard.fresh(f"card{i}") for i in range(size)]
        cards = [card for card, _ in pairs]
        domain = [c for _, constraints in pairs for c in constraints]
        return cards, domain + _copies_limit(cards, game.spec.pack_copies)
    ints = [z3.Int(f"{prop.over}{i}") for i in range(size)]
    return list(ints), [c for n in ints for c in _within(n, prop.ranges.get(prop.over))]


def _within(value: Any, bounds: tuple[int, int] | None) -> list[Any]:
    if bounds is None or not isinstance(value, z3.ArithRef):
        return []
    return [value >= bounds[0], value <= bounds[1]]


def _fresh(name: str, typ: Any, checkpoint: str) -> tuple[Any, list[Any]]:
    """A value for a context name the property leaves free."""
    if typ == INT:
        return z3.Int(name), []
    if typ == BOOL:
        return z3.Bool(name), []
    if typ == CARD:
        return SymCard.fresh(name)
    if typ == STR:
        return (checkpoint if name == "kind" else ""), []
    if isinstance(typ, ListType):
        return [], []
    return {}, []


def _copies_limit(cards: list[SymCard], copies: int) -> list[Any]:
    """No card appears more often than the pack holds it."""
    limits = []
    for group in itertools.combinations(range(len(cards)), copies + 1):
        same = [s_eq(cards[group[0]], cards[j]) for j in group[1:]]
        limits.append(s_not(s_and(*same)))
    return limits


# ---- a counterexample, decoded and replayed ----------------------------------------------------

def _counterexample(outcome: Outcome, game: Game, setting: Setting, query: Query,
                    model: z3.ModelRef, options: dict[str, Any]) -> None:
    prop = outcome.property
    items = [decode(item, model) for item in query.items]
    concrete = {name: decode(value, model) for name, value in query.env.items()}
    concrete[prop.over] = items
    cx: dict[str, Any] = {prop.over: codes(items) if setting.element == CARD else items}
    if isinstance(query.env.get("turned"), SymCard):
        cx["turned"] = str(concrete["turned"])
    cx["context"] = {name: _decode(value, model) for name, value in query.env.items()
                     if isinstance(value, (z3.BoolRef, z3.ArithRef))}
    if query.results:
        cx["results"] = {n: decode(r.value, model) for n, r in query.results.items()
                         if not _decode(_as_bool(r.error), model)}
        cx["raises"] = [n for n, r in query.results.items() if _decode(_as_bool(r.error), model)]
    outcome.status, outcome.counterexample = "counterexample", cx
    outcome.replayed, outcome.replay = _replay(game, prop, setting, cx, concrete, options)


def _replay(game: Game, prop: Property, setting: Setting, cx: dict[str, Any],
            concrete: dict[str, Any], options: dict[str, Any]) -> tuple[bool | None, str]:
    """Ask the engine: its meld checker (premise `acceptance`), its compiled expressions."""
    verdicts: list[tuple[bool, str]] = []
    if prop.premise == "acceptance" and setting.premise:
        accepted = game.mechanic.replay_accepts(  # type: ignore[attr-defined]
            prop.on, {**prop.given, **cx["context"], "options": options},
            concrete[prop.over], concrete.get("turned"))
        verdicts.append((accepted, "accepted by the engine" if accepted
                         else "NOT accepted by the engine (encoder bug)"))
    if setting.evaluations:
        verdicts.append(_replay_results(game, prop, setting, cx, concrete, options))
    if not verdicts:
        return None, "not replayed: no engine computation to ask"
    return all(ok for ok, _ in verdicts), "; ".join(text for _, text in verdicts)


def _replay_results(game: Game, prop: Property, setting: Setting, cx: dict[str, Any],
                    concrete: dict[str, Any], options: dict[str, Any]) -> tuple[bool, str]:
    """The engine's compiled expressions on the decoded inputs: the same results (or the same
    failure), and the claim, evaluated by the reference interpreter on them, false."""
    got: dict[str, Any] = {}
    raised: list[str] = []
    for ev, expression in setting.evaluations:
        try:
            got[ev.name] = expression({**concrete, "options": _changed(game, options, ev)})
        except EvalError:
            raised.append(ev.name)
    paths = ", ".join(sorted({f"`{ev.expression}`" for ev, _ in setting.evaluations}))
    if got != cx["results"] or raised != cx["raises"]:
        return False, (f"NOT replayed: the engine's compiled {paths} gives "
                       f"{_results_text(got, raised)} (encoder bug)")
    if not raised and _claim_holds(prop, setting, concrete, got):
        return False, (f"NOT replayed: with the engine's {_results_text(got, raised)} the claim "
                       f"holds (encoder bug)")
    return True, f"replayed: the engine's compiled {paths} gives the same"


def _results_text(results: Mapping[str, Any], raised: list[str]) -> str:
    parts = [f"`{name}` {value}" for name, value in results.items()]
    return ", ".join(parts + [f"`{name}` raises" for name in raised])


def _claim_holds(prop: Property, setting: Setting, concrete: Mapping[str, Any],
                 results: Mapping[str, Any]) -> bool:
    env = {**concrete, **prop.constants, **results}
    try:
        return bool(setting.claim.program.evaluate(setting.claim, env))
    except EvalError:
        return False


def _decode(term: Any, model: z3.ModelRef) -> Any:
    value = model.eval(term, model_completion=True)
    return z3.is_true(value) if isinstance(term, z3.BoolRef) else value.as_long()


def _as_bool(term: Any) -> Any:
    return z3.BoolVal(term) if isinstance(term, bool) else term


__all__ = ["Evaluation", "Property", "Outcome", "read_properties", "prove", "option_sets",
           "s_implies", "Card"]
