"""A game: a compiled spec with the mechanic that runs it, its options and its sentences; what a
table is created from. Games are loaded from their specs by `referee.plugins.games`, which knows
the mechanics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic

from referee.cards import PackKind
from referee.engine.auto_moves import HOUSE, read_auto_moves
from referee.engine.mechanic import Mechanic, StateT
from referee.errors import NotFound, OptionError, SpecErrors
from referee.i18n import ENGLISH, negotiate
from referee.spec.expr import BOOL, Program, Scope, parse
from referee.spec.option_types import options_type
from referee.spec.options import resolve_options
from referee.spec.rules import origin
from referee.spec.schema import GameSpec, expression_at
from referee.spec.source import SpecSource
from referee.spec.texts import as_texts, in_language, verdict_texts
from referee.spec.yamlsource import Located


class Game(Generic[StateT]):
    """A compiled spec: its rules, options and mechanic, ready to run tables (of the mechanic's
    state, `StateT`)."""

    def __init__(
        self,
        spec: GameSpec,
        mechanic: Mechanic[StateT],
        source: SpecSource,
        proofs: Located | None = None,
    ) -> None:
        self.spec = spec
        self.mechanic = mechanic
        # the text of every file its spec was read from: what a table pins (`referee.engine.versions`)
        self.source = source
        # its `properties:` (`specs/GAME.proofs.yaml`, merged over its base's): what `referee
        # prove` reads, located in the file that states each one
        self.proofs = proofs or Located(data={"properties": []}, file="<no proofs>")
        self.name = spec.name
        self.pack_kind = PackKind(spec.pack_kind)  # what its moves' cards are read as
        self.option_rules = read_option_rules(spec)
        # verdict id -> language -> sentence: to word a verdict in the language a seat asked for
        self.texts = verdict_texts(spec.located.data, frozenset(spec.sections))
        # what the play clock plays for a seat whose time ran out (its `clock:` section)
        self.auto_moves = read_auto_moves(spec, mechanic)
        # what the table plays for a house seat, every move of it (its `house:` section)
        self.house_moves = read_auto_moves(spec, mechanic, HOUSE)

    def language(self, wanted: Sequence[str]) -> str:
        """The language to answer in: the first of `wanted` this game is written in, else English."""
        return negotiate(wanted, self.spec.languages)

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option valid alone (types, values), then together (`option_rules`)."""
        options = resolve_options(self.spec.options, given)
        for check, sentence in self.option_rules:
            if not check({"options": options}):
                raise OptionError(sentence)
        return options


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


def find_game(games: Mapping[str, Game], name: str) -> Game:
    if name not in games:
        known = ", ".join(f"`{g}`" for g in sorted(games))
        raise NotFound(
            f"unknown game `{name}`: "
            + (f"this referee knows {known}" if games else "no game specs are loaded")
        )
    return games[name]
