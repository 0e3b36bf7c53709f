"""Reading the parts of a spec's rummy sections (`rummy`, `meld_kinds`, `scoring`) that
`config.read_config` puts together into a `RummyConfig`.

Each error is located at the spec's key. The optional parts are read only where the spec selects
them: `rummy.match`, `rummy.turned_card`, `rummy.claims`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.errors import SpecError
from referee.mechanics.rummy.melds import MeldKind
from referee.mechanics.rummy.parts import ClaimRules, MatchRules
from referee.mechanics.rummy.priority import ORDERS
from referee.model import Violation
from referee.spec.expr import BOOL, INT, ListType, Scope, names_read, parse
from referee.spec.option_types import options_type
from referee.spec.rules import RULEBOOK_ID, RuleBook, SpecExpression, build_program, origin
from referee.spec.schema import GameSpec, Where, expression_at
from referee.spec.sections import nearest
from referee.spec.yamlsource import PathKey, format_path

# the mechanic's own verdicts, whose ids and sentences the spec gives (`rummy.violations`): each
# is needed where the spec has a move that can give it, as its field says (None: the move itself)
VERDICTS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "no_meld": (
        ("meld", None),
        ("take_discard", "meld"),
        ("go_out", "melds"),
        ("swap_joker", None),
    ),
    "ambiguous_layoff": (("layoff", None), ("take_discard", "layoff"), ("go_out", "layoffs")),
    "steal": (("go_out", "steals"), ("swap_joker", None)),
    "empty_stock": (("draw", None),),
    "no_discard": (("take_discard", None), ("go_out", "take")),
}
# The context of `rummy.match.reentry_score`: no rule judges it, so it is no checkpoint of the
# rule book; only definitions that name it in their `on:` reach it.
REENTRY = "reentry"
# moves only the elimination match serves: the decisions between hands
MATCH_MOVES = ("reenter", "decline")


class Reader:
    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.located = spec.located

    def where(self, path: PathKey) -> Where:
        line, column = self.located.where(path)
        return Where(self.located.file_of(path), line, column, format_path(path))

    def expression(self, path: PathKey, value: Any) -> tuple[str, Where]:
        return expression_at(self.located, path, value)

    def error(self, path: PathKey, message: str) -> SpecError:
        return self.located.error(path, message)

    def section(self, name: str) -> dict[str, Any]:
        value = self.spec.sections.get(name)
        if not isinstance(value, dict):
            raise self.error((name,), f"the rummy mechanic needs a `{name}` section (a mapping)")
        return value


def joker_test(reader: Reader, rules: RuleBook) -> Callable[[Mapping[str, Any]], bool]:
    """The spec's `is_joker(c)`; a spec defining none plays without jokers."""
    if not any(d.name == "is_joker" for d in reader.spec.definitions):
        return lambda env: False
    test: Callable[[Mapping[str, Any]], bool] = rules.compile_expression(
        "card", "is_joker(c)", reader.where(("definitions",)), BOOL
    )
    return test


def checkpoint_expression(
    reader: Reader, rules: RuleBook, checkpoint: str, path: PathKey, value: Any
) -> SpecExpression:
    """An int expression of the spec over a checkpoint's context (`scoring.hand_points`)."""
    text, where = reader.expression(path, value)
    typed = rules.check_expression(checkpoint, text, where, INT)
    return SpecExpression(".".join(map(str, path)), checkpoint, typed, typed.compile())


def read_settlement(reader: Reader, rules: RuleBook, raw: Any) -> SpecExpression | None:
    """`rummy.settlement`, where the spec has one: what each seat pays whoever went out."""
    if raw is None:
        return None
    path: PathKey = ("rummy", "settlement")
    if not isinstance(raw, dict) or "pays" not in raw:
        raise reader.error(
            path, "`rummy.settlement` needs `pays`: the chips each other seat pays who went out"
        )
    return checkpoint_expression(reader, rules, "scoring", path + ("pays",), raw["pays"])


