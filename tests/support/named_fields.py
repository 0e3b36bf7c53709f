"""A Struct whose keys are all names (a view, a game's description, an event's data), as
`dict[str, Any]`: `struct_to_data` types its keys `str | int`, as a decimal key comes back a seat
number."""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from referee.server.convert import struct_to_data


def named_fields(struct: struct_pb2.Struct) -> dict[str, Any]:
    data = struct_to_data(struct)
    names = {key: value for key, value in data.items() if isinstance(key, str)}
    assert len(names) == len(data), f"seat numbers among the names: {sorted(map(str, data))}"
    return names
