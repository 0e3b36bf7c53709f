"""The two sides of `referee diff` and how each judges a checkpoint: a game with its options
(`Side`), its conditions there (`Judge`), a difference found (`Finding`), a checkpoint's outcome
(`Comparison`) and the pair compared (`Pair`). `diff` compares; `diff_scenario` turns a finding
into a runnable scenario; both build on this module.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3

from referee.engine.game import Game, find_game
from referee.errors import InvalidArgument, OptionError
from referee.proofs import rummy_context as rummy
from referee.proofs.diff_context import Shape, make_shape, merge_fields, read_paths, union_scope
from referee.proofs.encode import encode_full
from referee.proofs.prover import DEFAULT_RLIMIT
from referee.proofs.rummy_context import Check, Path
from referee.spec.expr.symbolic import BoolLike, s_and, s_implies, s_not

DEFAULT_MAX_CARDS = 6


class SideError(InvalidArgument):
    code = "invalid_side"


@dataclass(frozen=True)
class Side:
    """A game with some options fixed: `pontinho:joker_rule=next_rank_same_suit`."""

    text: str
    game: Game
    given: Mapping[str, Any]  # the options named in `text`
    options: Mapping[str, Any]  # every option: the given ones, defaults for the rest


def parse_side(text: str, games: Mapping[str, Game]) -> Side:
    name, _, rest = text.partition(":")
    game = find_game(games, name.strip())
    given: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, equals, value = part.partition("=")
        if not equals:
            raise SideError(f"side `{text}`: `{part}` is not `option=value`")
        given[key.strip()] = _option_value(game, key.strip(), value.strip())
    rummy.mechanic(game)  # the only mechanic whose contexts a diff knows
    return Side(text, game, given, game.resolve_options(given))


def _option_value(game: Game, name: str, text: str) -> Any:
    """Text as the option's type reads it; `resolve_options` then says whether it is allowed."""
    option = game.spec.options.get(name)
    if option is None or option.type == "enum":
        return text
    if option.type == "bool":
        return {"true": True, "false": False}.get(text.lower(), text)
    try:
        return int(text)
    except ValueError:
        raise OptionError(
            f"option `{name}`: `{text}` is not allowed: expected {option.allowed()}"
        ) from None


# --- what each side accepts -----------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """One condition of acceptance: a rule (by id) or a meld kind's shape."""

    label: str
    when: Any  # TypedExpr or None
    require: Any  # TypedExpr


def conditions(game: Game, check: Check) -> list[Condition]:
    rules = rummy.mechanic(game).rules
    if check.at == "after":
        return [
            Condition(r.spec.id, r.typed_when, r.typed_require)
            for r in rules.rules_at(check.checkpoint, "after")
        ]
    ids = {id(r.typed_require): r.spec.id for r in rules.rules_at(check.checkpoint)}
    return [
        Condition(ids.get(id(require), f"the shape of `{check.checkpoint}`"), when, require)
        for when, require in rummy.mechanic(game).acceptance(check.checkpoint)
    ]


def held(program: Any, condition: Condition, env: Mapping[str, Any]) -> BoolLike:
    """The condition holds and raises nothing: a rule whose evaluation fails rejects the move."""
    holds = encode_full(condition.require, env).holds
    if condition.when is None:
        return holds
    guard = encode_full(condition.when, env)
    return s_and(s_not(guard.error), s_implies(guard.value, holds))


def accepted(program: Any, conds: list[Condition], env: Mapping[str, Any]) -> BoolLike:
    return s_and(*(held(program, c, env) for c in conds))


@dataclass
class Judge:
    """One side at one checkpoint: its program (scope and definitions) and its conditions."""

    side: Side
    checkpoint: str
    program: Any
    conditions: list[Condition]

    def env(self, base: Mapping[str, Any]) -> dict[str, Any]:
        return {**base, "options": dict(self.side.options)}

    def accepts(self, base: Mapping[str, Any]) -> BoolLike:
        return accepted(self.program, self.conditions, self.env(base))

    def broken(self, base: Mapping[str, Any], model: z3.ModelRef) -> list[str]:
        env = self.env(base)
        return [c.label for c in self.conditions if not _true(held(self.program, c, env), model)]