def read_claims(reader: Reader, raw: Any) -> ClaimRules:
    """Claim windows, where the spec selects them: the option and its value that open one on
    each discard, the option holding its deadline, and which claim wins (`priority`)."""
    if raw is None:
        return ClaimRules(None, "", None, ())
    path: PathKey = ("rummy", "claims")
    if not isinstance(raw, dict) or not {"option", "window", "deadline", "priority"} <= set(raw):
        raise reader.error(
            path,
            "`rummy.claims` names `option`, its `window` value, the "
            "`deadline` option (milliseconds) and the claims' `priority`",
        )
    for key in ("option", "deadline"):
        if raw[key] not in reader.spec.options:
            raise reader.error(path + (key,), f"unknown option `{raw[key]}`")
    return ClaimRules(
        str(raw["option"]),
        str(raw["window"]),
        str(raw["deadline"]),
        _read_priority(reader, path + ("priority",), raw["priority"]),
    )


def _read_priority(reader: Reader, path: PathKey, raw: Any) -> tuple[str, ...]:
    known = ", ".join(f"`{n}`" for n in ORDERS)
    if not isinstance(raw, list) or not raw:
        raise reader.error(
            path, f"`priority` lists the orders that pick the winning claim: {known}"
        )
    for index, name in enumerate(raw):
        if name not in ORDERS:
            meant = nearest(str(name), ORDERS)
            hint = f"did you mean `{meant}`?" if meant else f"expected one of {known}"
            raise reader.error(path + (index,), f"unknown claim order `{name}`: {hint}")
    return tuple(map(str, raw))


def read_match(reader: Reader, raw: Any) -> tuple[MatchRules | None, SpecExpression | None]:
    """The elimination match, where the spec selects it; without it one hand is the game, and
    the moves between hands are none of the spec's."""
    path: PathKey = ("rummy", "match")
    if raw is None:
        for move in (m for m in MATCH_MOVES if m in reader.spec.moves):
            raise reader.error(
                ("moves", move),
                f"the move `{move}` is made between the hands of a match: it needs `rummy.match`",
            )
        return None, None
    if not isinstance(raw, dict) or not isinstance(raw.get("blow_at"), int):
        raise reader.error(path, "`rummy.match` needs `blow_at` (the total that blows)")
    stake = raw.get("stake")
    if stake is not None and stake not in reader.spec.options:
        raise reader.error(path + ("stake",), f"unknown option `{stake}`")
    reentry = _reentry_expression(reader, raw.get("reentry_score"))
    rules = MatchRules(
        blow_at=raw["blow_at"],
        stake_option=stake,
        drop_percent=int(raw.get("drop_percent", 0)),
        doubling=bool(raw.get("reentry_doubling", False)),
        reentry_score=None if reentry is None else _reentry_score(reentry),
    )
    return rules, reentry


def _reentry_expression(reader: Reader, value: Any) -> SpecExpression | None:
    """`rummy.match.reentry_score`, the score a blown player comes back at, over `options` and
    `still_in` (the scores of the players still in, in seat order): needed with a `reenter`
    move, and only then."""
    path: PathKey = ("rummy", "match", "reentry_score")
    if value is None and "reenter" not in reader.spec.moves:
        return None
    if value is None:
        raise reader.error(
            path[:-1],
            "`rummy.match` needs `reentry_score`: the score a blown "
            "player comes back at, an expression over `still_in`",
        )
    text, where = reader.expression(path, value)
    scope = Scope({"options": options_type(reader.spec), "still_in": ListType(INT)})
    program = build_program([d for d in reader.spec.definitions if REENTRY in d.on], REENTRY, scope)
    typed = program.check(parse(text, origin=origin(where)), expected=INT)
    return SpecExpression(".".join(map(str, path)), REENTRY, typed, typed.compile())


def _reentry_score(expression: SpecExpression) -> Callable[[Mapping[str, Any], list[int]], int]:
    """What `match.reenter` calls: the compiled expression over its context."""

    def reentry_score(options: Mapping[str, Any], still_in: list[int]) -> int:
        return int(expression({"options": options, "still_in": still_in}))

    return reentry_score


