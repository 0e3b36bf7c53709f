"""Argument types with ranges, and flags that an environment variable can also set.

`from_environment(parser)` gives every flag of a command a variable (`--port` -> `REFEREE_PORT`,
`--allow-stacked` -> `REFEREE_ALLOW_STACKED`), shown in its `--help`. The flag beats the
variable, the variable beats the built-in default. A variable's value is read like the flag's
(its type and choices); a switch takes `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`/empty.
Of flags that exclude each other (`--db`, `--memory`), one given on the command line also beats
the others' variables (`REFEREE_MEMORY=1 referee serve --db x.db` keeps the tables in `x.db`).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping
from typing import Any

PREFIX = "REFEREE_"
GIVEN = "_given_on_the_command_line"  # a namespace's set of dests, while it is being parsed
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


def seconds(text: str) -> float:
    """A duration in seconds, `2.5`; 0 allowed (the flag says what it means)."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number of seconds") from None
    if not math.isfinite(number) or number < 0:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number of seconds")
    return number


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None


class Several(argparse.Action):
    """A flag that may be given several times, its values kept in order (`--store A --store B`),
    its type giving a list of them (a variable holds several). The first given on the command
    line replaces the variable's, as any flag does."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        kept = getattr(namespace, self.dest, None)
        earlier = list(kept) if isinstance(kept, list) else []  # not the default (a variable's)
        setattr(namespace, self.dest, [*earlier, *values])


class FromEnvironment(str):
    """A default read from the environment: argparse converts it with the flag's type, as if
    given on the command line, and a bad one is reported with the variable's name."""

    variable: str
    built_in: Any  # the flag's default when the variable is not set


def variable(action: argparse.Action) -> str:
    return PREFIX + action.dest.upper()


def from_environment(
    parser: argparse.ArgumentParser, environ: Mapping[str, str] = os.environ
) -> None:
    for action in parser._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        name = variable(action)
        action.help = f"{action.help or ''} [env {name}]".strip()
        if name not in environ:
            continue
        value = FromEnvironment(environ[name])
        value.variable, value.built_in = name, action.default
        action.type = _reading_environment(action)
        action.default = value
    for group in parser._mutually_exclusive_groups:
        for action in group._group_actions:
            _note_when_given(action)


def overrule_environment(parser: argparse.ArgumentParser, namespace: argparse.Namespace) -> None:
    """After parsing: a flag given beats the variables of the flags it excludes."""
    given = vars(namespace).pop(GIVEN, set())
    for group in parser._mutually_exclusive_groups:
        members = group._group_actions
        if not any(action.dest in given for action in members):
            continue
        for action in members:
            if action.dest not in given and isinstance(action.default, FromEnvironment):
                setattr(namespace, action.dest, action.default.built_in)


def _note_when_given(action: argparse.Action) -> None:
    """Make `action` record its dest in the namespace when its flag is on the command line."""
    kind = type(action)

    def called(
        self: argparse.Action,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        kind.__call__(self, parser, namespace, values, option_string)
        vars(namespace).setdefault(GIVEN, set()).add(self.dest)

    action.__class__ = type(f"Noted{kind.__name__}", (kind,), {"__call__": called})


def _reading_environment(action: argparse.Action) -> Callable[[str], Any]:
    # typeshed gives `type` as a callable or a FileType; the referee's flags give callables
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
                f"{text.variable}: `{text}`: expected one of {expected}"
            )
        return value

    return read


def _switch(text: FromEnvironment) -> bool:
    if text.strip().lower() in TRUE:
        return True
    if text.strip().lower() in FALSE:
        return False
    raise argparse.ArgumentTypeError(
        f"{text.variable}: `{text}` is neither a yes (1, true) nor a no (0, false)"
    )
