"""The numbers a client may send: integers within 64 bits, wherever they stand.

JSON, YAML and a protobuf Struct carry numbers of any size (a 400-digit integer in a YAML record
or an HTTP body, 1e300 in a Struct), but no int64 field, SQLite column, msgspec state or Struct
double holds them, and Python's own conversions refuse the largest (`float(10**400)`,
`int("9" * 5000)`). So data from a client is checked where it is read (a record for Adjudicate,
an HTTP body, a table's options and stacked deal), by `check_numbers`: a number beyond the
64-bit range, anywhere in it, is INVALID_ARGUMENT naming where it stands. The values a table
keeps are bounded more narrowly, by the engine: to what a Struct's double carries exactly
(`SAFE_INTEGER`, 2^53 - 1), and a move's field beyond that is a GEN-8 rejection.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import InvalidArgument

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# a mapping key that names an integer (a seat): ASCII digits, a minus sign at most; the length
# bound keeps `int()` far from Python's 4,300-digit limit
_INTEGER_KEY = re.compile(r"-?[0-9]{1,40}")
QUOTED_DIGITS = 20  # digits of a long integer a message shows
LONGEST_BITS = 13_000  # about 3,900 digits: within what Python writes out (4,300)


class NumberOutOfRange(InvalidArgument):
    code = "number_out_of_range"


@dataclass(frozen=True)
class Beyond:
    """A number beyond the 64-bit range and where it stands: a path such as
    `steps[2].move.amount` (empty: the data itself)."""

    path: str
    number: int | float

    @property
    def message(self) -> str:
        told = f"{_quoted(self.number)} is beyond the 64-bit integer range"
        return f"`{self.path}`: {told}" if self.path else told

    @property
    def step(self) -> int:
        """The step of a record this number stands in, counted from 1 (0: none)."""
        found = re.match(r"steps\[(\d+)\]", self.path)
        return int(found.group(1)) + 1 if found else 0


def is_beyond_int64(value: Any) -> bool:
    """A number (not a bool) outside -2^63 .. 2^63 - 1; infinities are, NaN is no number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, float) and math.isnan(value):
        return False
    return not INT64_MIN <= value <= INT64_MAX


def first_beyond_int64(data: Any, path: str = "") -> Beyond | None:
    """The first number of `data` (mappings, lists and scalars, keys included), in the order
    written, that lies beyond the 64-bit range; None when every one fits."""
    pending: list[tuple[str, Any]] = [(path, data)]  # a stack, not recursion: any depth
    while pending:
        here, value = pending.pop()
        if is_beyond_int64(value):
            return Beyond(here, value)
        if isinstance(value, Mapping):
            for key in value:
                if is_beyond_int64(key):
                    return Beyond(here, key)
            items = [(_joined(here, key), item) for key, item in value.items()]
        elif isinstance(value, (list, tuple)):
            items = [(f"{here}[{index}]", item) for index, item in enumerate(value)]
        else:
            continue
        pending.extend(reversed(items))
    return None


def check_numbers(data: Any, path: str = "") -> None:
    """Raise NumberOutOfRange (INVALID_ARGUMENT) naming the first number of `data` beyond the
    64-bit range; `path` names `data` itself (`options`)."""
    found = first_beyond_int64(data, path)
    if found is not None:
        raise NumberOutOfRange(found.message)


def integer_key(key: Any) -> int | None:
    """The integer a mapping key names (`1`, `"1"`, `"01"` and `"-0"` name 1, 1, 1 and 0), or
    None: a key of anything but ASCII digits, or one beyond the 64-bit range."""
    if isinstance(key, bool):
        return None
    if isinstance(key, str) and _INTEGER_KEY.fullmatch(key):
        key = int(key)
    if not isinstance(key, int) or is_beyond_int64(key):
        return None
    return key


def _joined(path: str, key: Any) -> str:
    name = str(key)[:40]  # an integer key here lies within 64 bits: 20 characters at most
    return f"{path}.{name}" if path else name


def _quoted(number: int | float) -> str:
    """A number as a message shows it: a long integer by its first digits and its length."""
    if isinstance(number, float):
        return f"`{number}`"
    if number.bit_length() > LONGEST_BITS:  # Python will not write it out: never from a client
        return "an integer of thousands of digits"
    digits, sign = str(abs(number)), "-" if number < 0 else ""
    if len(digits) <= QUOTED_DIGITS:
        return f"`{sign}{digits}`"
    return f"`{sign}{digits[:QUOTED_DIGITS]}...` ({len(digits)} digits)"
