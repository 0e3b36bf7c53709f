"""The shape of a game spec, read from located YAML into frozen values.

Reading never stops at the first problem: every error is collected (file:line:col and key path)
and raised together as `SpecErrors`, so `referee check-spec` can list them all.
The sections a mechanic owns (`rummy`, `meld_kinds`, `scoring`, ...) are kept as raw data here and
read by that mechanic, which reports its errors the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, PackKind, pack
from referee.errors import CardError, SpecError, SpecErrors
from referee.model import SAFE_INTEGER
from referee.spec.clock_options import CLOCK, clock_options
from referee.spec.expr import Type, parse_signature
from referee.spec.fixes import FIX_KINDS
from referee.spec.options import OPTION_TYPES, Option
from referee.spec.proofs_file import SECTION as PROPERTIES
from referee.spec.proofs_file import misplaced
from referee.spec.sections import nearest
from referee.spec.texts import read_languages, translation_errors
from referee.spec.yamlsource import Located, PathKey, format_path

# `properties` are no key of a rules file: they belong in the proofs file beside it
# (`referee.spec.proofs_file`), and a rules file that writes them is told so
KNOWN_KEYS = {
    "format",
    "game",
    "title",
    "source",
    "mechanics",
    "seats",
    "pack",
    "options",
    "definitions",
    "moves",
    "rules",
    "extends",
    "note",
    "option_rules",
    "languages",
    "words",
    "groups",
    "clock",  # the play clock (`referee.engine.auto_moves`)
    "house",  # the moves the table plays for a house seat (`referee.engine.auto_moves`)
}
RULE_KEYS = {"id", "source", "on", "at", "when", "require", "text", "note", "say", "fix"}


@dataclass(frozen=True)
class Where:
    """Where a value sits in its spec: used as the origin of its expressions and errors."""

    file: str
    line: int
    column: int
    path: str
    indent: int = 0  # for an expression: the column its continuation lines are indented by


@dataclass(frozen=True)
class DefinitionSpec:
    name: str
    params: tuple[tuple[str, Type], ...]  # read by the expression language's type parser
    body: str
    on: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class FixSpec:
    """How to mend a move that breaks the rule: a kind of `referee.spec.fixes` and, for each of
    its values, an expression of the checkpoint's context (`fix: {kind: play_one_of, cards: ...}`)."""

    kind: str
    values: Mapping[str, tuple[str, Where]]
    where: Where


@dataclass(frozen=True)
class RuleSpec:
    id: str
    source: tuple[str, ...]
    on: tuple[str, ...]
    at: str  # "before" the move's effects, or "after"
    when: str | None
    require: str
    text: Mapping[str, str]
    where: Where
    when_where: Where | None = None
    on_where: Where | None = None
    note: str = ""
    # values shown in the sentence: `{low}` in the text is the value of the expression `say.low`
    say: Mapping[str, tuple[str, Where]] = field(default_factory=dict)
    fix: FixSpec | None = None  # how to mend a move that breaks it, where the rule can tell

    def sentence(self, language: str = "en") -> str:
        return self.text.get(language) or self.text.get("en") or self.id


@dataclass(frozen=True)
class FieldSpec:
    """A move field: `type` is `card`, `cards`, `int`, `list_of_cards`, `enum`,
    a record (`fields`), or a list of records (`list` + `fields`)."""

    name: str
    type: str
    optional: bool = False
    values: tuple[str, ...] = ()
    fields: tuple[FieldSpec, ...] = ()


