"""Proving a spec's `properties` with z3, from the same rules the engine runs.

A property says: whatever is accepted at a checkpoint (the rules there all hold, and whatever the
mechanic adds, such as a meld kind's shape) also satisfies a claim. For each option combination
and each list size up to the bound, z3 looks for an accepted input where the claim fails:
- unsat: proved for that size;
- sat: a counterexample, decoded into cards and replayed through the engine's own checker;
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
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, Origin, parse
from referee.spec.expr.symbolic import SymCard, s_and, s_implies, s_not, s_eq
from referee.spec.registry import Game
from referee.spec.rules import origin
from referee.spec.schema import expression_at

DEFAULT_RLIMIT = 50_000_000
LIST_NAME = "cards"  # the symbolic list a property ranges over


@dataclass(frozen=True)
class Property:
    id: str
    text: str
    on: str
    given: Mapping[str, Any]
    options: Mapping[str, tuple[Any, ...]]
    max_cards: int
    claim: str
    origin: Origin
    source: tuple[str, ...] = ()


@dataclass
class Outcome:
    """The result for one option combination, over every size up to the bound."""

    property: Property
    options: dict[str, Any]
    status: str = "proved"          # proved | counterexample | unknown
    sizes: int = 0                  # how many sizes were settled
    counterexample: dict[str, Any] = field(default_factory=dict)
    replayed: bool | None = None    # the engine's checker accepts the counterexample too

    def line(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items()) or "defaults"
        head = f"{self.status:>14}  {self.property.id} [{opts}]"
        if self.status == "proved":
            return f"{head}: for every input of 1..{self.property.max_cards} cards"
        if self.status == "counterexample":
            cx = self.counterexample
            again = "accepted by the engine" if self.replayed else "NOT accepted by the engine (encoder bug)"
            return f"{head}: {cx['cards']} with turned {cx['turned']} ({again})"
        return f"{head}: the solver gave up at {self.sizes + 1} cards (not proved)"


def read_properties(game: Game) -> list[Property]:
    located = game.spec.located
    raw = located.data.get("properties") or []
    result = []
    for index, body in enumerate(raw):
        path = ("properties", index)
        if not isinstance(body, dict) or not {"id", "on", "claim"} <= set(body):
            raise located.error(path, "a property needs `id`, `on` and `claim`")
        claim_text, claim_where = expression_at(located, path + ("claim",), body["claim"])
        options = {k: tuple(v if isinstance(v, list) else [v]) for k, v in (body.get("options") or {}).items()}
        result.append(Property(
            id=str(body["id"]), text=str(body.get("text", "")), on=str(body["on"]),
            given=dict(body.get("given") or {}), options=options,
            max_cards=int(body.get("max_cards", 10)), claim=claim_text,
            origin=origin(claim_where),
            source=tuple(str(s) for s in body.get("source") or ())))
    return result


def option_sets(game: Game, prop: Property) -> Iterator[dict[str, Any]]:
    names = list(prop.options)
    for values in itertools.product(*(prop.options[n] for n in names)):
        yield game.resolve_options(dict(zip(names, values)))


def prove(game: Game, prop: Property, rlimit: int = DEFAULT_RLIMIT) -> list[Outcome]:
    rules = game.mechanic.rules
    if prop.on not in rules.programs:
        raise SpecError(f"property `{prop.id}`: unknown checkpoint `{prop.on}`",
                        file=prop.origin.file, line=prop.origin.line, path=prop.origin.path)
    program = rules.programs[prop.on]
    claim = program.check(parse(prop.claim, origin=prop.origin), expected=BOOL)
    conditions = game.mechanic.acceptance(prop.on)
    return [_prove_options(game, prop, program, claim, conditions, options, rlimit)
            for options in option_sets(game, prop)]


def _prove_options(game: Game, prop: Property, program: Any, claim: Any, conditions: list[Any],
                   options: dict[str, Any], rlimit: int) -> Outcome:
    outcome = Outcome(prop, {k: options[k] for k in prop.options})
    for size in range(1, prop.max_cards + 1):
        env, domain, cards, turned = _symbolic_env(game, prop, program, options, size)
        solver = z3.Solver()
        solver.set("rlimit", rlimit)
        solver.add(*domain)
        # accepted: every condition holds, and none would raise (the engine would stop on it)
        for when, require in conditions:
            held = _as_bool(program.encode_full(require, env).holds)
            if when is not None:
                guard = program.encode_full(when, env)
                held = s_and(s_not(guard.error), s_implies(guard.value, held))
            solver.add(_as_bool(held))
        solver.add(_as_bool(s_not(program.encode_full(claim, env).holds)))
        answer = solver.check()
        if answer == z3.unsat:
            outcome.sizes = size
            continue
        if answer == z3.sat:
            model = solver.model()
            found = [c.decode(model) for c in cards]
            shown_turned = turned.decode(model)
            outcome.status = "counterexample"
            outcome.counterexample = {"cards": codes(found), "turned": str(shown_turned)}
            free = {name: _decode(value, model) for name, value in env.items()
                    if isinstance(value, (z3.BoolRef, z3.ArithRef))}
            outcome.counterexample["context"] = free
            outcome.replayed = game.mechanic.replay_accepts(
                prop.on, {**prop.given, **free, "options": options}, found, shown_turned)
        else:
            outcome.status = "unknown"
        return outcome
    return outcome


def _symbolic_env(game: Game, prop: Property, program: Any, options: dict[str, Any],
                  size: int) -> tuple[dict[str, Any], list[Any], list[SymCard], SymCard]:
    domain: list[Any] = []
    env: dict[str, Any] = {"options": options}
    cards = []
    for i in range(size):
        card, constraints = SymCard.fresh(f"card{i}")
        cards.append(card)
        domain += constraints
    env[LIST_NAME] = cards
    domain += _copies_limit(cards, game.spec.pack_copies)
    turned, constraints = SymCard.fresh("turned")
    domain += constraints
    env["turned"] = turned
    for name, typ in program.scope.items():
        if name in env:
            continue
        if name in prop.given:
            env[name] = prop.given[name]
        else:
            env[name], extra = _fresh(name, typ, prop.on)
            domain += extra
    return env, domain, cards, turned


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


def _decode(term: Any, model: z3.ModelRef) -> Any:
    value = model.eval(term, model_completion=True)
    return z3.is_true(value) if isinstance(term, z3.BoolRef) else value.as_long()


def _as_bool(term: Any) -> Any:
    return z3.BoolVal(term) if isinstance(term, bool) else term


__all__ = ["Property", "Outcome", "read_properties", "prove", "s_implies", "Card"]
