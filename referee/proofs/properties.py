"""A spec's `properties`, read: what each one ranges over, assumes, computes and claims.

They are stated in the game's proofs file, `specs/GAME.proofs.yaml` (`referee.spec.proofs_file`,
found and merged with a base's when the game is loaded: `Game.proofs`). The YAML form is
documented in docs/spec-language.md and atop `specs/pontinho.proofs.yaml` (and, for
several lists, names of the property's own, `free:`, `assume:`, and evaluations `with:` other
inputs, atop `specs/pontoon.proofs.yaml`; for no list at all, the pack as a constant, helper
`definitions:` and the acceptance of a checkpoint as an evaluation, atop
`specs/tarocchi_piedicavallo.proofs.yaml`). Reading resolves what does not depend on the mechanic:
the spec constants a property names, the bounds written with them, the types of its own names,
the option values of each evaluation. What needs the mechanic's contexts (is `over` a list of
that context? does an evaluated expression read it?) is checked when proving.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card
from referee.engine.game import Game
from referee.errors import OptionError
from referee.spec.expr import BOOL, CARD, INT, STR, ListType, Origin, Program, Type, parse
from referee.spec.rules import origin, parse_type
from referee.spec.schema import expression_at
from referee.spec.yamlsource import Located, PathKey, format_path

# the types a property's free names may have: those the prover can make free and report
FREE_TYPES: tuple[Type, ...] = (INT, BOOL, STR, CARD, ListType(CARD), ListType(INT))
DEFAULT_LIST = "cards"  # what a property ranges over when it does not say
DEFAULT_MAX = 10
PREMISES = ("acceptance", "none")
KEYS = {
    "id",
    "text",
    "source",
    "on",
    "over",
    "max_cards",
    "premise",
    "given",
    "options",
    "constants",
    "ranges",
    "evaluate",
    "claim",
    "free",
    "assume",
    "definitions",
}
EVALUATION_KEYS = {"expression", "definition", "acceptance", "options", "with", "for"}
EVALUATION_KINDS = ("expression", "definition", "acceptance")
PACK = "pack"  # the constant place that names the game's cards, not an integer
Text = tuple[str, Origin]  # an expression of the property, and where the spec writes it
_FOR = re.compile(r"\s*([a-z_][a-z0-9_]*)\s+in\s+(\S.*)\Z", re.DOTALL)


@dataclass(frozen=True)
class Evaluation:
    """`name` is the result of the spec expression at `expression`, under the property's option
    set changed by `options`."""

    name: str
    expression: str  # a dotted path (`scoring.hand_points`), or a definition
    options: Mapping[str, Any] = field(default_factory=dict)
    # `with:` context names (of a definition: its parameters) given other values: expressions
    # over the property's names (`{cards: banker_cards, split_hand: "false"}`)
    bindings: Mapping[str, Text] = field(default_factory=dict)
    definition: bool = False  # `expression` names one of the spec's definitions
    # `expression` names a checkpoint: the result is whether its rules (and whatever the
    # mechanic adds) accept the input, as the premise `acceptance` would require
    acceptance: bool = False
    # `for: i in indices(pack)`: the expression once per item of a list, `i` bound to the item
    # (the `with:` values may name it); the result is the list of the values
    each: tuple[str, Text] | None = None

    @property
    def label(self) -> str:
        return f"rule book at `{self.expression}`" if self.acceptance else f"`{self.expression}`"


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
    constants: Mapping[str, Any] = field(default_factory=dict)  # an int, or the pack's cards
    ranges: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    evaluations: tuple[Evaluation, ...] = ()
    path: PathKey = ()  # where the spec states it, for errors
    # every list ranged over, with its sizes: `over`'s first is `over`, `min_size`, `max_size`
    lists: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    free: Mapping[str, Type] = field(default_factory=dict)  # the property's own names
    assume: tuple[Text, ...] = ()  # facts of every state the mechanic builds
    # helpers of the property's own, for stating the claim directly: (signature, body)
    definitions: tuple[tuple[Text, Text], ...] = ()

    @property
    def max_cards(self) -> int:
        """The largest list a property ranges over (its historical name)."""
        return self.max_size

    @property
    def sizes(self) -> range:
        return range(self.min_size, self.max_size + 1)

    @property
    def size_sets(self) -> list[dict[str, int]]:
        """Every combination of the lists' sizes, smallest first (one, empty, with no list)."""
        lists = dict(self.lists) or (
            {self.over: (self.min_size, self.max_size)} if self.over else {}
        )
        ranges = [range(low, high + 1) for low, high in lists.values()]
        sets = [dict(zip(lists, sizes)) for sizes in itertools.product(*ranges)]
        return sorted(sets, key=lambda s: sum(s.values()))


