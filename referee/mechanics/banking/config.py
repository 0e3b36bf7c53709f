"""The `banking` section of a spec, read and compiled: sizes, the expressions the mechanic
computes with, and the ids and sentences of the mechanic's own verdicts."""

from __future__ import annotations

from typing import Any

from referee.errors import SpecError, SpecErrors
from referee.model import Violation
from referee.spec.expr import BOOL, INT
from referee.spec.rules import RULEBOOK_ID, RuleBook, SpecExpression
from referee.spec.schema import GameSpec, expression_at
from referee.spec.yamlsource import Located, PathKey

# the banking procedure as the spec may state it: two cards each, in two rounds, bets after the
# first (PO-3); the spec says so, or leaves it out, and is refused if it asks for another
SIZES = {"hand_size": 2, "bet_after_round": 1}
EXPRESSIONS = {"done": BOOL, "bust": BOOL, "rank": INT, "settle": INT,
               "banker_wins_at_once": BOOL, "instant": INT, "takes_bank": BOOL,
               "reshuffle": BOOL}
KITTY_EXPRESSIONS = {"shoot_settle": INT}  # only with a kitty: what the kitty pays a hand
# the mechanic's own verdicts, whose ids and sentences the spec gives (`banking.violations`)
REQUIRED_VIOLATIONS = ("split_pack_short",)


def read_config(spec: GameSpec, rules: RuleBook) -> dict[str, Any]:
    """Every `banking.*` value by its name: sizes as they are, expressions compiled over the
    `hand` checkpoint, `violations` by verdict name."""
    raw = spec.sections.get("banking")
    located = spec.located
    if not isinstance(raw, dict):
        raise SpecErrors([located.error(("banking",), "the banking mechanic needs a `banking` section")])
    sizes = [_size_error(located, raw, key, fixed) for key, fixed in SIZES.items()]
    if any(sizes):
        raise SpecErrors([error for error in sizes if error is not None])
    config: dict[str, Any] = dict(SIZES)
    config["kitty"] = bool(raw.get("kitty", False))
    wanted = {**EXPRESSIONS, **(KITTY_EXPRESSIONS if config["kitty"] else {})}
    try:
        for name, typ in wanted.items():
            config[name] = _expression(located, rules, raw, name, typ)
        config["violations"] = _read_violations(located, raw.get("violations"))
    except SpecError as exc:
        raise SpecErrors([exc]) from None
    return config


def _size_error(located: Located, raw: dict[str, Any], key: str, fixed: int) -> SpecError | None:
    if raw.get(key, fixed) == fixed and not isinstance(raw.get(key), bool):
        return None
    return located.error(("banking", key), f"the banking mechanic deals two cards each, in two "
                         f"rounds, and takes bets after the first: `banking.{key}` is {fixed}")


def _expression(located: Located, rules: RuleBook, raw: dict[str, Any], name: str,
                typ: Any) -> SpecExpression:
    if name not in raw:
        raise located.error(("banking",), f"`banking.{name}` is missing")
    text, where = expression_at(located, ("banking", name), raw[name])
    typed = rules.check_expression("hand", text, where, typ)
    return SpecExpression(f"banking.{name}", "hand", typed, typed.compile())


def _read_violations(located: Located, raw: Any) -> dict[str, Violation]:
    path: PathKey = ("banking", "violations")
    if not isinstance(raw, dict):
        raise located.error(path if raw is not None else ("banking",),
                            "`banking.violations` gives an id, sources and a text for: "
                            + ", ".join(f"`{n}`" for n in REQUIRED_VIOLATIONS))
    result = {str(name): _violation(located, path + (name,), name, body)
              for name, body in raw.items()}
    missing = [n for n in REQUIRED_VIOLATIONS if n not in result]
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


__all__ = ["read_config"]
