"""Proving a spec's `properties` with z3, from the same rules and expressions the engine runs.

A property says: for every input in a context (a checkpoint, or the context of a spec
expression), every list it ranges over up to a bound (several lists of cards come from one pack
together; every free card is one of the game's pack), and each option combination, a claim
holds. The premise is either what the checkpoint accepts (its rules all hold, and whatever the
mechanic adds, such as a meld kind's shape) or nothing (every input); `assume:` adds facts that
hold in every state the mechanic builds. The claim may name results of the spec's own
expressions (`scoring.hand_points`), definitions (`best_total`) or of a checkpoint's acceptance,
each evaluated under its option values and, `with:`, on other inputs (the banker's cards), or
`for:` each item of a list, so evaluations can be compared. For each option combination and each
combination of list sizes, z3 looks for an input where the claim fails (or an evaluation would
raise):
- unsat: proved for those sizes;
- sat: a counterexample, decoded into cards and ints and replayed through the engine: its
  checker accepts the input, and its compiled expressions give the same failing results;
- unknown (budget exhausted): never counted as proved.
A premise that no input satisfies proves nothing: such a property is `vacuous`, not proved.
The solver budget is z3's deterministic `rlimit`, so results do not depend on machine speed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3

from referee.cards import Card, codes
from referee.engine.game import Game
from referee.proofs.encode import Encoding, decode, encode_full
from referee.proofs.properties import DEFAULT_LIST, Evaluation, Property, read_properties
from referee.proofs.setting import Condition, Evaluated, Setting, resolve
from referee.spec.expr import BOOL, CARD, INT, STR, EvalError, ListType, Program, RecordType
from referee.spec.expr.symbolic import (
    CardDomain,
    SymCard,
    SymList,
    s_and,
    s_eq,
    s_implies,
    s_not,
    s_or,
)

DEFAULT_RLIMIT = 50_000_000
LIST_NAME = DEFAULT_LIST  # the symbolic list a property ranges over unless it says otherwise
STATUSES = ("proved", "counterexample", "unknown", "vacuous")
Lists = dict[str, list[Any]]  # each list ranged over, item by item


@dataclass
class Outcome:
    """The result for one option combination, over every size up to the bound."""

    property: Property
    options: dict[str, Any]
    status: str = "proved"  # proved | counterexample | unknown | vacuous
    sizes: int = 0  # how many size combinations were settled
    counterexample: dict[str, Any] = field(default_factory=dict)
    replayed: bool | None = None  # the engine agrees with the counterexample
    replay: str = ""  # what the engine was asked, and what it said
    unit: str = "cards"  # what the (first) list holds, for the report
    units: dict[str, str] = field(default_factory=dict)  # each list: what it holds
    at: dict[str, int] = field(default_factory=dict)  # the sizes the solver gave up at
    shown: frozenset[str] = frozenset()  # free names a counterexample shows: those read

    def line(self) -> str:
        opts = ", ".join(f"{k}={_option_text(v)}" for k, v in self.options.items()) or "defaults"
        head = f"{self.status:>14}  {self.property.id} [{opts}]"
        prop = self.property
        if self.status == "proved":
            domain = self._domain()
            return (
                f"{head}: for every {domain}" if domain else f"{head}: it holds (no input ranges)"
            )
        if self.status == "counterexample":
            return f"{head}: {self._shown()} ({self.replay})"
        if self.status == "vacuous":
            return f"{head}: no input satisfies the premise: nothing is proved (not proved)"
        if self.sizes == len(prop.size_sets):
            return (
                f"{head}: the solver could not tell whether any input satisfies the "
                f"premise (not proved)"
            )
        at = self._sizes_text()
        return f"{head}: the solver gave up{f' at {at}' if at else ''} (not proved)"

    def _units(self) -> dict[str, str]:
        if self.units or not self.property.over:
            return dict(self.units)
        return {self.property.over: self.unit}

    def _sizes_text(self) -> str:
        prop, units = self.property, self._units()
        if len(units) == 1:
            size = self.at.get(prop.over, prop.min_size + self.sizes)
            return f"{size} {self.unit.removesuffix('s') if size == 1 else self.unit}"
        return ", ".join(f"`{name}` of {self.at.get(name)}" for name in units)

    def _domain(self) -> str:
        prop, units = self.property, self._units()
        if not units:  # a fact of the spec, or over free ints alone
            text = ", ".join(f"`{n}` in {low}..{high}" for n, (low, high) in prop.ranges.items())
        elif len(units) == 1:
            text = f"`{prop.over}` of {prop.min_size}..{prop.max_size} {self.unit}"
            for name, (low, high) in prop.ranges.items():
                within = "each" if name == prop.over else f"`{name}`"
                text += f", {within} in {low}..{high}"
        else:
            parts = []
            for name, unit in units.items():
                low, high = prop.lists[name]
                each = prop.ranges.get(name)
                parts.append(
                    f"`{name}` of {low}..{high} {unit}"
                    + (f" each in {each[0]}..{each[1]}" if each else "")
                )
            card_lists = [k for k, name in enumerate(units) if units[name] == "cards"]
            if len(card_lists) > 1:
                parts[card_lists[-1]] += " (from one pack)"
            parts += [
                f"`{n}` in {low}..{high}"
                for n, (low, high) in prop.ranges.items()
                if n not in units
            ]
            text = ", ".join(parts)
        for assumed, _ in prop.assume:
            text += f", assuming `{' '.join(assumed.split())}`"
        return text.removeprefix(", ")

    def _shown(self) -> str:
        """A counterexample as a reader wants it: the lists, the turned card, the ints and bools
        the property reads (or bounds), then the results."""
        prop, cx = self.property, self.counterexample
        text = ", ".join(f"`{name}` [{', '.join(map(str, cx[name]))}]" for name in self._units())
        if "turned" in cx:
            text += f" with turned {cx['turned']}"
        values = {**cx.get("free_cards", {}), **cx.get("context", {})}
        shown = [
            f"`{name}` {_option_text(value)}"
            for name, value in values.items()
            if name in prop.ranges or name.split(".")[0] in self.shown
        ]
        text = ", ".join([text, *shown] if text else shown)
        results = _results_text(cx.get("results", {}), cx.get("raises", []))
        if results:
            return f"{text}: {results}" if text else results
        return text or "as the spec stands"


def _option_text(value: Any) -> str:
    """An option value as the spec writes it (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass
class Query:
    """One size combination of one option set: the symbolic context and the formulas."""

    env: dict[str, Any]
    lists: dict[str, list[Any]]  # each list ranged over, item by item
    results: dict[str, Encoding]  # each evaluation: its value and when it would raise
    domain: list[Any]  # the inputs' domain and the assumptions
    premise: list[Any]  # the checkpoint accepts
    failing: Any  # an evaluation raises or the claim fails

    @property
    def formulas(self) -> list[Any]:
        return [*self.domain, *self.premise, self.failing]


def option_sets(game: Game, prop: Property) -> Iterator[dict[str, Any]]:
    names = list(prop.options)
    for values in itertools.product(*(prop.options[n] for n in names)):
        yield game.resolve_options(dict(zip(names, values)))


def prove(game: Game, prop: Property, rlimit: int = DEFAULT_RLIMIT) -> list[Outcome]:
    setting = resolve(game, prop)
    return [
        _prove_options(game, prop, setting, options, rlimit) for options in option_sets(game, prop)
    ]


def _prove_options(
    game: Game, prop: Property, setting: Setting, options: dict[str, Any], rlimit: int
) -> Outcome:
    units = {name: "cards" if elem == CARD else "ints" for name, elem in setting.elements.items()}
    outcome = Outcome(
        prop,
        {k: options[k] for k in prop.options},
        unit=next(iter(units.values()), "cards"),
        units=units if prop.lists else {},
        shown=setting.read | set(prop.free),
    )
    witnessed = not (setting.premise or setting.assume)  # some input satisfies the premise
    unsure = False  # a premise check ran out of budget
    for sizes in prop.size_sets:
        query = _query(game, prop, setting, options, sizes)
        solver = _solver(rlimit, query.formulas)
        answer = solver.check()
        if answer == z3.sat:
            _counterexample(outcome, game, setting, query, solver.model(), options)
            return outcome
        if answer != z3.unsat:
            outcome.status, outcome.at = "unknown", sizes
            return outcome
        outcome.sizes += 1
        if not witnessed:
            found = _solver(rlimit, [*query.domain, *query.premise]).check()
            witnessed, unsure = found == z3.sat, unsure or found == z3.unknown
    if not witnessed:
        outcome.status = "unknown" if unsure else "vacuous"
    return outcome


def _solver(rlimit: int, formulas: list[Any]) -> z3.Solver:
    solver = z3.Solver()
    solver.set("rlimit", rlimit)
    solver.add(*formulas)
    return solver


# ---- the formulas -----------------------------------------------------------------------------


def _query(
    game: Game, prop: Property, setting: Setting, options: dict[str, Any], sizes: Mapping[str, int]
) -> Query:
    env, domain, lists = _symbolic_env(game, prop, setting, options, sizes)
    domain += [_as_bool(encode_full(a, env).holds) for a in setting.assume]
    # accepted: every condition holds, and none would raise (the engine would stop on it)
    premise = [_accepted(setting.program, when, require, env) for when, require in setting.premise]
    results = {e.name: _result(game, e, env, options) for e in setting.evaluations}
    claim_env = {**env, **{n: r.value for n, r in results.items()}}
    claim = encode_full(setting.claim, claim_env)
    failing = s_or(*(r.error for r in results.values()), s_not(claim.holds))
    return Query(env, lists, results, domain, premise, _as_bool(failing))


def _result(
    game: Game, evaluated: Evaluated, env: Mapping[str, Any], options: dict[str, Any]
) -> Encoding:
    """An evaluation's value (`for:` the list of its values, one per item), its inputs rebound
    `with:` (raising if a binding would)."""
    base = {**env, "options": _changed(game, options, evaluated.evaluation)}
    if evaluated.each is None:
        return _result_at(evaluated, base)
    name, typed = evaluated.each
    items = encode_full(typed, base)
    values = [_result_at(evaluated, {**base, name: item}) for item in items.value.items]
    errors = [s_and(flag, v.error) for flag, v in zip(items.value.flags, values)]
    return Encoding(
        SymList(tuple(v.value for v in values), items.value.flags), s_or(items.error, *errors)
    )


def _result_at(evaluated: Evaluated, base: Mapping[str, Any]) -> Encoding:
    bound = {name: encode_full(b, base) for name, b in evaluated.bindings.items()}
    inputs = {**base, **{n: b.value for n, b in bound.items()}}
    typed = evaluated.typed
    value = (
        _acceptance_value(evaluated.conditions, inputs)
        if typed is None
        else encode_full(typed, inputs)
    )
    return Encoding(value.value, s_or(*(b.error for b in bound.values()), value.error))


def _acceptance_value(conditions: tuple[Condition, ...], env: Mapping[str, Any]) -> Encoding:
    """Whether every condition holds, and when judging them would raise: the rule book judges
    every rule (its `when`, then, if that holds, its `require`), so any of them may."""
    values, errors = [], []
    for when, require in conditions:
        held = encode_full(require, env)
        if when is None:
            values.append(held.value)
            errors.append(held.error)
            continue
        guard = encode_full(when, env)
        values.append(s_implies(guard.value, held.value))
        errors += [guard.error, s_and(guard.value, held.error)]
    return Encoding(_as_bool(s_and(*values)), s_or(*errors))


def _accepted(program: Program, when: Any, require: Any, env: Mapping[str, Any]) -> Any:
    held = _as_bool(encode_full(require, env).holds)
    if when is not None:
        guard = encode_full(when, env)
        held = s_and(s_not(guard.error), s_implies(guard.value, held))
    return _as_bool(held)


def _changed(game: Game, options: Mapping[str, Any], ev: Evaluation) -> dict[str, Any]:
    """The property's option set, with the values this evaluation sets."""
    return game.resolve_options({**options, **ev.options}) if ev.options else dict(options)


def _symbolic_env(
    game: Game, prop: Property, setting: Setting, options: dict[str, Any], sizes: Mapping[str, int]
) -> tuple[dict[str, Any], list[Any], Lists]:
    env: dict[str, Any] = {"options": options, **prop.constants}
    domain: list[Any] = []
    lists: Lists = {}
    cards_of = CardDomain.of(game.spec.pack())  # a free card is one of the pack's
    for index, (name, elem) in enumerate(setting.elements.items()):
        lists[name], extra = _symbolic_list(
            name, elem, sizes[name], prop.ranges.get(name), "card" if index == 0 else name, cards_of
        )
        env[name], domain = lists[name], domain + extra
    cards = [c for name, items in lists.items() if setting.elements[name] == CARD for c in items]
    domain += _copies_limit(cards, game.spec.pack_copies)  # one pack for every list of cards
    # `turned` right after the lists: the order the meld proofs always gave z3
    names = sorted(
        (n for n in setting.program.scope.names() if n not in env), key=lambda n: n != "turned"
    )
    names += [n for n in prop.free if n not in env]
    scope = setting.scope.scope
    for name in names:
        if name in prop.given:
            env[name] = prop.given[name]
            continue
        env[name], extra = _fresh(name, scope.get(name), prop.on, cards_of)
        domain += extra + _within(env[name], prop.ranges.get(name))
    return env, domain, lists


def _symbolic_list(
    name: str,
    element: Any,
    size: int,
    bounds: tuple[int, int] | None,
    stem: str,
    cards_of: CardDomain,
) -> tuple[list[Any], list[Any]]:
    """`size` free items: cards of the pack (their count in it is limited apart), ints in range.
    The first list's cards are z3's `card0`, `card1`, ... (the names meld proofs always used)."""
    if element == CARD:
        pairs = [SymCard.fresh(f"{stem}{i}", cards_of) for i in range(size)]
        return [card for card, _ in pairs], [c for _, constraints in pairs for c in constraints]
    ints = [z3.Int(f"{name}{i}") for i in range(size)]
    return list(ints), [c for n in ints for c in _within(n, bounds)]


def _within(value: Any, bounds: tuple[int, int] | None) -> list[Any]:
    if bounds is None or not isinstance(value, z3.ArithRef):
        return []
    return [value >= bounds[0], value <= bounds[1]]


def _fresh(name: str, typ: Any, checkpoint: str, cards_of: CardDomain) -> tuple[Any, list[Any]]:
    """A value for a context name the property leaves free (a card: one of the pack's). A
    record (the move) gets free fields, but its lists (`present`) are empty: no property reads
    them yet."""
    if typ == INT:
        return z3.Int(name), []
    if typ == BOOL:
        return z3.Bool(name), []
    if typ == CARD:
        return SymCard.fresh(name, cards_of)
    if typ == STR:
        return (checkpoint if name == "kind" else ""), []
    if isinstance(typ, RecordType):
        fields = {f: _fresh(f"{name}.{f}", t, checkpoint, cards_of) for f, t in typ.fields}
        return {f: v for f, (v, _) in fields.items()}, [c for _, cs in fields.values() for c in cs]
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


def _counterexample(
    outcome: Outcome,
    game: Game,
    setting: Setting,
    query: Query,
    model: z3.ModelRef,
    options: dict[str, Any],
) -> None:
    prop = outcome.property
    concrete = {name: decode(value, model) for name, value in query.env.items()}
    cx: dict[str, Any] = {}
    for name, items in query.lists.items():
        concrete[name] = [decode(item, model) for item in items]
        cx[name] = codes(concrete[name]) if setting.elements[name] == CARD else concrete[name]
    if isinstance(query.env.get("turned"), SymCard):
        cx["turned"] = str(concrete["turned"])
    cx["context"] = _free_values(query.env, model)
    cards = _free_cards(query.env, model)
    if cards:
        cx["free_cards"] = cards
    if query.results:
        cx["results"] = {
            n: decode(r.value, model)
            for n, r in query.results.items()
            if not _decode(_as_bool(r.error), model)
        }
        cx["raises"] = [n for n, r in query.results.items() if _decode(_as_bool(r.error), model)]
    outcome.status, outcome.counterexample = "counterexample", cx
    outcome.replayed, outcome.replay = _replay(game, prop, setting, cx, concrete, options)


def _free_values(env: Mapping[str, Any], model: z3.ModelRef) -> dict[str, Any]:
    """The free ints and bools of a counterexample, a record's fields as `move.amount`."""
    values = {}
    for name, value in env.items():
        fields = value.items() if isinstance(value, dict) and name != "options" else []
        for key, item in [(name, value), *((f"{name}.{f}", v) for f, v in fields)]:
            if isinstance(item, (z3.BoolRef, z3.ArithRef)):
                values[key] = _decode(item, model)
    return values


def _free_cards(env: Mapping[str, Any], model: z3.ModelRef) -> dict[str, str]:
    """The free cards of a counterexample but `turned` (shown apart), a record's as `move.card`."""
    cards = {}
    for name, value in env.items():
        fields = value.items() if isinstance(value, dict) and name != "options" else []
        for key, item in [(name, value), *((f"{name}.{f}", v) for f, v in fields)]:
            if isinstance(item, SymCard) and key != "turned":
                cards[key] = str(decode(item, model))
    return cards


def _replay(
    game: Game,
    prop: Property,
    setting: Setting,
    cx: dict[str, Any],
    concrete: dict[str, Any],
    options: dict[str, Any],
) -> tuple[bool | None, str]:
    """Ask the engine: its checker (premise `acceptance`), its compiled expressions."""
    verdicts: list[tuple[bool, str]] = []
    if prop.premise == "acceptance" and setting.premise:
        verdicts.append(_replay_acceptance(game, prop, cx, concrete, options))
        if not setting.evaluations:
            fails = not _claim_holds(setting, concrete, {})
            verdicts.append(
                (
                    fails,
                    "the claim fails on it"
                    if fails
                    else "NOT replayed: the claim holds on it (encoder bug)",
                )
            )
    if setting.evaluations:
        verdicts.append(_replay_results(game, setting, cx, concrete, options))
    if not verdicts:  # only the claim: the reference interpreter must agree that it fails
        fails = not _claim_holds(setting, concrete, {})
        return fails, (
            "the reference interpreter agrees: the claim fails on it"
            if fails
            else "NOT replayed: the reference interpreter says the claim holds (encoder bug)"
        )
    return all(ok for ok, _ in verdicts), ", ".join(text for _, text in verdicts)


def _replay_acceptance(
    game: Game,
    prop: Property,
    cx: dict[str, Any],
    concrete: dict[str, Any],
    options: dict[str, Any],
) -> tuple[bool, str]:
    """The mechanic's own replay (rummy: its meld checker), or else its rule book's verdict on
    the decoded context (the mechanic says its handlers add no condition: `acceptance`)."""
    mechanic = game.mechanic
    given = {**prop.given, **cx["context"], "options": options}
    accepted = mechanic.replay_accepts(
        prop.on, given, concrete.get(prop.over or "", []), concrete.get("turned")
    )
    if accepted is not None:
        return accepted, (
            "accepted by the engine" if accepted else "NOT accepted by the engine (encoder bug)"
        )
    broken = mechanic.rules.judge(prop.on, {**concrete, "options": options})
    if not broken:
        return True, f"the engine's rules at `{prop.on}` accept it"
    rules = ", ".join(sorted({v.rule for v in broken}))
    return False, f"NOT accepted by the engine's rules at `{prop.on}`: {rules} (encoder bug)"


def _replay_results(
    game: Game,
    setting: Setting,
    cx: dict[str, Any],
    concrete: dict[str, Any],
    options: dict[str, Any],
) -> tuple[bool, str]:
    """The engine's compiled expressions on the decoded inputs: the same results (or the same
    failure), and the claim, evaluated by the reference interpreter on them, false."""
    got: dict[str, Any] = {}
    raised: list[str] = []
    for evaluated in setting.evaluations:
        try:
            got[evaluated.name] = _run(game, evaluated, concrete, options)
        except EvalError:
            raised.append(evaluated.name)
    labels = ", ".join(sorted({e.label for e in setting.evaluations}))
    if got != cx["results"] or raised != cx["raises"]:
        return False, (
            f"NOT replayed: the engine's compiled {labels} gives "
            f"{_results_text(got, raised)} (encoder bug)"
        )
    if not raised and _claim_holds(setting, concrete, got):
        return False, (
            f"NOT replayed: with the engine's {_results_text(got, raised)} the claim "
            f"holds (encoder bug)"
        )
    return True, f"replayed: the engine's compiled {labels} gives the same"


def _run(
    game: Game, evaluated: Evaluated, concrete: Mapping[str, Any], options: dict[str, Any]
) -> Any:
    """What the engine computes: the bindings by the reference interpreter, then the compiled
    expression on the inputs they give."""
    env = {**concrete, "options": _changed(game, options, evaluated.evaluation)}
    if evaluated.each is not None:
        name, typed = evaluated.each
        return [_run_at(evaluated, {**env, name: item}) for item in typed.evaluate(env)]
    return _run_at(evaluated, env)


def _run_at(evaluated: Evaluated, env: Mapping[str, Any]) -> Any:
    bound = {name: b.evaluate(env) for name, b in evaluated.bindings.items()}
    return evaluated.run({**env, **bound})


def _results_text(results: Mapping[str, Any], raised: list[str]) -> str:
    parts = [f"`{name}` {_option_text(value)}" for name, value in results.items()]
    return ", ".join(parts + [f"`{name}` raises" for name in raised])


def _claim_holds(setting: Setting, concrete: Mapping[str, Any], results: Mapping[str, Any]) -> bool:
    try:
        return bool(setting.claim.program.evaluate(setting.claim, {**concrete, **results}))
    except EvalError:
        return False


def _decode(term: Any, model: z3.ModelRef) -> Any:
    value = model.eval(term, model_completion=True)
    return z3.is_true(value) if isinstance(term, z3.BoolRef) else value.as_long()


def _as_bool(term: Any) -> Any:
    return z3.BoolVal(term) if isinstance(term, bool) else term


__all__ = [
    "STATUSES",
    "Card",
    "Evaluation",
    "Outcome",
    "Property",
    "option_sets",
    "prove",
    "read_properties",
    "s_implies",
]
