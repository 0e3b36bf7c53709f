"""The `banking` section of a spec, read and compiled: sizes, the expressions the mechanic
computes with, the optional parts the spec selects, and the ids and sentences of the
mechanic's own verdicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import SpecError, SpecErrors
from referee.mechanics.banking.kitty import Kitty, KittyPart, NoKitty
from referee.model import Violation
from referee.spec.clock_options import CLOCK
from referee.spec.expr import BOOL, INT, Type
from referee.spec.rules import RULEBOOK_ID, RuleBook, SpecExpression
from referee.spec.schema import GameSpec, expression_at
from referee.spec.sections import ANY, VERDICT, Shape
from referee.spec.yamlsource import Located, PathKey

# the banking procedure as the spec may state it: two cards each, in two rounds, bets after the
# first; the spec says so, or leaves it out, and is refused if it asks for another
SIZES = {"hand_size": 2, "bet_after_round": 1}
# what every banking game states: when a hand is over by itself, when it is bust, what the
# banker pays a hand still standing (negative: the hand pays the banker), and which finished
# hand has the pack shuffled for the next (no default fits every game: `true`, each hand)
EXPRESSIONS: dict[str, Type] = {"done": BOOL, "bust": BOOL, "settle": INT, "reshuffle": BOOL}
# what a game may state; left out, it never happens: the banker never wins at once, the bank
# never passes to a player (`rank` is what proofs compare hands by), a player leaving the hand
# before its bet pays nothing (a game with a play clock must state it: `_clock_needs`)
OPTIONAL_EXPRESSIONS: dict[str, Type] = {
    "rank": INT,
    "banker_wins_at_once": BOOL,
    "takes_bank": BOOL,
    "forfeit_before_bet": INT,
}
# GEN-10: the first card is dealt before the bets, so a player whose time runs out before it
# bets has seen a card of the hand; a game whose tables have a play clock says what that costs
CLOCK_NEEDS = ("forfeit_before_bet",)
AT_ONCE_EXPRESSIONS: dict[str, Type] = {"instant": INT}  # with `banker_wins_at_once`: each pays
KITTY_EXPRESSIONS: dict[str, Type] = {"shoot_settle": INT}  # the kitty part (`banking.kitty`)
# the mechanic's own verdicts, whose ids and sentences the spec gives (`banking.violations`),
# needed by a spec that declares the move giving them
VIOLATIONS_OF_MOVES = {"split": ("split_pack_short",)}
KITTY_MOVE = "kitty"  # the banker's move that puts up the kitty: with the kitty part only

SECTION_SHAPE: Mapping[str, Shape] = {
    key: None for key in (*SIZES, *EXPRESSIONS, *OPTIONAL_EXPRESSIONS, *AT_ONCE_EXPRESSIONS)
} | {"kitty": {key: None for key in KITTY_EXPRESSIONS}, "violations": {ANY: VERDICT}}


def kitty_selected(spec: GameSpec) -> bool:
    """Does the spec select the kitty part (`banking.kitty`)?"""
    raw = spec.sections.get("banking")
    return isinstance(raw, dict) and "kitty" in raw


def read_config(spec: GameSpec, rules: RuleBook) -> dict[str, Any]:
    """Every `banking.*` value by its name: sizes as they are, expressions compiled over the
    `hand` checkpoint (None: left out), `kitty` the kitty part, `violations` by verdict name."""
    raw = spec.sections.get("banking")
    located = spec.located
    if not isinstance(raw, dict):
        raise SpecErrors(
            [located.error(("banking",), "the banking mechanic needs a `banking` section")]
        )
    sizes = [_size_error(located, raw, key, fixed) for key, fixed in SIZES.items()]
    if any(sizes):
        raise SpecErrors([error for error in sizes if error is not None])
    config: dict[str, Any] = dict(SIZES)
    try:
        _clock_needs(spec, raw)
        for name, typ in EXPRESSIONS.items():
            config[name] = _expression(located, rules, raw, ("banking", name), typ)
        for name, typ in OPTIONAL_EXPRESSIONS.items():
            config[name] = (
                _expression(located, rules, raw, ("banking", name), typ) if name in raw else None
            )
        for name, typ in AT_ONCE_EXPRESSIONS.items():
            config[name] = _at_once(located, rules, raw, name, typ, config["banker_wins_at_once"])
        config["kitty"] = _kitty(spec, rules, raw)
        wanted = [
            v for move, names in VIOLATIONS_OF_MOVES.items() if move in spec.moves for v in names
        ]
        config["violations"] = _read_violations(located, raw.get("violations"), wanted)
    except SpecError as exc:
        raise SpecErrors([exc]) from None
    return config


def _at_once(
    located: Located,
    rules: RuleBook,
    raw: dict[str, Any],
    name: str,
    typ: Type,
    wins: SpecExpression | None,
) -> SpecExpression | None:
    """What the players pay when the banker wins at once: stated with that condition only (one
    left without it would be read and never used)."""
    if wins is not None:
        return _expression(located, rules, raw, ("banking", name), typ)
    if name in raw:
        raise located.error(
            ("banking", name),
            f"`banking.{name}` is paid when the banker wins at "
            "once: state when with `banking.banker_wins_at_once`",
        )
    return None


def _kitty(spec: GameSpec, rules: RuleBook, raw: dict[str, Any]) -> KittyPart:
    """The kitty part, when the spec selects it; the banker's `kitty` move goes with it."""
    located = spec.located
    if "kitty" not in raw:
        if KITTY_MOVE in spec.moves:
            raise located.error(
                ("moves", KITTY_MOVE),
                "the move `kitty` puts up the kitty: select the kitty part with `banking.kitty`",
            )
        return NoKitty()
    if not isinstance(raw["kitty"], dict):
        raise located.error(
            ("banking", "kitty"),
            "`banking.kitty` selects the kitty part: give its "
            + ", ".join(f"`{n}`" for n in KITTY_EXPRESSIONS),
        )
    if KITTY_MOVE not in spec.moves:
        raise located.error(
            ("banking", "kitty"), "a game with a kitty needs the banker's move `kitty` to put it up"
        )
    settle = _expression(located, rules, raw["kitty"], ("banking", "kitty", "shoot_settle"), INT)
    return Kitty(settle)


