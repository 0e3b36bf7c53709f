"""Scenario and game-record files (`SCENARIOS.md`, `format: 1`): load and validate.

One format serves conformance scenarios (a setup, moves and the answers expected), game records
(the same without expectations) and golden transcript inputs. Loading checks the shape of the
file only; whether the deal fits the pack or the options exist is the engine's business
(`SetupError` / `OptionError` at table creation), and whether a move is legal is the verdict.
Every error names the file, the line and the step it is about.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from referee.bounds import first_beyond_int64
from referee.errors import InvalidArgument, shortened
from referee.model import DIRECTOR, DIRECTOR_NAME, JSON, Move
from referee.scenario import checks
from referee.scenario import fields as f

FORMAT_VERSION = 1

TOP_KEYS = (
    "format",
    "scenario",
    "game",
    "options",
    "seats",
    "dealer",
    "scores",
    "balances",
    "deal",
    "seed",
    "secret",
    "entropy",
    "names",
    "deal_commitment",
    "steps",
    # what an exported record carries besides (`referee export`, docs/records.md): read, not
    # judged by (`referee verify` checks them)
    "table",
    "rules_version",
    "salt",
    "decks",
    "result",
    "signature",
)
DEAL_KEYS = ("hands", "turned", "stock", "deck", "seed")
# `version`, `at` and `prev`: an exported record's (the version the move made, the server's
# time, the hash of the step before it)
STEP_KEYS = (
    "seat", "move", "expect", "rule", "check", "close_window", "deadline", "version", "at", "prev"
)  # fmt: skip
# the table's deadline passes: `deadline`, or `close_window`, its name from when only claim
# windows had one (records are written with it)
DEADLINE_STEPS = ("close_window", "deadline")


class ScenarioError(InvalidArgument):
    """A scenario or record that cannot be run as written, located by file, line and step."""

    code = "invalid_scenario"

    def __init__(
        self, message: str, *, source: str = "<record>", line: int = 0, step: int = 0
    ) -> None:
        message = shortened(message)  # it may quote the record, which anyone may send
        self.source, self.line, self.step, self.detail = source, line, step, message
        where = f"{source}:{line}" if line else source
        text = f"{where}: step {step}: {message}" if step else f"{where}: {message}"
        super().__init__(text)


class Expect(str, Enum):
    ACCEPT = "accept"
    REJECT = "reject"
    PENDING = "pending"


@dataclass(frozen=True)
class Where:
    """The place of a step: the file, its 1-based position in `steps`, its line (0: unknown)."""

    source: str
    step: int
    line: int = 0

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: step {self.step}"


@dataclass(frozen=True)
class MoveStep:
    """`{seat, move, expect?, rule?}`: a seat proposes a move; without `expect` it is just applied.
    `seat: director`: the director's ruling on a dispute (its seat is `DIRECTOR`)."""

    where: Where
    seat: int
    move: Move
    expect: Expect | None = None
    rule: str | None = None

    def describe(self) -> str:
        who = DIRECTOR_NAME if self.seat == DIRECTOR else f"seat {self.seat}"
        return f"{who} `{self.move.type}`"


@dataclass(frozen=True)
class CheckStep:
    """`{check: {key: expected, ...}}`: assertions on the state at this point (see `checks`)."""

    where: Where
    checks: Mapping[str, JSON]

    def describe(self) -> str:
        return "check"


@dataclass(frozen=True)
class CloseWindowStep:
    """`{close_window: true}` or `{deadline: true}`: the table's deadline passes (virtual clock):
    an open claim window closes, or the seats the play clock waits for run out of time."""

    where: Where

    def describe(self) -> str:
        return "close_window"


Step = MoveStep | CheckStep | CloseWindowStep


