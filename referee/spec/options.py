"""Table options: typed, defaulted, and validated when a table is created (RULES.md option tables)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.errors import OptionError, shortened
from referee.model import SAFE_INTEGER

OPTION_TYPES = ("enum", "bool", "int")


@dataclass(frozen=True)
class Option:
    name: str
    type: str
    default: Any
    values: tuple[Any, ...] = ()  # enum values
    minimum: int | None = None
    maximum: int | None = None
    source: tuple[str, ...] = ()
    text: Mapping[str, str] = field(default_factory=dict)

    def allowed(self) -> str:
        if self.type == "enum":
            return ", ".join(f"`{v}`" for v in self.values)
        if self.type == "bool":
            return "`true`, `false`"
        low, high = self.bounds
        return f"an integer from {low} to {high}"

    def validate(self, value: Any) -> Any:
        """The value as the engine uses it, or OptionError naming the option and what is allowed."""
        if self.type == "bool" and isinstance(value, bool):
            return value
        if self.type == "int" and _is_integral(value) and self._in_range(int(value)):
            return int(value)
        if self.type == "enum" and isinstance(value, str) and value in self.values:
            return value
        raise OptionError(
            f"option `{self.name}`: `{value}` is not allowed: expected {self.allowed()}"
        )

    @property
    def bounds(self) -> tuple[int, int]:
        """The range an int option's value must lie in: the spec's `min` and `max`, and
        without them, what a Struct's double carries exactly."""
        low = -SAFE_INTEGER if self.minimum is None else self.minimum
        high = SAFE_INTEGER if self.maximum is None else self.maximum
        return low, high

    def _in_range(self, value: int) -> bool:
        low, high = self.bounds
        return low <= value <= high

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "values": list(self.values),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "source": list(self.source),
            "text": dict(self.text),
        }


def _is_integral(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def resolve_options(declared: Mapping[str, Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared option with its value: the given one (validated) or its default."""
    unknown = sorted(set(given) - set(declared), key=str)  # `1`: a digit key came as a number
    if unknown:
        known = ", ".join(f"`{n}`" for n in declared) or "none"
        name = shortened(str(unknown[0]), 40)
        raise OptionError(f"unknown option `{name}`: this game's options are {known}")
    return {
        name: option.validate(given[name]) if name in given else option.default
        for name, option in declared.items()
    }
