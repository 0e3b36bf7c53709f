"""One real referee for the redaction tests (gRPC on a free port, in-process)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from referee.engine.game import Game
from tests.redaction.referee_under_test import running_referee


@pytest.fixture(scope="module")
def stub(games: dict[str, Game]) -> Iterator[Any]:
    with running_referee(games) as running:
        yield running
