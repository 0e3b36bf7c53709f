"""`referee serve` with one of issue 25's defences taken out, the control of an attack that no
flag can turn off: `python tests/harden/undefended.py DEFENCE serve FLAGS...`.

- `token-digests`: every seat token string seen gets a rate bucket, as before (F5);
- `parse-off-loop`: HTTP bodies are parsed and answers written on the event loop (F3).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from referee import app, cli
from referee.calls import limits
from referee.web import bodies


async def _on_the_loop(_self: bodies.Bodies, work: Callable[..., Any], *args: Any) -> Any:
    return work(*args)


def undefend(defence: str) -> None:
    if defence == "token-digests":
        every_token = functools.partial(limits.LimitsInterceptor, every_token=True)
        setattr(app, "LimitsInterceptor", every_token)  # noqa: B010 - what app builds with
    elif defence == "parse-off-loop":
        setattr(bodies.Bodies, "run", _on_the_loop)  # noqa: B010
    else:
        raise SystemExit(f"no such defence: {defence}")


if __name__ == "__main__":
    undefend(sys.argv[1])
    sys.exit(cli.main(sys.argv[2:]))
