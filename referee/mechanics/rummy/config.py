"""The rummy sections of a spec (`rummy`, `meld_kinds`, `scoring`), read and compiled."""

from __future__ import annotations


from dataclasses import dataclass
from typing import Any, Callable, Mapping

from referee.cards import Card, codes
from referee.errors import SpecError
from referee.mechanics.rummy.melds import MeldKind
from referee.spec.option_types import options_type
from referee.model import Violation
from referee.spec.expr import BOOL, INT, ListType, Scope, parse
from referee.spec.rules import RULEBOOK_ID, RuleBook, SpecExpression, build_program, origin
from referee.spec.schema import GameSpec, Where, expression_at
from referee.spec.yamlsource import PathKey, format_path

# the mechanic's own verdicts, whose ids and sentences the spec gives (`rummy.violations`)
REQUIRED_VIOLATIONS = ("no_meld", "ambiguous_layoff", "steal", "empty_stock", "no_discard")
# The context of `rummy.match.reentry_score`: no rule judges it, so it is no checkpoint of the
# rule book; only definitions that name it in their `on:` reach it.
REENTRY = "reentry"


@dataclass(frozen=True)
class MatchRules:
    blow_at: int                   # PN-26: a total at or over this blows
    stake_option: str | None       # the option holding the entry stake (PN-30); 0 = no stakes
    drop_percent: int              # PN-31: of the stake, to whoever goes out
    doubling: bool                 # PN-30: each re-entry pays the stake doubled per earlier blow
    # PN-28: the spec's `rummy.match.reentry_score`, given the options and the scores still in
    reentry_score: Callable[[Mapping[str, Any], list[int]], int]

    def stake(self, options: Mapping[str, Any]) -> int:
        return int(options.get(self.stake_option, 0)) if self.stake_option else 0


@dataclass
class RummyConfig:
    hand_size: int
    packet_option: str | None
    packets: Mapping[str, int]
    bonus: Callable[[Mapping[str, Any]], int]  # per joker stolen from a seat's meld (PN-10)
    match: MatchRules
    claims: ClaimRules
    kinds: list[MeldKind]
    violations: Mapping[str, Violation]
    joker_test: Callable[[Mapping[str, Any]], bool]
    points: Callable[[Mapping[str, Any]], int]
    shapes: Mapping[str, tuple[str, Where]]  # kind -> its shape expression (for proofs)
    # the spec expressions the mechanic computes with, by dotted path (for proofs)
    expressions: Mapping[str, SpecExpression]

    @property
    def no_meld(self) -> Violation:
        return self.violations["no_meld"]

    @property
    def ambiguous(self) -> Violation:
        return self.violations["ambiguous_layoff"]

    def packet(self, options: Mapping[str, Any]) -> int:
        if self.packet_option is None:
            return 1
        return int(self.packets[options[self.packet_option]])

    def is_joker(self, options: Mapping[str, Any], turned: Card, card: Card) -> bool:
        return bool(self.joker_test({"options": options, "turned": turned, "c": card}))

    def hand_points(self, options: Mapping[str, Any], turned: Card, hand: list[Card], score: int) -> int:
        return int(self.points({"options": options, "turned": turned, "hand": hand, "score": score}))

    def windows(self, options: Mapping[str, Any]) -> bool:
        """Does a discard open a claim window at this table (TD-5)?"""
        rules = self.claims
        return rules.option is not None and options.get(rules.option) == rules.window_value

    def window_ms(self, options: Mapping[str, Any]) -> int:
        return int(options.get(self.claims.deadline_option or "", 0))

    def steal_bonus(self, options: Mapping[str, Any], turned: Card) -> int:
        return int(self.bonus({"options": options, "turned": turned, "hand": [], "score": 0}))

    def violation(self, name: str, cards: list[Card] | None = None) -> Violation:
        v = self.violations[name]
        return Violation(v.rule, v.message, v.cites, tuple(codes(cards or [])), name)


