"""A game as DescribeGame tells a client: its title, seats, pack, options, moves (with their typed
fields and the table's own `contribute` and `dispute`), rules and the mechanic's own verdicts,
each worded in every language the spec has and in the one asked, and its schemas."""

from __future__ import annotations

import copy
from collections.abc import Mapping

from referee.engine.disputes import dispute_move
from referee.engine.game import Game
from referee.engine.seeding import contribute_move
from referee.i18n import ENGLISH
from referee.model import JSON
from referee.schemas import schemas_of, typed_fields
from referee.spec.texts import in_language


def describe_game(game: Game, language: str = ENGLISH) -> dict[str, JSON]:
    """The game for a client: each `text` in every language the spec has, and beside it its
    `sentence` in `language` (English where the spec has no sentence in it)."""
    spec = game.spec

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
            for rule_id, text in game.texts.items()
            if rule_id not in rule_ids
        ],
        **game.mechanic.describe(),
        # what a director's ruling may adjust of a seat (`referee.engine.rulings`)
        "tallies": list(game.mechanic.tallies),
        "schemas": copy.deepcopy(schemas_of(game)),
    }
