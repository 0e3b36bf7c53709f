"""A spec's `properties`, read: what each one ranges over, assumes, computes and claims.

The YAML form is documented atop `properties:` in `specs/pontinho.yaml`. Reading resolves what
does not depend on the mechanic: the spec constants a property names, the bounds written with
them, the option values of each evaluation. What needs the mechanic's contexts (is `over` a list
of that context? does an evaluated expression read it?) is checked when proving.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from referee.errors import OptionError
from referee.spec.expr import INT, Origin, Program, parse
from referee.spec.registry import Game
from referee.spec.rules import origin
from referee.spec.schema import expression_at
from referee.spec.yamlsource import Located, PathKey

DEFAULT_LIST = "cards"  # what a property ranges over when it does not say
DEFAULT_MAX = 10
PREMISES = ("acceptance", "none")
KEYS = {"id", "text", "source", "on", "over", "max_cards", "premise", "given", "options",
        "constants", "ranges", "evaluate", "claim"}


@dataclass(frozen=True)
class Evaluation:
    """`name` is the result of the spec expression at `expression`, under the property's option
    set changed by `options`."""

    name: str
    expression: str                     # a dotted path: `scoring.hand_points`
    options: Mapping[str, Any] = field(default_factory=dict)


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

    @property
    def max_cards(self) -> int:
        """The largest list a property ranges over (its historical name)."""
        return self.max_size

    @property
    def sizes(self) -> range:
        return range(self.min_size, self.max_size + 1)


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
    over, (low, high) = _over(located, path, body, constants)
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
        evaluations=_evaluations(game, located, path + ("evaluate",), body.get("evaluate") or {}))


def _option_values(raw: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {k: tuple(v if isinstance(v, list) else [v]) for k, v in raw.items()}


def _over(located: Located, path: PathKey, body: Mapping[str, Any],
          constants: Mapping[str, int]) -> tuple[str, tuple[int, int]]:
    """`over: {hand: [0, 12]}`; without it, `cards` of 1..`max_cards` (10)."""
    raw = body.get("over")
    if raw is None:
        return DEFAULT_LIST, (1, int(body.get("max_cards", DEFAULT_MAX)))
    if not isinstance(raw, dict) or len(raw) != 1:
        raise located.error(path + ("over",), "`over` names one list and its sizes: "
                            "`{hand: [0, 12]}`")
    (name, sizes), = raw.items()
    low, high = _bounds(located, path + ("over", name), sizes, constants)
    if low < 0:
        raise located.error(path + ("over", name), f"a list of `{low}` items")
    return str(name), (low, high)


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
    if isinstance(body, str):
        return Evaluation(name, body)
    if not isinstance(body, dict) or not isinstance(body.get("expression"), str):
        raise located.error(path, "expected a spec expression's place, or `{expression: ..., "
                            "options: {...}}`")
    options = dict(body.get("options") or {})
    try:
        game.resolve_options(options)
    except OptionError as exc:
        raise located.error(path + ("options",), str(exc)) from None
    return Evaluation(name, body["expression"], options)


__all__ = ["Evaluation", "Property", "read_properties"]
