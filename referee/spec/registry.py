"""Loading specs into games: YAML (with `extends`) → schema → the mechanic that runs it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from referee.engine.disputes import dispute_move
from referee.engine.mechanic import Mechanic
from referee.engine.seeding import contribute_move
from referee.errors import NotFound, OptionError, SpecError, SpecErrors
from referee.i18n import ENGLISH, negotiate
from referee.model import JSON
from referee.plugins import installed
from referee.schemas import game_schemas, typed_fields
from referee.spec.clock import read_auto_moves
from referee.spec.expr import BOOL, Program, Scope, parse
from referee.spec.option_types import options_type
from referee.spec.options import resolve_options
from referee.spec.proofs_file import load_proofs, spec_files
from referee.spec.rules import origin
from referee.spec.schema import GameSpec, expression_at, read_spec
from referee.spec.sections import unknown_keys
from referee.spec.source import SpecSource
from referee.spec.texts import as_texts, in_language, verdict_texts
from referee.spec.yamlsource import Located, PathKey, parse_yaml


def _default_specs() -> Path:
    """The specs shipped inside the installed package (`referee/specs/`, put there by setup.py's
    build), else those of the source tree (`specs/` of a checkout, an editable install)."""
    shipped = files("referee").joinpath("specs")
    if isinstance(shipped, Path) and shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[2] / "specs"


DEFAULT_SPECS = _default_specs()


def mechanics() -> dict[str, type[Mechanic[Any]]]:
    return {name: plugin.mechanic for name, plugin in installed.by_name().items()}


class Game:
    """A compiled spec: its rules, options and mechanic, ready to run tables."""

    def __init__(
        self,
        spec: GameSpec,
        mechanic: Mechanic[Any],
        source: SpecSource,
        proofs: Located | None = None,
    ) -> None:
        self.spec = spec
        self.mechanic = mechanic
        # the text of every file its spec was read from: what a table pins (`spec.versions`)
        self.source = source
        # its `properties:` (`specs/GAME.proofs.yaml`, merged over its base's): what `referee
        # prove` reads, located in the file that states each one
        self.proofs = proofs or Located(data={"properties": []}, file="<no proofs>")
        self.name = spec.name
        self.option_rules = read_option_rules(spec)
        # verdict id -> language -> sentence: to word a verdict in the language a seat asked for
        self.texts = verdict_texts(spec.located.data, frozenset(spec.sections))
        self._schemas: dict[str, JSON] | None = None
        # what the play clock plays for a seat whose time ran out (its `clock:` section)
        self.auto_moves = read_auto_moves(spec, mechanic)

    def language(self, wanted: Sequence[str]) -> str:
        """The language to answer in: the first of `wanted` this game is written in, else English."""
        return negotiate(wanted, self.spec.languages)

    @property
    def schemas(self) -> dict[str, JSON]:
        """The game's typed contract (referee/schemas): made once, on first use."""
        if self._schemas is None:
            self._schemas = game_schemas(self.spec, self.mechanic)
        return self._schemas

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option valid alone (types, values), then together (`option_rules`)."""
        options = resolve_options(self.spec.options, given)
        for check, sentence in self.option_rules:
            if not check({"options": options}):
                raise OptionError(sentence)
        return options

    def describe(self, language: str = ENGLISH) -> dict[str, JSON]:
        """The game for a client: each `text` in every language the spec has, and beside it its
        `sentence` in `language` (English where the spec has no sentence in it)."""
        spec = self.spec

        def worded(text: Mapping[str, str], **entry: JSON) -> dict[str, JSON]:
            return {**entry, "text": dict(text), "sentence": in_language(text, language)}

        rule_ids = {r.id for r in spec.rules}
        return {
            "name": spec.name,
            "title": dict(spec.title),
            "source": list(spec.source),
            "language": language,
            "languages": list(spec.languages),
            "title_sentence": in_language(spec.title, language) or spec.name,
            "mechanics": spec.mechanics,
            "seats": {"min": spec.seats_min, "max": spec.seats_max},
            "pack": {"kind": spec.pack_kind, "copies": spec.pack_copies, "size": len(spec.pack())},
            "options": [
                {**o.describe(), "sentence": in_language(o.text, language)}
                for o in spec.options.values()
            ],
            "moves": [
                *(
                    worded(
                        m.text,
                        type=m.type,
                        fields=[f.name for f in m.fields],
                        typed_fields=typed_fields(m.fields),
                    )
                    for m in spec.moves.values()
                ),
                contribute_move(language),
                dispute_move(language),
            ],
            "rules": [
                worded(r.text, id=r.id, source=list(r.source), on=list(r.on), note=r.note)
                for r in spec.rules
            ],
            # the verdicts the mechanic gives of its own, worded by the spec (`rummy.violations`)
            "verdicts": [
                worded(text, id=rule_id)
                for rule_id, text in self.texts.items()
                if rule_id not in rule_ids
            ],
            **self.mechanic.describe(),
            # what a director's ruling may adjust of a seat (`referee.engine.rulings`)
            "tallies": list(self.mechanic.tallies),
            "schemas": copy.deepcopy(self.schemas),
        }


def read_option_rules(spec: GameSpec) -> list[tuple[Any, str]]:
    """`option_rules:` conditions over `options` that a table's options must meet together
    (`min_bet <= max_bet`), each with the sentence a rejected CreateTable gives."""
    located = spec.located
    raw = located.data.get("option_rules") or []
    program = Program(Scope({"options": options_type(spec)}))
    rules, errors = [], []
    for index, body in enumerate(raw):
        path = ("option_rules", index)
        if not isinstance(body, dict) or "require" not in body:
            errors.append(located.error(path, "an option rule needs `require` and `text`"))
            continue
        text, where = expression_at(located, path + ("require",), body["require"])
        try:
            typed = program.check(parse(text, origin=origin(where)), expected=BOOL)
        except SpecErrors as exc:
            errors.extend(exc.errors)
            continue
        sentence = in_language(as_texts(body.get("text", text)), ENGLISH)  # for the operator
        rules.append((program.compile(typed), sentence))
    if errors:
        raise SpecErrors(errors)
    return rules


def load_game(path: str | Path, specs_dir: str | Path | None = None) -> Game:
    """Load and compile one spec file; raises SpecErrors listing every problem found."""
    files = _Files()
    located, chain = _load_with_parents(
        Path(path), Path(specs_dir) if specs_dir else Path(path).parent, files
    )
    return _compiled(located, files.source(chain), lambda: load_proofs(chain))


def load_source(source: SpecSource) -> Game:
    """Compile a spec from the text it was once loaded from (a table's pinned rules version),
    whatever the files on disk say now; with no proofs (they are not part of the rules)."""
    files = _Files(source)
    # a game's bases were found in one folder, the folder of the first (the base of them all)
    bases = Path(source.files[0][0]).parent
    located, chain = _load_with_parents(Path(source.main), bases, files)
    return _compiled(located, files.source(chain), lambda: None)


def _compiled(
    located: Located, source: SpecSource, read_proofs: Callable[[], Located | None]
) -> Game:
    data = located.data if isinstance(located.data, dict) else {}
    kinds = mechanics()
    mechanic_class = kinds.get(str(data.get("mechanics")))
    if mechanic_class is None:
        known = ", ".join(f"`{k}`" for k in kinds)
        raise SpecErrors(
            [
                located.error(
                    ("mechanics",),
                    f"unknown mechanics `{data.get('mechanics')}`: expected one of {known}",
                )
            ]
        )
    spec, errors = read_spec(located, set(mechanic_class.sections()))
    errors += unknown_keys(located, mechanic_class.section_shapes, data)
    if spec is None:
        raise SpecErrors(errors)
    errors += mechanic_class.move_errors(spec)
    proofs = None
    try:
        proofs = read_proofs()
    except SpecError as exc:
        errors.append(exc)
    try:  # compile what could be read, so expression errors are reported with schema errors
        mechanic = mechanic_class(spec)
    except SpecErrors as exc:
        errors += exc.errors
    if errors:
        raise SpecErrors(errors)
    try:
        return Game(spec, mechanic, source, proofs)
    except SpecError as exc:
        raise SpecErrors([exc]) from None


def load_games(specs_dir: str | Path = DEFAULT_SPECS) -> dict[str, Game]:
    games = {}
    for path in spec_files(Path(specs_dir)):
        game = load_game(path, specs_dir)
        games[game.name] = game
    return games


def find_game(games: Mapping[str, Game], name: str) -> Game:
    if name not in games:
        known = ", ".join(f"`{g}`" for g in sorted(games))
        raise NotFound(
            f"unknown game `{name}`: "
            + (f"this referee knows {known}" if games else "no game specs are loaded")
        )
    return games[name]


class _Files:
    """Where spec files are read from: the disk, or the source a game was once loaded from.
    Each text read is kept: the source of the game being loaded."""

    def __init__(self, stored: SpecSource | None = None) -> None:
        self._stored = stored
        self._read: dict[str, str] = {}

    def exists(self, path: Path) -> bool:
        if self._stored is None:
            return path.exists()
        return self._stored.text_of(str(path)) is not None

    def load(self, path: Path) -> Located:
        text = (
            path.read_text(encoding="utf-8")
            if self._stored is None
            else self._stored.text_of(str(path)) or ""
        )
        self._read[str(path)] = text
        return parse_yaml(text, str(path))

    def source(self, chain: Sequence[Path]) -> SpecSource:
        return SpecSource(tuple((str(p), self._read[str(p)]) for p in chain))


def _load_with_parents(
    path: Path, specs_dir: Path, files: _Files, seen: tuple[Path, ...] = ()
) -> tuple[Located, tuple[Path, ...]]:
    """A spec with `extends: parent` is the parent's data overridden by its own (see `merge`);
    every merged value keeps the file, line and column it was written at. With it, the files
    read, the base first (where their proofs files are found)."""
    located = files.load(path)
    parent_name = located.data.get("extends") if isinstance(located.data, dict) else None
    if parent_name is None:
        return located, (path,)
    parent_path = specs_dir / f"{parent_name}.yaml"
    if parent_path in seen or not files.exists(parent_path):
        problem = "extends itself" if parent_path in seen else "is not a spec in " + str(specs_dir)
        raise SpecErrors([located.error(("extends",), f"`{parent_name}` {problem}")])
    parent, chain = _load_with_parents(parent_path, specs_dir, files, seen + (path,))
    merged = Located(data=None, file=located.file, lines=located.lines)
    merged.data = _merge(parent, (), located, (), merged, ())
    return merged, chain + (path,)


def merge(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Child over parent (plain data): see `_merge`."""
    out = Located(data=None, file="<merged>")
    merged: dict[str, Any] = _merge(
        Located(dict(parent), "<parent>"), (), Located(dict(child), "<child>"), (), out, ()
    )
    return merged


def _merge(
    parent: Located, p_path: PathKey, child: Located, c_path: PathKey, out: Located, path: PathKey
) -> Any:
    """Child over parent: mappings merge key by key; `rules` and `definitions` merge by id/name
    (a child entry replaces the parent's, `remove: true` drops it, new ones are appended); other
    values are the child's. Positions follow each value into `out`."""
    p_value, c_value = _at(parent.data, p_path), _at(child.data, c_path)
    if isinstance(p_value, dict) and isinstance(c_value, dict):
        result: dict[str, Any] = {}
        _place(out, child, c_path, path)
        for key in [*p_value, *[k for k in c_value if k not in p_value]]:
            if key == "extends":
                continue
            if key not in c_value:
                out.graft(parent, p_path + (key,), path + (key,))
                result[key] = copy.deepcopy(p_value[key])
            elif key not in p_value:
                out.graft(child, c_path + (key,), path + (key,))
                result[key] = copy.deepcopy(c_value[key])
            elif path == () and key in NAMED_LISTS and isinstance(c_value[key], list):
                result[key] = _merge_named(
                    parent, p_path + (key,), child, c_path + (key,), out, (key,), NAMED_LISTS[key]
                )
            else:
                result[key] = _merge(
                    parent, p_path + (key,), child, c_path + (key,), out, path + (key,)
                )
        return result
    out.graft(child, c_path, path)
    return copy.deepcopy(c_value)


NAMED_LISTS = {"rules": "id", "definitions": "name"}


def _merge_named(
    parent: Located,
    p_path: PathKey,
    child: Located,
    c_path: PathKey,
    out: Located,
    path: PathKey,
    key: str,
) -> list[Any]:
    def name_of(item: Any) -> Any:
        raw = item.get(key) if isinstance(item, dict) else None
        return str(raw).split("(")[0].strip() if raw is not None else None

    # each entry: (where it comes from, its index there)
    entries: list[tuple[Located, PathKey]] = [
        (parent, p_path + (i,)) for i in range(len(_at(parent.data, p_path) or []))
    ]
    for i, item in enumerate(_at(child.data, c_path)):
        names = [name_of(_at(src.data, at)) for src, at in entries]
        if isinstance(item, dict) and item.get("remove"):
            entries = [e for e, n in zip(entries, names) if n != name_of(item)]
        elif name_of(item) in names:
            entries[names.index(name_of(item))] = (child, c_path + (i,))
        else:
            entries.append((child, c_path + (i,)))
    result = []
    _place(out, child, c_path, path)
    for index, (source, at) in enumerate(entries):
        out.graft(source, at, path + (index,))
        result.append(copy.deepcopy(_at(source.data, at)))
    return result


def _place(out: Located, source: Located, source_path: PathKey, path: PathKey) -> None:
    """Where a merged mapping or list itself sits (its entries are placed one by one)."""
    out.positions[path] = source.where(source_path)
    if source_path in source.keys:
        out.keys[path] = source.keys[source_path]
    out.files[path] = source.file_of(source_path)


def _at(data: Any, path: PathKey) -> Any:
    for part in path:
        data = data[part]
    return data


__all__ = ["Game", "SpecError", "find_game", "load_game", "load_games", "load_source", "merge"]