@dataclass(frozen=True)
class Setup:
    """What a table is created from. Seat keys are ints; card codes stay as written."""

    game: str
    seats: int
    dealer: int = 0
    options: Mapping[str, JSON] = field(default_factory=dict)
    seed: int | None = None
    deal: Mapping[str, JSON] | None = None
    scores: Mapping[int, int] | None = None
    balances: Mapping[int, int] | None = None
    secret: str | None = None  # a fair table's revealed secret (docs/fair-deal.md)
    entropy: str | None = None  # its creator's entropy
    names: Mapping[int, str] | None = None  # the seats' display names (labels, never judged)


@dataclass(frozen=True)
class Scenario:
    source: str
    name: str
    setup: Setup
    steps: tuple[Step, ...]

    @property
    def is_record(self) -> bool:
        """True when nothing is expected: no `expect`, no `check` (a plain game record)."""
        return not any(
            isinstance(s, CheckStep) or (isinstance(s, MoveStep) and s.expect) for s in self.steps
        )


# --- loading -------------------------------------------------------------------------------


def load_file(path: str | Path) -> Scenario:
    """Load one scenario or record file; every error carries the file name."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror or exc}", source=source) from exc
    return load_text(text, source)


def load_text(text: str, source: str = "<record>") -> Scenario:
    data, lines = _parse_yaml(text, source)
    return load_data(data, source, lines)


def load_data(data: Any, source: str = "<record>", lines: list[int] | None = None) -> Scenario:
    """Validate already-parsed data (a record sent over gRPC, say); `lines` locate the steps."""
    if not isinstance(data, Mapping):
        raise ScenarioError(
            "expected a mapping with `format`, `game`, `seats` and `steps`", source=source
        )
    _check_keys(data, TOP_KEYS, "top-level key", source)
    _check_format(data, source)
    _check_numbers(data, source, lines or [])
    setup = _read_setup(data, source)
    steps = _read_steps(data.get("steps"), setup.seats, source, lines or [])
    name = data.get("scenario", Path(source).stem)
    if not isinstance(name, str) or not name:
        raise ScenarioError("`scenario` must be a non-empty name", source=source)
    return Scenario(source=source, name=name, setup=setup, steps=steps)


# A record comes from anyone (Adjudicate): it is read within these bounds, without aliases (a
# few hundred bytes of nested aliases expand to gigabytes).
MAX_RECORD_CHARS = 16 * 1024 * 1024
MAX_DEPTH = 32  # nesting of mappings and lists: a record needs about 6
MAX_STEPS = 200_000


# libyaml where PyYAML has it (every wheel of the usual platforms): four times faster
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _parse_yaml(text: str, source: str) -> tuple[Any, list[int]]:
    """The document and the 1-based line of each item of its `steps` list."""
    if len(text) > MAX_RECORD_CHARS:
        raise ScenarioError(
            f"the record is longer than {MAX_RECORD_CHARS} characters", source=source
        )
    loader = None
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
        _check_nodes(node, source)
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScenarioError(f"not valid YAML: {problem}", source=source, line=line) from exc
    except ValueError as exc:  # a value Python will not build: an integer of 5,000 digits
        raise ScenarioError(f"a value cannot be read: {exc}", source=source) from exc
    except RecursionError as exc:  # nesting PyYAML's own composer could not follow
        raise ScenarioError(f"nested deeper than {MAX_DEPTH}", source=source) from exc
    finally:
        if loader is not None:
            loader.dispose()
    return data, _step_lines(node)


def _check_nodes(root: yaml.Node | None, source: str) -> None:
    """No alias (a node met twice: an alias is the node it names) and no nesting deeper than
    MAX_DEPTH, before anything is built from the nodes."""
    seen: set[int] = set()
    stack = [(root, 1)] if root is not None else []
    while stack:
        node, depth = stack.pop()
        line = node.start_mark.line + 1
        if id(node) in seen:
            raise ScenarioError(
                "aliases (`*name`) are not allowed in a record", source=source, line=line
            )
        if depth > MAX_DEPTH:
            raise ScenarioError(f"nested deeper than {MAX_DEPTH}", source=source, line=line)
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack += [(child, depth + 1) for child in node.value]
        elif isinstance(node, yaml.MappingNode):
            stack += [(part, depth + 1) for pair in node.value for part in pair]


def _step_lines(node: yaml.Node | None) -> list[int]:
    if not isinstance(node, yaml.MappingNode):
        return []
    for key, value in node.value:
        if key.value == "steps" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


def _check_keys(
    data: Mapping[Any, Any],
    allowed: tuple[str, ...],
    what: str,
    source: str,
    line: int = 0,
    step: int = 0,
) -> None:
    for key in data:
        if key not in allowed:
            raise ScenarioError(
                f"unknown {what} `{key}`: expected one of {_ticked(allowed)}",
                source=source,
                line=line,
                step=step,
            )


def _check_numbers(data: Mapping[str, Any], source: str, lines: list[int]) -> None:
    """No number beyond the 64-bit range anywhere: a seed, an option, a move's field."""
    found = first_beyond_int64(data)
    if found is None:
        return
    step = found.step
    line = lines[step - 1] if 0 < step <= len(lines) else 0
    raise ScenarioError(found.message, source=source, line=line, step=step)


