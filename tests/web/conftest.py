"""A real referee on free ports, in-process: gRPC and, beside it, its HTTP routes."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from playwright.sync_api import BrowserContext, Page

from referee.api.v1 import referee_pb2_grpc
from referee.app import Server, ServerConfig, create_server
from referee.calls.limits import Limits
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee.web.gateway import HttpLimits
from tests.web import browser
from tests.web.web_support import Http

MAX_MESSAGE_BYTES = 64 * 1024  # as tests/server: small, so a test can send more
BROWSER_WAIT_MS = 10_000  # a browser test's wait for what the page shows


@pytest.fixture
def service(games: dict[str, Game]) -> Iterator[RefereeService]:
    running = RefereeService(MemoryStore(), games, allow_stacked=True)
    yield running
    running.close()


@pytest.fixture
def limits() -> Limits:
    return Limits()


@pytest.fixture
def http_limits() -> HttpLimits:
    return HttpLimits()


@pytest.fixture
def create_token() -> str | None:
    """The operator's token (`serve --create-token`): none unless a module gives one."""
    return None


@pytest.fixture
def server(
    service: RefereeService, limits: Limits, http_limits: HttpLimits, create_token: str | None
) -> Iterator[tuple[Server, int]]:
    config = ServerConfig(
        max_message_bytes=MAX_MESSAGE_BYTES,
        limits=limits,
        http=http_limits,
        create_token=create_token,
    )
    running, port = create_server(service, config=config)
    running.start()
    yield running, port
    service.close()  # ends the open streams first
    running.stop(None)


@pytest.fixture
def http(server: tuple[Server, int]) -> Http:
    return Http(server[0].serve_http("127.0.0.1", 0))


@pytest.fixture
def stub(server: tuple[Server, int]) -> Iterator[referee_pb2_grpc.RefereeStub]:
    with grpc.insecure_channel(f"127.0.0.1:{server[1]}") as channel:
        yield referee_pb2_grpc.RefereeStub(channel)


# the browser tests' (test_page.py, test_desk.py): one Chromium a module, a fresh page a test
@pytest.fixture(scope="module")
def context() -> Iterator[BrowserContext]:
    with browser.chromium() as opened:
        yield opened


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    opened = context.new_page()
    opened.set_default_timeout(BROWSER_WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert not errors, errors  # no script of the page failed
