"""referee: a rules-validation referee for card games: serve it over gRPC, play, prove, check.

One sub-command per module in `referee.commands`. A user error (a bad flag, an unknown game, a
missing file, a busy port, an unreachable target) is one line on stderr, `referee COMMAND: what
is wrong`, and exit status 2; a traceback is a bug.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

import grpc

from referee import __version__
from referee.commands.arguments import overrule_environment
from referee.errors import RefereeError, SpecErrors

# sub-command name -> module under referee.commands (each has `add_arguments` and `run`)
COMMANDS = {
    "serve": "serve",
    "check-spec": "check_spec",
    "prove": "prove",
    "describe": "describe",
    "replay": "replay",
    "explain": "explain",
    "readjudicate": "readjudicate",
    "export": "export",
    "verify": "verify",
    "key": "key",
    "backup": "backup",
    "conformance": "conformance",
    "play": "play",
    "diff": "diff",
    "transcript": "transcript",
    "docs": "docs",
    "schemas": "schemas",
    "mutants": "mutants",
}
USAGE_ERROR = 2
INTERRUPTED = 130  # the shell's status for a command ended by Ctrl-C (128 + SIGINT)


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr (its usage is one `--help` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: {message} (see `{self.prog} --help`)\n")

    # typeshed overloads parse_known_args on the namespace's type; one signature serves here
    def parse_known_args(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        overrule_environment(self, parsed)
        return parsed, extras


def summary(doc: str) -> str:
    """A command's line in `referee --help`: the first sentence of its docstring, whole."""
    paragraph = " ".join(doc.split("\n\n")[0].split())
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[: end + 1]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="referee", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"referee.commands.{module_name}")
        doc = (module.__doc__ or name).strip()
        command = sub.add_parser(
            name,
            help=summary(doc),
            description=doc,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (RefereeError, OSError, grpc.RpcError) as problem:
        print(f"referee {args.command}: {one_line(problem)}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return INTERRUPTED


def one_line(problem: Exception) -> str:
    """What went wrong, in one line."""
    if isinstance(problem, SpecErrors) and problem.errors:
        more = len(problem.errors) - 1
        first = str(problem.errors[0]).splitlines()[0]
        return first + (f" (and {more} more: `referee check-spec` lists them)" if more else "")
    if isinstance(problem, grpc.RpcError):
        code, details = problem.code(), problem.details()
        return f"{code.name.lower()}: {details}"
    if isinstance(problem, OSError) and problem.strerror:
        where = f": `{problem.filename}`" if problem.filename else ""
        return f"{problem.strerror[0].lower()}{problem.strerror[1:]}{where}"
    lines = str(problem).splitlines()
    return lines[0] if lines else type(problem).__name__


if __name__ == "__main__":
    sys.exit(main())
