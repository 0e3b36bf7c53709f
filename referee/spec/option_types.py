"""Types every mechanic's scopes share: the table's options as a record."""

from __future__ import annotations

from referee.spec.expr import BOOL, INT, STR, RecordType, Type
from referee.spec.schema import GameSpec

OPTION_TYPES: dict[str, Type] = {"enum": STR, "bool": BOOL, "int": INT}


def options_type(spec: GameSpec) -> RecordType:
    return RecordType({name: OPTION_TYPES[o.type] for name, o in spec.options.items()})
