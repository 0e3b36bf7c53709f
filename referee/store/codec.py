"""JSON as the store and the wire see it, with seat numbers kept as numbers.

JSON objects only have string keys, but the domain keys seats by int (`hands: {1: [...]}`,
`hand_size: {2: 9}`). Decoding turns keys that are canonical decimal integers back into ints, so
data read back equals the data written. No other key is ever all digits (option names, move
fields and card codes start with a letter or contain one).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

JSON = Any

# canonical and short: `-0`, `01` and 19 digits or more stay text, so that no two keys of one
# object read as one number, and `int()` never meets a key of thousands of digits
_INT_KEY = re.compile(r"0|-?[1-9][0-9]{0,17}")


def restore_key(key: str) -> str | int:
    """`"2"` -> 2 (a seat); any other key unchanged."""
    return int(key) if _INT_KEY.fullmatch(key) else key


def encode(data: JSON) -> str:
    """Compact, deterministic JSON; fails on values JSON cannot hold (NaN, sets, objects)."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True, allow_nan=False)


def decode(text: str) -> JSON:
    return json.loads(text, object_hook=lambda obj: {restore_key(k): v for k, v in obj.items()})


def unstorable(data: JSON) -> str | None:
    """Why `data` would not come back from the store as it went in, or None: a number that is
    not finite (JSON has no NaN), a key of digits only (it would come back a seat number)."""
    if isinstance(data, float) and not math.isfinite(data):
        return f"a number must be finite, not `{data}`"
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str) or _INT_KEY.fullmatch(key):
                return f"a field name is text, not `{str(key)[:40]}`"
            problem = unstorable(value)
            if problem:
                return problem
    if isinstance(data, (list, tuple)):
        return next((p for p in map(unstorable, data) if p), None)
    return None
