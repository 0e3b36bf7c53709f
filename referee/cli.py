"""The `referee` command: one sub-command per module in `referee.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys

# sub-command name -> module under referee.commands (each has `add_arguments` and `run`)
COMMANDS = {
    "serve": "serve",
    "check-spec": "check_spec",
    "prove": "prove",
    "replay": "replay",
    "conformance": "conformance",
    "play": "play",
    "diff": "diff",
    "transcript": "transcript",
    "docs": "docs",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"referee.commands.{module_name}")
        command = sub.add_parser(name, help=(module.__doc__ or name).strip().splitlines()[0])
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
