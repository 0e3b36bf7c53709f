"""`SOAK_SCALE`: how much longer the long property runs go than in make test (1); `make soak`
runs them at 3: every example and deal count below is make test's, times this."""

from __future__ import annotations

import os

SOAK_SCALE = int(os.environ.get("SOAK_SCALE", "1"))