def read_properties(game: Game) -> list[Property]:
    located = game.proofs
    raw = located.data.get("properties") or []
    if not isinstance(raw, list):
        raise located.error(("properties",), "`properties` is a list of properties")
    return [_read_one(game, located, ("properties", index), body) for index, body in enumerate(raw)]


def _read_one(game: Game, located: Located, path: PathKey, body: Any) -> Property:
    if not isinstance(body, dict) or not {"id", "on", "claim"} <= set(body):
        raise located.error(path, "a property needs `id`, `on` and `claim`")
    unknown = sorted(set(body) - KEYS)
    if unknown:
        raise located.error(
            path + (unknown[0],), f"unknown property key `{unknown[0]}`", at_key=True
        )
    claim_text, claim_where = expression_at(located, path + ("claim",), body["claim"])
    constants = _constants(game, located, path + ("constants",), body.get("constants") or {})
    lists = _over(located, path, body, constants)
    over, (low, high) = next(iter(lists.items()), ("", (0, 0)))
    premise = str(body.get("premise", "acceptance"))
    if premise not in PREMISES:
        raise located.error(
            path + ("premise",),
            f"unknown premise `{premise}`: expected " + " or ".join(f"`{p}`" for p in PREMISES),
        )
    return Property(
        id=str(body["id"]),
        text=str(body.get("text", "")),
        on=str(body["on"]),
        given=dict(body.get("given") or {}),
        options=_option_values(body.get("options") or {}),
        max_size=high,
        min_size=low,
        over=over,
        premise=premise,
        claim=claim_text,
        origin=origin(claim_where),
        source=tuple(str(s) for s in body.get("source") or ()),
        constants=constants,
        path=path,
        ranges={
            name: _bounds(located, path + ("ranges", name), bounds, constants)
            for name, bounds in (body.get("ranges") or {}).items()
        },
        evaluations=_evaluations(game, located, path + ("evaluate",), body.get("evaluate") or {}),
        lists=lists,
        free=_free(located, path + ("free",), body.get("free") or {}),
        assume=_assume(located, path + ("assume",), body.get("assume")),
        definitions=_definitions(located, path + ("definitions",), body.get("definitions")),
    )


