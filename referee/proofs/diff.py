"""`referee diff`: where two rule sets (two games, or one game with two option sets) differ, by z3.

For each checkpoint both sides judge (each move type before and after its effects, `take`, each
meld kind) and each size of its card list up to the bound, z3 looks for a situation that one side
accepts and the other rejects, both ways round:
- unsat at every size: the sides are proved to agree there, within the bound;
- sat: a difference, decoded into cards, the turned card and the context values; for a meld kind
  it is also turned into a runnable scenario, replayed through the engine (`diff_scenario`);
- unknown (z3's deterministic `rlimit` ran out): said so, never counted as agreement.
"Accepted at a checkpoint" means what it means to the prover: every condition the mechanic's
`acceptance` gives holds and none would raise. Situations respect the rummy facts
(`rummy_context`): they are ones a table can show, or at least ones no fact rules out.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

import z3

from referee.proofs.diff_context import ContextError, Shape, Situation, situation
from referee.proofs.diff_scenario import attach_scenario
from referee.proofs.diff_sides import (
    DEFAULT_MAX_CARDS,
    Comparison,
    Finding,
    Judge,
    Pair,
    Side,
    judge,
    parse_side,
    shape_for,
)
from referee.proofs.encode import EncodeError, decode
from referee.proofs.prover import DEFAULT_RLIMIT, _as_bool
from referee.proofs.rummy_context import Check
from referee.spec.expr.symbolic import s_not


def compare(pair: Pair, only: str | None = None) -> Iterator[Comparison]:
    for item in pair.checks():
        started = time.perf_counter()
        if isinstance(item, tuple):
            if only in (None, item[0]):
                yield Comparison(item[0], only=item[1])
            continue
        if only not in (None, item.checkpoint):
            continue
        comparison = compare_check(pair, item)
        comparison.seconds = time.perf_counter() - started
        yield comparison


def compare_check(pair: Pair, check: Check) -> Comparison:
    judges = [judge(side, check) for side in pair.sides]
    result = Comparison(check.label, check, [Finding(0), Finding(1)])
    try:
        shape = shape_for(judges, check)
    except ContextError as exc:
        result.problem = f"the contexts differ: {exc}"
        return result
    result.sizes = tuple(range(pair.max_cards + 1)) if shape.primary else (None,)
    result.listed = ".".join(shape.primary or ())
    result.reads = shape.paths
    try:
        _search(pair, shape, judges, result)
    except (EncodeError, ContextError) as exc:
        result.problem = f"cannot be encoded: {exc}"
    if check.role == "meld":
        _attach_scenarios(pair, check, result)
    return result


def _attach_scenarios(pair: Pair, check: Check, result: Comparison) -> None:
    for finding in result.findings:
        if finding.status != "differs":
            continue
        try:
            attach_scenario(pair, check, finding)
        except (EncodeError, ContextError) as exc:
            finding.no_scenario = f"the scenario question cannot be encoded: {exc}"


def _search(pair: Pair, shape: Shape, judges: list[Judge], result: Comparison) -> None:
    """Sizes in turn; each direction stops at its first difference or unknown."""
    open_ = [0, 1]
    for size in result.sizes:
        sit = situation(shape, size, pair.max_cards, pair.copies)
        for direction in list(open_):
            finding = result.findings[direction]
            if _ask(pair, shape, sit, judges[direction], judges[1 - direction], finding):
                finding.sizes += 1
            else:
                open_.remove(direction)
        if not open_:
            return


def _ask(pair: Pair, shape: Shape, sit: Situation, yes: Judge, no: Judge, finding: Finding) -> bool:
    """True when no situation of this size has `yes` accepting and `no` rejecting."""
    solver = z3.Solver()
    solver.set("rlimit", pair.rlimit)
    solver.add(*(_as_bool(d) for d in sit.domain))
    solver.add(_as_bool(yes.accepts(sit.env)), _as_bool(s_not(no.accepts(sit.env))))
    answer = solver.check()
    if answer == z3.unsat:
        return True
    if answer == z3.sat:
        model = solver.model()
        finding.status, finding.size = "differs", sit.size
        finding.situation = decode_situation(shape, sit.env, model)
        finding.broken = no.broken(sit.env, model)
    else:
        finding.status = "unknown"
        finding.reason = f"the solver gave up at {_size_text(sit.size)}"
    return False


def unexamined(pair: Pair, results: list[Comparison]) -> list[str]:
    """What differs between the sides outside every compared condition: options that only the
    mechanic or the scoring reads, and the mechanic's own sections of the specs."""
    read = {p[1] for c in results for p in c.reads if p[0] == "options" and len(p) > 1}
    if any(("options",) in c.reads for c in results):
        return []  # a condition reads the whole record: every option is compared
    a, b = pair.sides
    notes = [
        f"option `{name}`: `{a.options.get(name)}` / `{b.options.get(name)}`"
        for name in dict.fromkeys([*a.options, *b.options])
        if name not in read and a.options.get(name) != b.options.get(name)
    ]
    sections = dict.fromkeys([*a.game.spec.sections, *b.game.spec.sections])
    for section in sections:
        mine, theirs = (s.game.spec.sections.get(section) or {} for s in pair.sides)
        notes += [
            f"`{section}.{key}`"
            for key in dict.fromkeys([*mine, *theirs])
            if mine.get(key) != theirs.get(key)
        ]
    return notes


def decode_situation(shape: Shape, env: Mapping[str, Any], model: z3.ModelRef) -> dict[str, Any]:
    """The shown names' values in a model: `{"cards": ["7S", ...], "move.present": [...]}`."""
    shown = {}
    for path in shape.shown:
        value: Any = env
        for part in path:
            value = value[part]
        shown[".".join(path)] = _plain(decode(value, model))
    return shown


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (bool, int, str)):
        return value
    return str(value)  # a Card


def _size_text(size: int | None) -> str:
    return "this situation" if size is None else f"{size} card{'s' if size != 1 else ''}"


__all__ = [
    "DEFAULT_MAX_CARDS",
    "DEFAULT_RLIMIT",
    "Comparison",
    "Finding",
    "Pair",
    "Side",
    "compare",
    "compare_check",
    "parse_side",
    "unexamined",
]