def _check_format(data: Mapping[str, Any], source: str) -> None:
    if "format" not in data:
        raise ScenarioError(
            f"missing `format`: this reader knows `format: {FORMAT_VERSION}`", source=source
        )
    if data["format"] != FORMAT_VERSION or isinstance(data["format"], bool):
        raise ScenarioError(
            f"unsupported format `{data['format']}`: this reader knows `format: {FORMAT_VERSION}`",
            source=source,
        )


# --- setup ---------------------------------------------------------------------------------


def _read_setup(data: Mapping[str, Any], source: str) -> Setup:
    def read(key: str, parse: Callable[[Any, str], Any], default: Any = None) -> Any:
        if data.get(key) is None:
            return default
        try:
            return parse(data[key], key)
        except f.FieldError as exc:
            raise ScenarioError(str(exc), source=source) from exc

    for key in ("game", "seats"):
        if data.get(key) is None:
            raise ScenarioError(f"missing `{key}`", source=source)
    game, seats = read("game", f.name), read("seats", f.count)
    dealer = read("dealer", f.seat_in(seats), 0)
    deal = read("deal", _deal_of(seats))
    seed = read("seed", f.integer)
    secret = read("secret", f.text)
    _check_commitment(secret, read("deal_commitment", f.text), source)
    if deal is not None and "seed" in deal:
        seed = _one_seed(seed, deal.pop("seed"), source)
    return Setup(
        game=game,
        seats=seats,
        dealer=dealer,
        options=read("options", f.options, {}),
        seed=seed,
        deal=deal or None,
        scores=read("scores", f.seat_map(seats)),
        balances=read("balances", f.seat_map(seats)),
        secret=secret,
        entropy=read("entropy", f.text),
        names=read("names", f.keyed(f.seat_in(seats), f.text)),
    )


def _check_commitment(secret: str | None, commitment: str | None, source: str) -> None:
    """A fair table's record replays from its revealed secret, which must be the one committed."""
    if commitment is None:
        return
    if secret is None:
        raise ScenarioError(
            "a fair table still in play: its record has a `deal_commitment` "
            "but no `secret` yet (revealed when the game is over)",
            source=source,
        )
    try:
        digest = hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    except ValueError:
        digest = ""
    if digest != commitment.lower():
        raise ScenarioError("`secret` does not match `deal_commitment`", source=source)


def _one_seed(top: int | None, in_deal: int, source: str) -> int:
    if top is not None and top != in_deal:
        raise ScenarioError("two different seeds: `seed` and `deal.seed`", source=source)
    return in_deal