def read_packets(reader: Reader, raw: Any) -> tuple[str | None, dict[str, int]]:
    if raw is None:
        return None, {}
    if not isinstance(raw, dict) or "option" not in raw:
        raise reader.error(
            ("rummy", "packets"), "`packets` names an option and a packet size per value"
        )
    option = reader.spec.options.get(str(raw["option"]))
    if option is None:
        raise reader.error(("rummy", "packets", "option"), f"unknown option `{raw['option']}`")
    sizes = {k: v for k, v in raw.items() if k != "option"}
    for value in option.values:
        if not isinstance(sizes.get(value), int):
            raise reader.error(("rummy", "packets"), f"no packet size for `{option.name}: {value}`")
    return option.name, sizes


def read_kinds(reader: Reader, rules: RuleBook) -> list[MeldKind]:
    kinds = reader.section("meld_kinds")
    result = []
    for name, body in kinds.items():
        path: PathKey = ("meld_kinds", name)
        if not isinstance(body, dict) or not {"shape", "wild", "extend"} <= set(body):
            raise reader.error(path, f"meld kind `{name}` needs `shape`, `wild` and `extend`")
        if body["extend"] not in ("append", "ends"):
            raise reader.error(
                path + ("extend",), f"`extend` is `append` or `ends`, got `{body['extend']}`"
            )
        misfit = _misfit(reader, path + ("misfit",), body.get("misfit"))
        shape = rules.check_expression(
            name, *reader.expression(path + ("shape",), body["shape"]), BOOL
        )
        wild = rules.check_expression(
            name, *reader.expression(path + ("wild",), body["wild"]), BOOL
        )
        result.append(
            MeldKind(
                name=str(name),
                extend=str(body["extend"]),
                misfit=misfit,
                shape=shape.compile(),
                wild=wild.compile(),
                reads=rules.reads_at(name) | names_read([shape, wild]),
            )
        )
    return result


def lays_off(spec: GameSpec) -> bool:
    """Can a move of the spec add cards to a meld on the table?"""
    return any(can_give(spec, *giver) for giver in VERDICTS["ambiguous_layoff"])


def _misfit(reader: Reader, path: PathKey, body: Any) -> Violation:
    """A kind's `misfit`, given only by a lay-off: needed where a move lays off."""
    if body is None and not lays_off(reader.spec):
        return Violation(str(path[1]), "misfit")  # never given: no move lays off
    return _violation(reader, path, body)


def read_violations(reader: Reader, raw: Any) -> dict[str, Violation]:
    """The mechanic's own verdicts, each with the id, sources and text the spec gives it."""
    path: PathKey = ("rummy", "violations")
    needed = [
        name for name, givers in VERDICTS.items() if any(can_give(reader.spec, *g) for g in givers)
    ]
    if not isinstance(raw, dict):
        raise reader.error(
            path,
            "`rummy.violations` gives an id, sources and a text for: "
            + ", ".join(f"`{n}`" for n in needed),
        )
    result = {name: _violation(reader, path + (name,), body) for name, body in raw.items()}
    missing = [n for n in needed if n not in result]
    if missing:
        raise reader.error(path, f"missing `{missing[0]}`")
    return result


def can_give(spec: GameSpec, move_type: str, field: str | None = None) -> bool:
    """Does the spec have the move (with `field`, the move with that field declared)? A move or
    field the spec leaves out is none of its game's: the mechanic's part that serves it is idle."""
    move = spec.moves.get(move_type)
    if move is None:
        return False
    return field is None or any(f.name == field for f in move.fields)


def _violation(reader: Reader, path: PathKey, body: Any) -> Violation:
    if not isinstance(body, dict) or not isinstance(body.get("id"), str):
        raise reader.error(path, "expected `{id: ..., source: [...], text: ...}`")
    text = body.get("text", "")
    message = text.get("en", "") if isinstance(text, dict) else str(text)
    sources = body.get("source") or []
    cites = tuple(str(s) for s in sources if RULEBOOK_ID.match(str(s)) and s != body["id"])
    return Violation(body["id"], message, cites)
