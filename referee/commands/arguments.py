"""Argument types with ranges, and flags that an environment variable can also set.

`from_environment(parser)` gives every flag of a command a variable (`--port` -> `REFEREE_PORT`,
`--allow-stacked` -> `REFEREE_ALLOW_STACKED`), shown in its `--help`. The flag beats the
variable, the variable beats the built-in default. A variable's value is read like the flag's
(its type and choices); a switch takes `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`/empty.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Callable, Mapping

PREFIX = "REFEREE_"
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def port(text: str) -> int:
    number = _integer(text)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"`{text}` is not a port: 0 (any free port) to 65535")
    return number


def positive(text: str) -> int:
    number = _integer(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"`{text}` is not a positive number")
    return number


def non_negative(text: str) -> int:
    number = _integer(text)
    if number < 0:
        raise argparse.ArgumentTypeError(f"`{text}` is negative")
    return number


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None


class FromEnvironment(str):
    """A default read from the environment: argparse converts it with the flag's type, as if
    given on the command line, and a bad one is reported with the variable's name."""

    variable: str


def variable(action: argparse.Action) -> str:
    return PREFIX + action.dest.upper()


def from_environment(parser: argparse.ArgumentParser,
                     environ: Mapping[str, str] = os.environ) -> None:
    for action in parser._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        name = variable(action)
        action.help = f"{action.help or ''} [env {name}]".strip()
        if name not in environ:
            continue
        value = FromEnvironment(environ[name])
        value.variable = name
        action.type = _reading_environment(action)
        action.default = value


def _reading_environment(action: argparse.Action) -> Callable[[str], Any]:
    convert: Callable[[str], Any] = action.type or str  # type: ignore[assignment]
    switch = isinstance(action, argparse._StoreTrueAction)
    choices = action.choices

    def read(text: str) -> Any:
        if not isinstance(text, FromEnvironment):
            return convert(text)  # given on the command line
        if switch:
            return _switch(text)
        try:
            value = convert(text)
        except (argparse.ArgumentTypeError, ValueError) as problem:
            raise argparse.ArgumentTypeError(f"{text.variable}: {problem}") from None
        if choices is not None and value not in choices:
            expected = ", ".join(f"`{c}`" for c in choices)
            raise argparse.ArgumentTypeError(
                f"{text.variable}: `{text}`: expected one of {expected}")
        return value

    return read


def _switch(text: FromEnvironment) -> bool:
    if text.strip().lower() in TRUE:
        return True
    if text.strip().lower() in FALSE:
        return False
    raise argparse.ArgumentTypeError(f"{text.variable}: `{text}` is neither a yes (1, true) nor "
                                     "a no (0, false)")
