"""One real referee for the redaction tests (gRPC on a free port, in-process)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from referee.spec.registry import Game
from tests.redaction.referee_under_test import running_referee


@pytest.fixture(scope="module")
def stub(games: dict[str, Game]) -> Iterator[Any]:
    with running_referee(games) as running:
        yield running