class _Reader:
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


def read_config(spec: GameSpec, rules: RuleBook) -> RummyConfig:
    reader = _Reader(spec)
    rummy = reader.section("rummy")
    hand_size = rummy.get("hand_size")
    if not isinstance(hand_size, int) or hand_size < 1:
        raise reader.error(("rummy", "hand_size"), "`hand_size` must be a positive integer")
    packet_option, packets = _read_packets(reader, rummy.get("packets"))
    scoring = reader.section("scoring")
    bonus = _checkpoint_expression(reader, rules, "scoring", ("rummy", "steal_bonus"),
                                   rummy.get("steal_bonus", 0))
    points = _checkpoint_expression(reader, rules, "scoring", ("scoring", "hand_points"),
                                    scoring.get("hand_points"))
    match, reentry = _read_match(reader, rummy.get("match"))
    return RummyConfig(
        hand_size=hand_size, packet_option=packet_option, packets=packets,
        bonus=bonus, match=match,
        claims=_read_claims(reader, rummy.get("claims")),
        kinds=_read_kinds(reader, rules),
        violations=_read_violations(reader, rummy.get("violations")),
        joker_test=rules.compile_expression("card", "is_joker(c)", reader.where(("definitions",)), BOOL),
        points=points,
        shapes={str(name): reader.expression(("meld_kinds", name, "shape"), body["shape"])
                for name, body in reader.section("meld_kinds").items()},
        expressions={e.path: e for e in (bonus, points, reentry)})


def _checkpoint_expression(reader: _Reader, rules: RuleBook, checkpoint: str, path: PathKey,
                           value: Any) -> SpecExpression:
    """An int expression of the spec over a checkpoint's context (`scoring.hand_points`)."""
    text, where = reader.expression(path, value)
    typed = rules.check_expression(checkpoint, text, where, INT)
    return SpecExpression(".".join(map(str, path)), checkpoint, typed, typed.compile())


@dataclass(frozen=True)
class ClaimRules:
    option: str | None           # the option choosing how claims are settled (TD-5)
    window_value: str            # its value that opens a window on each discard
    deadline_option: str | None  # the option holding the window's length in milliseconds


def _read_claims(reader: _Reader, raw: Any) -> ClaimRules:
    if raw is None:
        return ClaimRules(None, "", None)
    path: PathKey = ("rummy", "claims")
    if not isinstance(raw, dict) or not {"option", "window", "deadline"} <= set(raw):
        raise reader.error(path, "`rummy.claims` names `option`, its `window` value and the "
                           "`deadline` option (milliseconds)")
    for key in ("option", "deadline"):
        if raw[key] not in reader.spec.options:
            raise reader.error(path + (key,), f"unknown option `{raw[key]}`")
    return ClaimRules(str(raw["option"]), str(raw["window"]), str(raw["deadline"]))


def _read_match(reader: _Reader, raw: Any) -> tuple[MatchRules, SpecExpression]:
    path: PathKey = ("rummy", "match")
    if not isinstance(raw, dict) or not isinstance(raw.get("blow_at"), int):
        raise reader.error(path, "`rummy.match` needs `blow_at` (the total that blows, PN-26)")
    stake = raw.get("stake")
    if stake is not None and stake not in reader.spec.options:
        raise reader.error(path + ("stake",), f"unknown option `{stake}`")
    reentry = _reentry_expression(reader, raw.get("reentry_score"))
    rules = MatchRules(blow_at=raw["blow_at"], stake_option=stake,
                       drop_percent=int(raw.get("drop_percent", 0)),
                       doubling=bool(raw.get("reentry_doubling", False)),
                       reentry_score=_reentry_score(reentry))
    return rules, reentry