def judge(side: Side, check: Check) -> Judge:
    program = rummy.mechanic(side.game).rules.programs[check.checkpoint]
    return Judge(side, check.checkpoint, program, conditions(side.game, check))


def _true(term: BoolLike, model: z3.ModelRef) -> bool:
    return term if isinstance(term, bool) else z3.is_true(model.eval(term, model_completion=True))


# --- results --------------------------------------------------------------------------------


@dataclass
class Finding:
    """One direction at one checkpoint: does side `accepts` accept what the other rejects?"""

    accepts: int  # 0: side A, 1: side B
    status: str = "agree"  # agree | differs | unknown
    sizes: int = 0  # sizes settled (no difference)
    size: int | None = None  # the card list's size in the difference
    situation: dict[str, Any] = field(default_factory=dict)
    broken: list[str] = field(default_factory=list)  # what the other side breaks
    scenario: Any = None  # diff_scenario.Witness
    no_scenario: str = ""  # why no scenario was built
    reason: str = ""  # why unknown


@dataclass
class Comparison:
    label: str
    check: Check | None = None
    findings: list[Finding] = field(default_factory=list)
    only: int | None = None  # the side that alone has this checkpoint
    problem: str = ""  # why the sides could not be compared here
    sizes: tuple[int | None, ...] = ()  # the sizes tried, (None,): no card list of its own
    listed: str = ""  # the card list whose sizes are tried: `cards`, `used`, ...
    reads: frozenset[Path] = frozenset()  # every name the compared conditions read
    seconds: float = 0.0

    @property
    def status(self) -> str:
        if self.only is not None or any(f.status == "differs" for f in self.findings):
            return "differs"
        if self.problem or any(f.status == "unknown" for f in self.findings):
            return "unknown"
        return "equivalent"


# --- comparing ------------------------------------------------------------------------------


@dataclass
class Pair:
    sides: tuple[Side, Side]
    max_cards: int = DEFAULT_MAX_CARDS
    rlimit: int = DEFAULT_RLIMIT

    @property
    def copies(self) -> int:
        return max(s.game.spec.pack_copies for s in self.sides)

    def checks(self) -> Iterator[Check | tuple[str, int]]:
        """Each checkpoint both sides judge (`after` only where either has rules there), or
        (checkpoint, side) for one only one side has."""
        a, b = (s.game for s in self.sides)
        names_b = rummy.checkpoints(b)
        seats = (min(a.spec.seats_min, b.spec.seats_min), max(a.spec.seats_max, b.spec.seats_max))
        moves = tuple(dict.fromkeys([*a.spec.moves, *b.spec.moves]))
        laying = tuple(dict.fromkeys([*rummy.laying_moves(a), *rummy.laying_moves(b)]))
        for name in rummy.checkpoints(a):
            if name not in names_b:
                yield name, 0
                continue
            role = rummy.role_of(a, name) or ""
            yield Check(name, role, "before", seats, moves, laying)
            if role == "move" and any(
                rummy.mechanic(g).rules.rules_at(name, "after") for g in (a, b)
            ):
                yield Check(name, role, "after", seats, moves, laying)
        yield from ((name, 1) for name in names_b if name not in rummy.checkpoints(a))


def shape_for(judges: list[Judge], check: Check, move_type: str | None = None) -> Shape:
    """The shape of the situations in which `judges` are asked, over all their names."""
    types = union_scope(j.program.scope for j in judges)
    read: set[Path] = set()
    for j in judges:
        nodes = [t.node for c in j.conditions for t in (c.when, c.require) if t is not None]
        read |= read_paths(j.program, nodes)
    move = move_type or (check.checkpoint if check.role == "move" else None)
    fields = (
        merge_fields(
            *(j.side.game.spec.moves[move].fields for j in judges if move in j.side.game.spec.moves)
        )
        if move
        else ()
    )
    return make_shape(check, types, read, fields)
