"""A spec's `properties`, read: what each one ranges over, assumes, computes and claims.

The YAML form is documented atop `properties:` in `specs/pontinho.yaml` (and, for several lists,
names of the property's own, `free:`, `assume:`, and evaluations `with:` other inputs, atop
`properties:` in `specs/pontoon.yaml`). Reading resolves what does not depend on the mechanic:
the spec constants a property names, the bounds written with them, the types of its own names,
the option values of each evaluation. What needs the mechanic's contexts (is `over` a list of
that context? does an evaluated expression read it?) is checked when proving.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Mapping

from referee.errors import OptionError
from referee.spec.expr import INT, Origin, Program, Type, parse
from referee.spec.registry import Game
from referee.spec.rules import origin, parse_type
from referee.spec.schema import expression_at
from referee.spec.yamlsource import Located, PathKey

DEFAULT_LIST = "cards"  # what a property ranges over when it does not say
DEFAULT_MAX = 10
PREMISES = ("acceptance", "none")
KEYS = {"id", "text", "source", "on", "over", "max_cards", "premise", "given", "options",
        "constants", "ranges", "evaluate", "claim", "free", "assume"}
EVALUATION_KEYS = {"expression", "definition", "options", "with"}
Text = tuple[str, Origin]  # an expression of the property, and where the spec writes it


@dataclass(frozen=True)
class Evaluation:
    """`name` is the result of the spec expression at `expression`, under the property's option
    set changed by `options`."""

    name: str
    expression: str                     # a dotted path (`scoring.hand_points`), or a definition
    options: Mapping[str, Any] = field(default_factory=dict)
    # `with:` context names (of a definition: its parameters) given other values: expressions
    # over the property's names (`{cards: banker_cards, split_hand: "false"}`)
    bindings: Mapping[str, Text] = field(default_factory=dict)
    definition: bool = False            # `expression` names one of the spec's definitions

    @property
    def label(self) -> str:
        return f"`{self.expression}`"


@dataclass(frozen=True)
class Property:
    id: str
    text: str
    on: str
    given: Mapping[str, Any]
    options: Mapping[str, tuple[Any, ...]]
    max_size: int
    claim: str
    origin: Origin
    source: tuple[str, ...] = ()
    over: str = DEFAULT_LIST
    min_size: int = 1
    premise: str = "acceptance"
    constants: Mapping[str, int] = field(default_factory=dict)
    ranges: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    evaluations: tuple[Evaluation, ...] = ()
    path: PathKey = ()                  # where the spec states it, for errors
    # every list ranged over, with its sizes: `over`'s first is `over`, `min_size`, `max_size`
    lists: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    free: Mapping[str, Type] = field(default_factory=dict)  # the property's own names
    assume: tuple[Text, ...] = ()       # facts of every state the mechanic builds

    @property
    def max_cards(self) -> int:
        """The largest list a property ranges over (its historical name)."""
        return self.max_size

    @property
    def sizes(self) -> range:
        return range(self.min_size, self.max_size + 1)

    @property
    def size_sets(self) -> list[dict[str, int]]:
        """Every combination of the lists' sizes, smallest first."""
        lists = dict(self.lists) or {self.over: (self.min_size, self.max_size)}
        ranges = [range(low, high + 1) for low, high in lists.values()]
        sets = [dict(zip(lists, sizes)) for sizes in itertools.product(*ranges)]
        return sorted(sets, key=lambda s: sum(s.values()))


def read_properties(game: Game) -> list[Property]:
    located = game.spec.located
    raw = located.data.get("properties") or []
    if not isinstance(raw, list):
        raise located.error(("properties",), "`properties` is a list of properties")
    return [_read_one(game, located, ("properties", index), body) for index, body in enumerate(raw)]


def _read_one(game: Game, located: Located, path: PathKey, body: Any) -> Property:
    if not isinstance(body, dict) or not {"id", "on", "claim"} <= set(body):
        raise located.error(path, "a property needs `id`, `on` and `claim`")
    unknown = sorted(set(body) - KEYS)
    if unknown:
        raise located.error(path + (unknown[0],), f"unknown property key `{unknown[0]}`",
                            at_key=True)
    claim_text, claim_where = expression_at(located, path + ("claim",), body["claim"])
    constants = _constants(located, path + ("constants",), body.get("constants") or {})
    lists = _over(located, path, body, constants)
    over, (low, high) = next(iter(lists.items()))
    premise = str(body.get("premise", "acceptance"))
    if premise not in PREMISES:
        raise located.error(path + ("premise",), f"unknown premise `{premise}`: expected "
                            + " or ".join(f"`{p}`" for p in PREMISES))
    return Property(
        id=str(body["id"]), text=str(body.get("text", "")), on=str(body["on"]),
        given=dict(body.get("given") or {}), options=_option_values(body.get("options") or {}),
        max_size=high, min_size=low, over=over, premise=premise, claim=claim_text,
        origin=origin(claim_where), source=tuple(str(s) for s in body.get("source") or ()),
        constants=constants, path=path,
        ranges={name: _bounds(located, path + ("ranges", name), bounds, constants)
                for name, bounds in (body.get("ranges") or {}).items()},
        evaluations=_evaluations(game, located, path + ("evaluate",), body.get("evaluate") or {}),
        lists=lists, free=_free(located, path + ("free",), body.get("free") or {}),
        assume=_assume(located, path + ("assume",), body.get("assume")))


