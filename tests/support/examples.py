"""The example specs of the designer's manual (docs/example-specs/, docs/designing.md): games
that are not shipped, each on one mechanic, which the tests run that mechanic's generality on."""

from __future__ import annotations

from pathlib import Path

EXAMPLE_SPECS = Path(__file__).resolve().parents[2] / "docs" / "example-specs"
WHIST = EXAMPLE_SPECS / "whist.yaml"  # `tricks`
GIN = EXAMPLE_SPECS / "gin.yaml"  # `rummy`
TWENTY_ONE = EXAMPLE_SPECS / "twenty_one.yaml"  # `banking`