def _option_values(raw: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {k: tuple(v if isinstance(v, list) else [v]) for k, v in raw.items()}


def _over(
    located: Located, path: PathKey, body: Mapping[str, Any], constants: Mapping[str, Any]
) -> dict[str, tuple[int, int]]:
    """`over: {hand: [0, 12]}`, or several lists, `{a: [2, 5], b: [2, 5]}`, whose cards come
    from one pack together, or none, `{}`; without it, `cards` of 1..`max_cards` (10)."""
    raw = body.get("over")
    if raw is None:
        return {DEFAULT_LIST: (1, int(body.get("max_cards", DEFAULT_MAX)))}
    if not isinstance(raw, dict):
        raise located.error(
            path + ("over",), "`over` names lists and their sizes: `{hand: [0, 12]}`"
        )
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
        ty = parse_type(text, where)
        if ty not in FREE_TYPES:
            raise located.error(
                path + (name,),
                f"unknown type `{text}` for a free name: the "
                "prover makes free names of " + ", ".join(f"`{t}`" for t in FREE_TYPES),
            )
        result[str(name)] = ty
    return result


def _assume(located: Located, path: PathKey, raw: Any) -> tuple[Text, ...]:
    """One expression or a list of them: facts that hold in every state the mechanic builds."""
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    paths = [path + (k,) for k in range(len(items))] if isinstance(raw, list) else [path]
    return tuple(_text(located, p, item) for p, item in zip(paths, items))


def _definitions(located: Located, path: PathKey, raw: Any) -> tuple[tuple[Text, Text], ...]:
    """`{"trump(c: card)": 'suit(c) == "T" and rank(c) > 0'}`: helpers for the claim, checked
    in order in the property's scope (each may use those before it and the spec's)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        raise located.error(
            path,
            '`definitions` maps signatures to bodies: `{"trump(c: card)": \'suit(c) == "T"\'}`',
        )
    return tuple(
        (_key_text(located, path + (name,), str(name)), _text(located, path + (name,), body))
        for name, body in raw.items()
    )


def _key_text(located: Located, path: PathKey, key: str) -> Text:
    """A mapping's key, as text placed where the spec writes the key."""
    line, column = located.keys.get(path) or located.where(path)
    return key, Origin(file=located.file_of(path), line=line, column=column, path=format_path(path))


def _text(located: Located, path: PathKey, raw: Any) -> Text:
    text, where = expression_at(located, path, raw)
    return text, origin(where)


def _constants(game: Game, located: Located, path: PathKey, raw: Any) -> dict[str, Any]:
    """`{blow_at: rummy.match.blow_at}`: names for integers the spec states elsewhere; `pack`
    names the game's cards (`{deck: pack}`: every card of the pack, in its fixed order)."""
    if not isinstance(raw, dict):
        raise located.error(
            path, "`constants` maps names to places in the spec: `{blow_at: rummy.match.blow_at}`"
        )
    return {
        str(name): (
            game.spec.pack()
            if str(place) == PACK
            else _spec_int(game, located, path + (name,), str(place))
        )
        for name, place in raw.items()
    }


def constant_type(value: Any) -> Type:
    """A constant's type: an int, or the pack (a list of cards)."""
    return (
        ListType(CARD)
        if isinstance(value, list) and all(isinstance(c, Card) for c in value)
        else INT
    )


def _spec_int(game: Game, located: Located, path: PathKey, place: str) -> int:
    """The integer at a dotted place of the spec's rules (`located`: where the property says so)."""
    value: Any = game.spec.located.data
    for key in place.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    if not isinstance(value, int) or isinstance(value, bool):
        raise located.error(path, f"`{place}` is no integer of this spec (nor `{PACK}`, its cards)")
    return value


def _bounds(
    located: Located, path: PathKey, raw: Any, constants: Mapping[str, Any]
) -> tuple[int, int]:
    """`[0, blow_at - 1]`: two integers, or expressions over the property's constants."""
    if not isinstance(raw, list) or len(raw) != 2:
        raise located.error(path, "expected `[lowest, highest]`")
    low, high = (_bound(located, path + (k,), raw[k], constants) for k in (0, 1))
    if low > high:
        raise located.error(path, f"an empty range: `{low}` is above `{high}`")
    return low, high


def _bound(located: Located, path: PathKey, raw: Any, constants: Mapping[str, Any]) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    text, where = expression_at(located, path, raw)
    ints = {name: value for name, value in constants.items() if constant_type(value) == INT}
    program = Program(scope={name: INT for name in ints})
    return int(program.check(parse(text, origin=origin(where)), expected=INT).evaluate(ints))


def _evaluations(game: Game, located: Located, path: PathKey, raw: Any) -> tuple[Evaluation, ...]:
    """`{points: scoring.hand_points}` or `{a: {expression: ..., options: {...}}}`."""
    if not isinstance(raw, dict):
        raise located.error(path, "`evaluate` names results: `{points: scoring.hand_points}`")
    return tuple(
        _evaluation(game, located, path + (name,), str(name), body) for name, body in raw.items()
    )


def _evaluation(game: Game, located: Located, path: PathKey, name: str, body: Any) -> Evaluation:
    """`scoring.hand_points`, `{expression: ..., options: {...}, with: {...}}`, a definition
    with its parameters: `{definition: best_total, with: {cs: cards}}`, or whether a checkpoint
    accepts: `{acceptance: play}`."""
    if isinstance(body, str):
        return Evaluation(name, body)
    kinds = [k for k in EVALUATION_KINDS if isinstance(body, dict) and isinstance(body.get(k), str)]
    if len(kinds) != 1 or set(body) - EVALUATION_KEYS:
        raise located.error(
            path,
            "expected a spec expression's place, `{expression: ..., "
            "options: {...}, with: {...}}`, `{definition: ..., with: {...}}` "
            "or `{acceptance: checkpoint}`",
        )
    options = dict(body.get("options") or {})
    try:
        game.resolve_options(options)
    except OptionError as exc:
        raise located.error(path + ("options",), str(exc)) from None
    raw = body.get("with") or {}
    if not isinstance(raw, dict):
        raise located.error(
            path + ("with",), "`with` gives names other values: `{cards: banker_cards}`"
        )
    bindings = {str(k): _text(located, path + ("with", k), v) for k, v in raw.items()}
    each = _each(located, path + ("for",), body["for"]) if "for" in body else None
    if each is not None and kinds[0] != "expression":
        raise located.error(path + ("for",), "`for` repeats a spec expression (`expression:`)")
    return Evaluation(
        name,
        body[kinds[0]],
        options,
        bindings,
        kinds[0] == "definition",
        kinds[0] == "acceptance",
        each,
    )


def _each(located: Located, path: PathKey, raw: Any) -> tuple[str, Text]:
    """`i in indices(pack)`: the name bound to each item, and the list."""
    text, where = _text(located, path, raw)
    match = _FOR.match(text)
    if match is None:
        raise located.error(path, "`for` names an item and a list: `i in indices(pack)`")
    return match.group(1), (
        match.group(2),
        dataclasses.replace(where, column=where.column + match.start(2)),
    )


__all__ = ["Evaluation", "Property", "Text", "constant_type", "read_properties"]
