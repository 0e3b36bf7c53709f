"""The composition root of the games: each spec is loaded with the mechanic its `mechanics:`
names, from the plugins installed (`referee.plugins.installed`), and compiled into a `Game`."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any

from referee.engine.game import Game, read_option_rules
from referee.engine.mechanic import Mechanic
from referee.errors import SpecError, SpecErrors
from referee.plugins import installed
from referee.spec.loading import SpecFiles, load_with_parents
from referee.spec.proofs_file import load_proofs, spec_files
from referee.spec.schema import GameSpec, Where, read_spec
from referee.spec.sections import unknown_keys
from referee.spec.source import SpecSource
from referee.spec.yamlsource import Located


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


def load_game(path: str | Path, specs_dir: str | Path | None = None) -> Game:
    """Load and compile one spec file; raises SpecErrors listing every problem found."""
    files = SpecFiles()
    located, chain = load_with_parents(
        Path(path), Path(specs_dir) if specs_dir else Path(path).parent, files
    )
    return _compiled(located, files.source(chain), lambda: load_proofs(chain))


def load_source(source: SpecSource) -> Game:
    """Compile a spec from the text it was once loaded from (a table's pinned rules version),
    whatever the files on disk say now; with no proofs (they are not part of the rules)."""
    files = SpecFiles(source)
    # a game's bases were found in one folder, the folder of the first (the base of them all)
    bases = Path(source.files[0][0]).parent
    located, chain = load_with_parents(Path(source.main), bases, files)
    return _compiled(located, files.source(chain), lambda: None)


def _compiled(
    located: Located, source: SpecSource, read_proofs: Callable[[], Located | None]
) -> Game:
    data = located.data if isinstance(located.data, dict) else {}
    mechanic_class = _mechanic_of(located, data)
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
        errors += exc.errors + _section_errors(mechanic_class, spec, exc.errors)
        more = [] if _left_out(errors) else _option_rule_errors(spec)
        raise SpecErrors(_unique(errors + more)) from None
    if _left_out(errors):
        raise SpecErrors(errors)
    try:  # its option rules and play clock, whatever else was found
        game = Game(spec, mechanic, source, proofs)
    except SpecErrors as exc:
        errors += exc.errors
    except SpecError as exc:
        errors.append(exc)
    if errors:
        raise SpecErrors(_unique(errors))
    return game


# the sections whose entries that fail to read are left out of the spec
READ_BY_THE_GAME = ("moves", "options")


def _left_out(errors: list[SpecError]) -> bool:
    """Did a move or an option fail to read? Then the play clock and the option rules (read by
    `Game`) would report what is missing, not what is wrong: they are not read."""
    return any(e.path.startswith(READ_BY_THE_GAME) for e in errors)


def _mechanic_of(located: Located, data: Mapping[str, Any]) -> type[Mechanic[Any]]:
    """The mechanic a spec names; a YAML file that names no `format`, `game` or `mechanics` is
    no game spec at all, and is told so."""
    if not {"format", "game", "mechanics"} & data.keys():
        raise SpecErrors(
            [
                located.error(
                    (),
                    "not a game spec: a spec is a mapping that starts with `format: 1` and "
                    "names its `game` (a specs folder holds game specs and their "
                    "`GAME.proofs.yaml` files only)",
                )
            ]
        )
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
    return mechanic_class


def _section_errors(
    mechanic_class: type[Mechanic[Any]], spec: GameSpec, found: list[SpecError]
) -> list[SpecError]:
    """The errors of the mechanic's own sections, which its rule book's errors hide (it reads
    them once its rules compile): compiled again without the rules and definitions that failed.
    What then only misses a definition left out is no error of its own."""
    failed = {e.path.split(".")[0] for e in found if e.path.startswith(("rules[", "definitions["))}
    if not failed:
        return []
    dropped = [d for d in spec.definitions if _entry(d.where) in failed]
    retry = replace(
        spec,
        rules=tuple(r for r in spec.rules if _entry(r.where) not in failed),
        definitions=tuple(d for d in spec.definitions if d not in dropped),
    )
    try:
        mechanic_class(retry)
    except SpecErrors as exc:
        left_out = {d.name for d in dropped}
        return [e for e in exc.errors if _unknown_name(e) not in left_out]
    return []


UNKNOWN_NAME = re.compile(r"unknown (?:name|function) `([^`]+)`")


def _unknown_name(error: SpecError) -> str | None:
    """The name an `unknown name` or `unknown function` error is about."""
    found = UNKNOWN_NAME.match(error.detail)
    return found.group(1) if found else None


def _entry(where: Where) -> str:
    """`rules[3]` of `rules[3].require`: the rule or definition a place is in."""
    return where.path.split(".")[0]


def _option_rule_errors(spec: GameSpec) -> list[SpecError]:
    """The `option_rules` errors, which compiling the game reports only once all else is right."""
    try:
        read_option_rules(spec)
    except SpecErrors as exc:
        return exc.errors
    return []


def _unique(errors: list[SpecError]) -> list[SpecError]:
    """Each error once (a second compile finds again what the first did), in order."""
    return list({str(e): e for e in errors}.values())


def load_games(specs_dir: str | Path = DEFAULT_SPECS) -> dict[str, Game]:
    """The games of a folder's specs, compiled once for as long as its `*.yaml` files (specs,
    their bases and proofs) hold the same bytes: commands run one after another in a process
    (the tests', a server's reload) share the compiled games."""
    folder = Path(specs_dir)
    texts = tuple((path.name, path.read_bytes()) for path in sorted(folder.glob("*.yaml")))
    digest = hashlib.sha256(repr(texts).encode()).hexdigest()
    return dict(_compiled_folder(str(folder.resolve()), str(specs_dir), digest))


@functools.lru_cache(maxsize=8)  # a few folders: the shipped specs, a test's own
def _compiled_folder(resolved: str, specs_dir: str, digest: str) -> Mapping[str, Game]:
    """The games of the folder `resolved` whose files' bytes have `digest` (the cache key)."""
    games = {}
    for path in spec_files(Path(specs_dir)):
        game = load_game(path, specs_dir)
        games[game.name] = game
    return games


def compile_stored(text: str) -> Game:
    """The game a stored spec's text compiles into again (SpecErrors, RefereeError if not)."""
    return load_source(SpecSource.from_text(text))


def load_specs(folder: str | Path = "specs") -> dict[str, Game]:
    return dict(load_games(str(folder)))


def default_specs() -> Path:
    """The specs the server uses by default (shipped in the package, or `specs/` of a checkout)."""
    return Path(DEFAULT_SPECS)