@dataclass(frozen=True)
class MoveSpec:
    """A move of the spec: its name (what clients send, verdicts and records show), its fields,
    its sentence, and the handler of the mechanic that makes it (`does:`; left out, the
    handler of the same name)."""

    type: str
    fields: tuple[FieldSpec, ...]
    text: Mapping[str, str] = field(default_factory=dict)
    does: str = ""
    handler: str = field(init=False)  # the name of the mechanic's handler it maps to

    def __post_init__(self) -> None:
        object.__setattr__(self, "handler", self.does or self.type)


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: Mapping[str, str]
    source: tuple[str, ...]
    mechanics: str
    seats_min: int
    seats_max: int
    pack_kind: str
    pack_copies: int
    options: Mapping[str, Option]
    definitions: tuple[DefinitionSpec, ...]
    moves: Mapping[str, MoveSpec]
    rules: tuple[RuleSpec, ...]
    sections: Mapping[str, Any]  # mechanic-owned sections, raw
    located: Located
    pack_without: tuple[str, ...] = ()  # cards taken out of the full pack
    languages: tuple[str, ...] = ("en",)  # what its sentences are written in, English first
    # the words a sentence may show (`{led}`: `swords`), in its other languages: word -> lang -> word
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # named lists of moves or checkpoints for `on:` (`plays: [play, lead]`), already expanded there
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def declares(self, handler: str) -> bool:
        """Does a move of the spec make the mechanic's move `handler` (by its name or `does:`)?"""
        return any(move.handler == handler for move in self.moves.values())

    def pack(self) -> list[Card]:
        """The game's cards, in the pack's fixed order."""
        return pack(self.pack_kind, self.pack_copies, self.pack_without)


def _read_pack_without(reader: SpecReader, pack: Any) -> tuple[str, ...]:
    if not isinstance(pack, dict) or pack.get("without") is None:
        return ()
    codes = reader.strings(pack["without"], ("pack", "without"))
    kind = (
        PackKind(pack.get("kind", "french"))
        if pack.get("kind") in ("french", "tarot")
        else PackKind.FRENCH
    )
    for index, code in enumerate(codes):
        try:
            Card.parse(code, kind)
        except CardError as exc:
            reader.error(("pack", "without", index), exc.message)
    return codes


class SpecReader:
    """Reads one located spec, collecting errors instead of stopping at the first."""

    def __init__(self, located: Located) -> None:
        self.located = located
        self.errors: list[SpecError] = []
        self.groups: dict[str, tuple[str, ...]] = {}  # `groups:`, read before any `on:`

    def error(self, path: PathKey, message: str, at_key: bool = False) -> None:
        self.errors.append(self.located.error(path, message, at_key))

    def where(self, path: PathKey) -> Where:
        line, column = self.located.where(path)
        return Where(self.located.file_of(path), line, column, format_path(path))

    def expression(self, path: PathKey, value: Any) -> tuple[str, Where]:
        """An expression's text as written (line breaks kept) and where it starts."""
        return expression_at(self.located, path, value)

    def expect(self, value: Any, kind: type | tuple[type, ...], path: PathKey, what: str) -> bool:
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return True
        self.error(path, f"{what} must be {_kind_name(kind)}, got `{value!r}`")
        return False

    def texts(self, value: Any, path: PathKey) -> dict[str, str]:
        if value is None:
            return {}
        if isinstance(value, str):
            return {"en": value}
        if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            return {str(k): v for k, v in value.items()}
        self.error(path, "a text is a sentence or a map of language to sentence")
        return {}

    def strings(self, value: Any, path: PathKey) -> tuple[str, ...]:
        if value is None:
            return ()
        if isinstance(value, str):
            return (value,)
        if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
            return tuple(str(v) for v in value)
        self.error(path, "expected a name or a list of names")
        return ()

    def checkpoints(self, value: Any, path: PathKey) -> tuple[str, ...]:
        """An `on:`: names of moves or checkpoints, each group name standing for its members."""
        names: list[str] = []
        for name in self.strings(value, path):
            for member in self.groups.get(name, (name,)):
                if member not in names:
                    names.append(member)
        return tuple(names)


def read_groups(reader: SpecReader, raw: Any, moves: Any) -> dict[str, tuple[str, ...]]:
    """`groups: {plays: [play, lead]}`: a name for moves or checkpoints that rules judge together,
    so that `on: plays` stands for `on: [play, lead]`."""
    if raw is None or not reader.expect(raw, dict, ("groups",), "`groups`"):
        return {}
    result: dict[str, tuple[str, ...]] = {}
    for name, members in raw.items():
        path: PathKey = ("groups", name)
        names = reader.strings(members, path)
        if isinstance(moves, dict) and name in moves:
            reader.error(path, f"group `{name}` has the name of a move", at_key=True)
        elif not names:
            reader.error(path, f"group `{name}` names no move or checkpoint")
        elif any(n in raw for n in names):
            reader.error(path, f"group `{name}` names a group: list its moves instead")
        else:
            result[str(name)] = names
    return result