def _clock_needs(spec: GameSpec, raw: dict[str, Any]) -> None:
    """A game with a play clock (`clock:`) states what leaving the hand before the bet costs."""
    if not isinstance(spec.located.data, dict) or CLOCK not in spec.located.data:
        return
    for name in CLOCK_NEEDS:
        if name not in raw:
            raise spec.located.error(
                ("banking",),
                f"a game with a play clock states `banking.{name}`: what a player whose time "
                "runs out after its first card and before its bet pays the banker (GEN-10)",
            )


def _size_error(located: Located, raw: dict[str, Any], key: str, fixed: int) -> SpecError | None:
    if raw.get(key, fixed) == fixed and not isinstance(raw.get(key), bool):
        return None
    return located.error(
        ("banking", key),
        f"the banking mechanic deals two cards each, in two "
        f"rounds, and takes bets after the first: `banking.{key}` is {fixed}",
    )


def _expression(
    located: Located, rules: RuleBook, raw: dict[str, Any], path: PathKey, typ: Type
) -> SpecExpression:
    name = str(path[-1])
    dotted = ".".join(map(str, path))
    if name not in raw:
        raise located.error(path[:-1], f"`{dotted}` is missing")
    text, where = expression_at(located, path, raw[name])
    typed = rules.check_expression("hand", text, where, typ)
    return SpecExpression(dotted, "hand", typed, typed.compile())


def _read_violations(located: Located, raw: Any, wanted: list[str]) -> dict[str, Violation]:
    path: PathKey = ("banking", "violations")
    if raw is None and not wanted:
        return {}
    if not isinstance(raw, dict):
        raise located.error(
            path if raw is not None else ("banking",),
            "`banking.violations` gives an id, sources and a text for: "
            + ", ".join(f"`{n}`" for n in wanted),
        )
    result = {
        str(name): _violation(located, path + (name,), name, body) for name, body in raw.items()
    }
    missing = [n for n in wanted if n not in result]
    if missing:
        raise located.error(path, f"`banking.violations` is missing `{missing[0]}`")
    return result


def _violation(located: Located, path: PathKey, name: str, body: Any) -> Violation:
    """One named verdict: its id, the rulebook ids it cites, its sentence; `code` is its name."""
    if not isinstance(body, dict) or not isinstance(body.get("id"), str):
        raise located.error(path, "expected `{id: ..., source: [...], text: ...}`")
    text = body.get("text", "")
    message = text.get("en", "") if isinstance(text, dict) else str(text)
    if not message:
        raise located.error(path, f"verdict `{name}` needs a `text` for players")
    sources = body.get("source") or []
    cites = tuple(str(s) for s in sources if RULEBOOK_ID.match(str(s)) and s != body["id"])
    return Violation(body["id"], message, cites, code=str(name))


__all__ = ["SECTION_SHAPE", "kitty_selected", "read_config"]