def _option_values(raw: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {k: tuple(v if isinstance(v, list) else [v]) for k, v in raw.items()}


def _over(located: Located, path: PathKey, body: Mapping[str, Any],
          constants: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    """`over: {hand: [0, 12]}`, or several lists, `{a: [2, 5], b: [2, 5]}`, whose cards come
    from one pack together; without it, `cards` of 1..`max_cards` (10)."""
    raw = body.get("over")
    if raw is None:
        return {DEFAULT_LIST: (1, int(body.get("max_cards", DEFAULT_MAX)))}
    if not isinstance(raw, dict) or not raw:
        raise located.error(path + ("over",), "`over` names lists and their sizes: "
                            "`{hand: [0, 12]}`")
    lists = {}
    for name, sizes in raw.items():
        low, high = _bounds(located, path + ("over", name), sizes, constants)
        if low < 0:
            raise located.error(path + ("over", name), f"a list of `{low}` items")
        lists[str(name)] = (low, high)
    return lists


def _free(located: Located, path: PathKey, raw: Any) -> dict[str, Type]:
    """`{a: list[card], split_a: bool}`: names of the property's own, free like context names."""
    if not isinstance(raw, dict):
        raise located.error(path, "`free` gives names their types: `{a: list[card]}`")
    result = {}
    for name, type_name in raw.items():
        text, where = expression_at(located, path + (name,), str(type_name))
        result[str(name)] = parse_type(text, where)
    return result


def _assume(located: Located, path: PathKey, raw: Any) -> tuple[Text, ...]:
    """One expression or a list of them: facts that hold in every state the mechanic builds."""
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    paths = [path + (k,) for k in range(len(items))] if isinstance(raw, list) else [path]
    return tuple(_text(located, p, item) for p, item in zip(paths, items))


def _text(located: Located, path: PathKey, raw: Any) -> Text:
    text, where = expression_at(located, path, raw)
    return text, origin(where)


def _constants(located: Located, path: PathKey, raw: Any) -> dict[str, int]:
    """`{blow_at: rummy.match.blow_at}`: names for integers the spec states elsewhere."""
    if not isinstance(raw, dict):
        raise located.error(path, "`constants` maps names to places in the spec: "
                            "`{blow_at: rummy.match.blow_at}`")
    return {str(name): _spec_int(located, path + (name,), str(place))
            for name, place in raw.items()}


def _spec_int(located: Located, path: PathKey, place: str) -> int:
    value: Any = located.data
    for key in place.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    if not isinstance(value, int) or isinstance(value, bool):
        raise located.error(path, f"`{place}` is no integer of this spec")
    return value


def _bounds(located: Located, path: PathKey, raw: Any,
            constants: Mapping[str, int]) -> tuple[int, int]:
    """`[0, blow_at - 1]`: two integers, or expressions over the property's constants."""
    if not isinstance(raw, list) or len(raw) != 2:
        raise located.error(path, "expected `[lowest, highest]`")
    low, high = (_bound(located, path + (k,), raw[k], constants) for k in (0, 1))
    if low > high:
        raise located.error(path, f"an empty range: `{low}` is above `{high}`")
    return low, high


def _bound(located: Located, path: PathKey, raw: Any, constants: Mapping[str, int]) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    text, where = expression_at(located, path, raw)
    program = Program(scope={name: INT for name in constants})
    return int(program.check(parse(text, origin=origin(where)), expected=INT).evaluate(constants))


def _evaluations(game: Game, located: Located, path: PathKey, raw: Any) -> tuple[Evaluation, ...]:
    """`{points: scoring.hand_points}` or `{a: {expression: ..., options: {...}}}`."""
    if not isinstance(raw, dict):
        raise located.error(path, "`evaluate` names results: `{points: scoring.hand_points}`")
    return tuple(_evaluation(game, located, path + (name,), str(name), body)
                 for name, body in raw.items())


def _evaluation(game: Game, located: Located, path: PathKey, name: str, body: Any) -> Evaluation:
    """`scoring.hand_points`, `{expression: ..., options: {...}, with: {...}}`, or a definition
    with its parameters: `{definition: best_total, with: {cs: cards}}`."""
    if isinstance(body, str):
        return Evaluation(name, body)
    kinds = [k for k in ("expression", "definition") if isinstance(body, dict)
             and isinstance(body.get(k), str)]
    if len(kinds) != 1 or set(body) - EVALUATION_KEYS:
        raise located.error(path, "expected a spec expression's place, `{expression: ..., "
                            "options: {...}, with: {...}}`, or `{definition: ..., with: {...}}`")
    options = dict(body.get("options") or {})
    try:
        game.resolve_options(options)
    except OptionError as exc:
        raise located.error(path + ("options",), str(exc)) from None
    raw = body.get("with") or {}
    if not isinstance(raw, dict):
        raise located.error(path + ("with",), "`with` gives names other values: "
                            "`{cards: banker_cards}`")
    bindings = {str(k): _text(located, path + ("with", k), v) for k, v in raw.items()}
    return Evaluation(name, body[kinds[0]], options, bindings, kinds[0] == "definition")


__all__ = ["Evaluation", "Property", "Text", "read_properties"]