def _reentry_expression(reader: _Reader, value: Any) -> SpecExpression:
    """PN-28: `rummy.match.reentry_score`, the score a blown player comes back at, over
    `options` and `still_in` (the scores of the players still in, in seat order)."""
    path: PathKey = ("rummy", "match", "reentry_score")
    if value is None:
        raise reader.error(path[:-1], "`rummy.match` needs `reentry_score`: the score a blown "
                           "player comes back at (PN-28), an expression over `still_in`")
    text, where = reader.expression(path, value)
    scope = Scope({"options": options_type(reader.spec), "still_in": ListType(INT)})
    program = build_program([d for d in reader.spec.definitions if REENTRY in d.on], REENTRY,
                            scope)
    typed = program.check(parse(text, origin=origin(where)), expected=INT)
    return SpecExpression(".".join(map(str, path)), REENTRY, typed, typed.compile())


def _reentry_score(expression: SpecExpression) -> Callable[[Mapping[str, Any], list[int]], int]:
    """What `match.reenter` calls: the compiled expression over its context."""
    def reentry_score(options: Mapping[str, Any], still_in: list[int]) -> int:
        return int(expression({"options": options, "still_in": still_in}))
    return reentry_score


def _read_packets(reader: _Reader, raw: Any) -> tuple[str | None, dict[str, int]]:
    if raw is None:
        return None, {}
    if not isinstance(raw, dict) or "option" not in raw:
        raise reader.error(("rummy", "packets"), "`packets` names an option and a packet size per value")
    option = reader.spec.options.get(str(raw["option"]))
    if option is None:
        raise reader.error(("rummy", "packets", "option"), f"unknown option `{raw['option']}`")
    sizes = {k: v for k, v in raw.items() if k != "option"}
    for value in option.values:
        if not isinstance(sizes.get(value), int):
            raise reader.error(("rummy", "packets"), f"no packet size for `{option.name}: {value}`")
    return option.name, sizes


def _read_kinds(reader: _Reader, rules: RuleBook) -> list[MeldKind]:
    kinds = reader.section("meld_kinds")
    result = []
    for name, body in kinds.items():
        path: PathKey = ("meld_kinds", name)
        if not isinstance(body, dict) or not {"shape", "wild", "extend"} <= set(body):
            raise reader.error(path, f"meld kind `{name}` needs `shape`, `wild` and `extend`")
        if body["extend"] not in ("append", "ends"):
            raise reader.error(path + ("extend",), f"`extend` is `append` or `ends`, got `{body['extend']}`")
        misfit = _violation(reader, path + ("misfit",), body.get("misfit"))
        result.append(MeldKind(
            name=str(name), extend=str(body["extend"]), misfit=misfit,
            shape=rules.compile_expression(name, *reader.expression(path + ("shape",), body["shape"]), BOOL),
            wild=rules.compile_expression(name, *reader.expression(path + ("wild",), body["wild"]), BOOL)))
    return result


def _read_violations(reader: _Reader, raw: Any) -> dict[str, Violation]:
    path: PathKey = ("rummy", "violations")
    if not isinstance(raw, dict):
        raise reader.error(path, "`rummy.violations` gives an id, sources and a text for: "
                           + ", ".join(f"`{n}`" for n in REQUIRED_VIOLATIONS))
    result = {name: _violation(reader, path + (name,), body) for name, body in raw.items()}
    missing = [n for n in REQUIRED_VIOLATIONS if n not in result]
    if missing:
        raise reader.error(path, f"missing `{missing[0]}`")
    return result


def _violation(reader: _Reader, path: PathKey, body: Any) -> Violation:
    if not isinstance(body, dict) or not isinstance(body.get("id"), str):
        raise reader.error(path, "expected `{id: ..., source: [...], text: ...}`")
    text = body.get("text", "")
    message = text.get("en", "") if isinstance(text, dict) else str(text)
    sources = body.get("source") or []
    cites = tuple(str(s) for s in sources if RULEBOOK_ID.match(str(s)) and s != body["id"])
    return Violation(body["id"], message, cites)


__all__ = ["REENTRY", "RummyConfig", "read_config"]