def expression_at(located: Located, path: PathKey, value: Any) -> tuple[str, Where]:
    if isinstance(value, bool):
        value = "true" if value else "false"
    scalar = located.scalar(path, value)
    return scalar.text, Where(
        located.file_of(path), scalar.line, scalar.column, format_path(path), scalar.indent
    )


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {
        dict: "a mapping",
        list: "a list",
        str: "text",
        int: "an integer",
        bool: "true or false",
    }
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def read_spec(
    located: Located, mechanic_sections: set[str]
) -> tuple[GameSpec | None, list[SpecError]]:
    """The spec's common parts; mechanic sections are passed through raw."""
    reader = SpecReader(located)
    data = located.data
    if not reader.expect(data, dict, (), "a spec"):
        return None, reader.errors
    for key in data:
        if key == PROPERTIES:
            reader.error((key,), misplaced(located.file_of((key,))), at_key=True)
        elif key not in KNOWN_KEYS | mechanic_sections:
            reader.error(
                (key,), _unknown_section(str(key), KNOWN_KEYS | mechanic_sections), at_key=True
            )
    if data.get("format") != 1:
        reader.error(("format",), "a spec starts with `format: 1`")
    name = data.get("game")
    reader.expect(name, str, ("game",), "`game`")
    seats = data.get("seats", {})
    seats_min, seats_max = _read_seats(reader, seats)
    pack = data.get("pack", {})
    if reader.expect(pack, dict, ("pack",), "`pack`") and pack.get("kind") not in (
        "french",
        "tarot",
    ):
        reader.error(
            ("pack", "kind"),
            f"unknown pack kind `{pack.get('kind')}`: expected `french` or `tarot`",
        )
    languages, language_errors = read_languages(located)
    reader.groups = read_groups(reader, data.get("groups"), data.get("moves"))
    spec = GameSpec(
        name=str(name),
        title=reader.texts(data.get("title"), ("title",)),
        source=reader.strings(data.get("source"), ("source",)),
        mechanics=str(data.get("mechanics", "")),
        seats_min=seats_min,
        seats_max=seats_max,
        pack_kind=str(pack.get("kind", "french")) if isinstance(pack, dict) else "french",
        pack_copies=int(pack.get("copies", 1)) if isinstance(pack, dict) else 1,
        pack_without=_read_pack_without(reader, pack),
        options=_with_clock_options(reader, data, languages),
        definitions=_read_definitions(reader, data.get("definitions", [])),
        moves=_read_moves(reader, data.get("moves", {})),
        rules=_read_rules(reader, data.get("rules", [])),
        sections={k: data[k] for k in mechanic_sections if k in data},
        located=located,
        languages=languages,
        words=_read_words(reader, data.get("words")),
        groups=reader.groups,
    )
    return spec, reader.errors + language_errors + translation_errors(
        located, languages, frozenset(mechanic_sections)
    )


def _unknown_section(key: str, known: set[str]) -> str:
    meant = nearest(key, known)
    return f"unknown section `{key}`" + (f": did you mean `{meant}`?" if meant else "")