def _deal_of(seats: int) -> Callable[[Any, str], dict[str, JSON]]:
    parsers: dict[str, Callable[[Any, str], Any]] = {
        "hands": f.seat_cards(seats),
        "turned": f.card,
        "stock": f.cards,
        "deck": f.cards,
        "seed": f.integer,
    }

    def parse(value: Any, key: str) -> dict[str, JSON]:
        if not isinstance(value, Mapping):
            raise f.FieldError(
                f"`{key}` must be a mapping of {_ticked(DEAL_KEYS)}, or give `seed: N` instead"
            )
        deal: dict[str, JSON] = {}
        for name, item in value.items():
            if name not in parsers:
                raise f.FieldError(
                    f"unknown key `{key}.{name}`: expected one of {_ticked(DEAL_KEYS)}"
                )
            deal[name] = parsers[name](item, f"{key}.{name}")
        return deal

    return parse


# --- steps ---------------------------------------------------------------------------------


def _read_steps(value: Any, seats: int, source: str, lines: list[int]) -> tuple[Step, ...]:
    if not isinstance(value, list):
        raise ScenarioError("`steps` must be a list of steps", source=source)
    if len(value) > MAX_STEPS:
        raise ScenarioError(
            f"a record has at most {MAX_STEPS} steps, not {len(value)}", source=source
        )
    steps = []
    for number, item in enumerate(value, start=1):
        line = lines[number - 1] if number - 1 < len(lines) else 0
        where = Where(source, number, line)
        try:
            steps.append(_read_step(item, seats, where))
        except f.FieldError as exc:
            raise ScenarioError(str(exc), source=source, line=line, step=number) from exc
    return tuple(steps)


def _read_step(item: Any, seats: int, where: Where) -> Step:
    if not isinstance(item, Mapping):
        raise f.FieldError(
            "a step is a mapping: `{seat, move, expect}`, `{check}` or `{deadline: true}`"
        )
    _check_keys(item, STEP_KEYS, "step key", where.source, where.line, where.step)
    kinds = [k for k in ("move", "check", *DEADLINE_STEPS) if k in item]
    if len(kinds) != 1:
        raise f.FieldError("a step has exactly one of `move`, `check` or `deadline`")
    if kinds[0] == "move":
        return _read_move_step(item, seats, where)
    _only(item, kinds[0], *(RECORDED if kinds[0] in DEADLINE_STEPS else ()))
    if kinds[0] == "check":
        return CheckStep(where, checks.read(item["check"], seats))
    if item[kinds[0]] is not True:
        raise f.FieldError(f"`{kinds[0]}` must be `true`")
    return CloseWindowStep(where)


RECORDED = ("version", "at", "prev")  # what a record says of a step besides the move


def _only(item: Mapping[str, Any], key: str, *also: str) -> None:
    extra = [k for k in item if k != key and k not in also]
    if extra:
        raise f.FieldError(f"a `{key}` step takes no {_ticked(tuple(extra))}")


def _read_move_step(item: Mapping[str, Any], seats: int, where: Where) -> MoveStep:
    if "seat" not in item:
        raise f.FieldError("a move step needs the `seat` that proposes it")
    seat = DIRECTOR if item["seat"] == DIRECTOR_NAME else f.seat_in(seats)(item["seat"], "seat")
    expect = _expect(item.get("expect"))
    rule = item.get("rule")
    if rule is not None and (not isinstance(rule, str) or not rule):
        raise f.FieldError(f"`rule` must be one rule id such as `PN-12`, got `{rule}`")
    if rule is not None and expect is not Expect.REJECT:
        raise f.FieldError("`rule` goes with `expect: reject`")
    return MoveStep(where, seat, f.move(item["move"]), expect, rule)


def _expect(value: Any) -> Expect | None:
    if value is None:
        return None
    try:
        return Expect(value)
    except ValueError:
        raise f.FieldError(
            f"`expect` must be one of {_ticked(tuple(e.value for e in Expect))}, got `{value}`"
        ) from None


def _ticked(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names)
