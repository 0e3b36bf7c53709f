"""Sizes and figures of the hardening attacks (issue 10), shared by every file in tests/harden.

`HARDEN_SCALE` multiplies each attack's size (1, the default, is the short version `make test`
runs); `HARDEN_REPORT=1` prints each attack's figures (with `pytest -s`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

SCALE = float(os.environ.get("HARDEN_SCALE", "1"))
REPORTING = bool(os.environ.get("HARDEN_REPORT"))
STRICT = SCALE >= 5  # `make harden`: runs long enough for timing and memory figures to mean much


def scaled(size: int) -> int:
    """`size` at the short scale, multiplied by `HARDEN_SCALE`."""
    return max(1, round(size * SCALE))


def report(attack: str, figures: Mapping[str, object]) -> None:
    """One line of figures for `attack`, printed when `HARDEN_REPORT` is set."""
    if REPORTING:
        print(
            f"\nharden: {attack}: "
            + ", ".join(f"{name} {value}" for name, value in figures.items())
        )