def _read_words(reader: SpecReader, raw: Any) -> dict[str, dict[str, str]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        reader.error(
            ("words",),
            "`words` maps each word a sentence shows to its translations: `swords: {pt: espadas}`",
        )
        return {}
    return {str(word): reader.texts(texts, ("words", word)) for word, texts in raw.items()}


def _read_seats(reader: SpecReader, seats: Any) -> tuple[int, int]:
    if not reader.expect(seats, dict, ("seats",), "`seats`"):
        return 1, 1
    low, high = seats.get("min"), seats.get("max")
    ok = reader.expect(low, int, ("seats", "min"), "`seats.min`")
    ok = reader.expect(high, int, ("seats", "max"), "`seats.max`") and ok
    if ok and not 1 <= low <= high:
        reader.error(("seats",), f"seat limits `{low}`..`{high}` are not a range")
    return (low, high) if ok else (1, 1)


def _read_options(reader: SpecReader, options: Any) -> dict[str, Option]:
    if not reader.expect(options, dict, ("options",), "`options`"):
        return {}
    result: dict[str, Option] = {}
    for name, body in options.items():
        path: PathKey = ("options", name)
        if not reader.expect(body, dict, path, f"option `{name}`"):
            continue
        kind = body.get("type")
        if kind not in OPTION_TYPES:
            reader.error(
                path + ("type",),
                f"unknown option type `{kind}`: expected one of "
                + ", ".join(f"`{t}`" for t in OPTION_TYPES),
            )
            continue
        option = Option(
            name=name,
            type=kind,
            default=body.get("default"),
            values=tuple(body.get("values", ())),
            minimum=body.get("min"),
            maximum=body.get("max"),
            source=reader.strings(body.get("source"), path + ("source",)),
            text=reader.texts(body.get("text"), path + ("text",)),
        )
        for key in ("min", "max"):
            bound = body.get(key)
            if bound is not None and (
                not isinstance(bound, int) or isinstance(bound, bool) or abs(bound) > SAFE_INTEGER
            ):
                reader.error(
                    path + (key,),
                    f"`{key}` must be an integer within plus or minus {SAFE_INTEGER} (2^53 - 1)",
                )
        try:
            option.validate(option.default)
        except Exception as exc:  # noqa: BLE001 - an OptionError here is a spec error to report
            reader.error(path + ("default",), f"the default is not allowed: {exc}")
        result[name] = option
    return result


def _with_clock_options(
    reader: SpecReader, data: Mapping[str, Any], languages: tuple[str, ...]
) -> dict[str, Option]:
    """The spec's options, and the play clock's where the spec has a `clock:` section."""
    options = _read_options(reader, data.get("options", {}))
    if CLOCK not in data:
        return options
    for name in options.keys() & clock_options(languages).keys():
        reader.error(("options", name), f"`{name}` is the play clock's option (`clock:`)")
    return {**options, **clock_options(languages)}


def _read_definitions(reader: SpecReader, items: Any) -> tuple[DefinitionSpec, ...]:
    if not reader.expect(items, list, ("definitions",), "`definitions`"):
        return ()
    result = []
    for index, item in enumerate(items):
        path: PathKey = ("definitions", index)
        if not reader.expect(item, dict, path, "a definition"):
            continue
        try:
            name, params = parse_signature(str(item.get("name", "")))
        except SpecErrors as exc:
            reader.error(path + ("name",), exc.errors[0].detail)
            continue
        body = item.get("body")
        if not reader.expect(body, (str, int, bool), path + ("body",), "a definition's `body`"):
            continue
        text, where = reader.expression(path + ("body",), body)
        result.append(
            DefinitionSpec(
                name, tuple(params), text, reader.checkpoints(item.get("on"), path + ("on",)), where
            )
        )
    return tuple(result)


def _read_moves(reader: SpecReader, moves: Any) -> dict[str, MoveSpec]:
    if not reader.expect(moves, dict, ("moves",), "`moves`"):
        return {}
    result = {}
    for name, body in moves.items():
        path: PathKey = ("moves", name)
        body = body or {}
        if not reader.expect(body, dict, path, f"move `{name}`"):
            continue
        fields = body.get("fields", {}) or {}
        if not reader.expect(fields, dict, path + ("fields",), "`fields`"):
            continue
        specs = tuple(
            f
            for f in (_read_field(reader, k, v, path + ("fields", k)) for k, v in fields.items())
            if f
        )
        does = body.get("does") or ""
        if not isinstance(does, str):
            reader.error(path + ("does",), "`does` names the mechanic's move this one makes")
            does = ""
        texts = reader.texts(body.get("text"), path + ("text",))
        result[name] = MoveSpec(name, specs, texts, does)
    return result


SIMPLE_FIELD_TYPES = {"card", "cards", "int", "list_of_cards"}


def _read_field(reader: SpecReader, name: str, body: Any, path: PathKey) -> FieldSpec | None:
    """`card` | `{type: enum, values: [...], optional: true}` | `{meld: int, ...}` (a record)
    | `{list: {...record...}}`; a mapping with a `type` key is a field description."""
    optional = False
    if isinstance(body, dict) and "type" in body:
        optional = bool(body.get("optional", False))
        if body["type"] == "enum":
            values = reader.strings(body.get("values"), path + ("values",))
            return FieldSpec(name, "enum", optional, values)
        body = body["type"]
    if isinstance(body, str):
        if body not in SIMPLE_FIELD_TYPES:
            reader.error(
                path,
                f"unknown field type `{body}`: expected one of "
                + ", ".join(f"`{t}`" for t in sorted(SIMPLE_FIELD_TYPES))
                + ", `enum`, a record or a list",
            )
            return None
        return FieldSpec(name, body, optional)
    if isinstance(body, dict) and set(body) == {"list"}:
        inner = _read_field(reader, name, body["list"], path + ("list",))
        return FieldSpec(name, "list", optional, fields=inner.fields) if inner else None
    if isinstance(body, dict):
        parts = tuple(
            f for f in (_read_field(reader, k, v, path + (k,)) for k, v in body.items()) if f
        )
        return FieldSpec(name, "record", optional, fields=parts)
    reader.error(path, f"cannot read the type of field `{name}`")
    return None


def _read_say(reader: SpecReader, raw: Any, path: PathKey) -> dict[str, tuple[str, Where]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        reader.error(path, "`say` maps each `{name}` of the text to an expression")
        return {}
    return {str(name): reader.expression(path + (name,), value) for name, value in raw.items()}


def _read_fix(reader: SpecReader, raw: Any, path: PathKey) -> FixSpec | None:
    """`fix: {kind: <kind>, <value>: <expression>, ...}`: a known kind and exactly its values."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
        reader.error(path, "`fix` gives a `kind` and an expression for each of its values")
        return None
    kind = FIX_KINDS.get(raw["kind"])
    if kind is None:
        reader.error(
            path + ("kind",),
            f"unknown fix kind `{raw['kind']}`: expected one of "
            + ", ".join(f"`{k}`" for k in FIX_KINDS),
        )
        return None
    for name in raw:
        if name != "kind" and name not in kind.values:
            reader.error(
                path + (name,),
                f"fix `{kind.name}` has no value `{name}`: its values are "
                + ", ".join(f"`{v}`" for v in kind.values),
                at_key=True,
            )
    missing = [name for name in kind.values if name not in raw]
    if missing:
        reader.error(path, f"fix `{kind.name}` needs a value `{missing[0]}`")
        return None
    values = {name: reader.expression(path + (name,), raw[name]) for name in kind.values}
    return FixSpec(kind.name, values, reader.where(path))


def _read_rules(reader: SpecReader, rules: Any) -> tuple[RuleSpec, ...]:
    if not reader.expect(rules, list, ("rules",), "`rules`"):
        return ()
    result, seen = [], set()
    for index, body in enumerate(rules):
        path: PathKey = ("rules", index)
        if not reader.expect(body, dict, path, "a rule"):
            continue
        for key in body:
            if key not in RULE_KEYS:
                reader.error(
                    path + (key,),
                    f"unknown rule key `{key}`: expected one of "
                    + ", ".join(f"`{k}`" for k in sorted(RULE_KEYS)),
                    at_key=True,
                )
        rule_id = body.get("id")
        if not reader.expect(rule_id, str, path + ("id",), "a rule's `id`"):
            continue
        if rule_id in seen:
            reader.error(path + ("id",), f"rule `{rule_id}` is defined twice")
        seen.add(rule_id)
        require = body.get("require")
        if not reader.expect(
            require, (str, bool), path + ("require",), f"rule `{rule_id}`'s `require`"
        ):
            continue
        when = body.get("when")
        at = body.get("at", "before")
        if at not in ("before", "after"):
            reader.error(path + ("at",), f"`at` is `before` or `after`, got `{at}`")
        on = reader.checkpoints(body.get("on"), path + ("on",))
        if not on:
            reader.error(
                path + ("on",), f"rule `{rule_id}` needs `on:` (the moves or checkpoints it judges)"
            )
        require_text, require_where = reader.expression(path + ("require",), require)
        when_text, when_where = (
            reader.expression(path + ("when",), when) if when is not None else (None, None)
        )
        result.append(
            RuleSpec(
                id=rule_id,
                source=reader.strings(body.get("source"), path + ("source",)),
                on=on,
                at=at,
                when=when_text,
                require=require_text,
                text=reader.texts(body.get("text"), path + ("text",)),
                where=require_where,
                when_where=when_where,
                on_where=reader.where(path + ("on",)),
                note=str(body.get("note", "")),
                say=_read_say(reader, body.get("say"), path + ("say",)),
                fix=_read_fix(reader, body.get("fix"), path + ("fix",)),
            )
        )
    return tuple(result)
