"""A throw-away PostgreSQL for the tests (and `make bench-cluster`), and a fresh database of it
for each test.

The server is `REFEREE_TEST_PG` (the URL of a database whose role may create databases) when it
is set, else a PostgreSQL 16 that pgserver (a pip package shipping the binaries) starts in a
temporary folder, one per pytest-xdist worker (about a second): nothing to install, nothing shared
between workers, stopped and deleted at the end. Each test gets its own database (`pg_url`),
created in some 30 ms and dropped after, so tests stand alone.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

with warnings.catch_warnings():
    # pgserver picks its lock folder when imported (platformdirs' runtime dir): with no
    # XDG_RUNTIME_DIR it says it falls back to /tmp/runtime-UID, which serves as well
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
    from pgserver.postgres_server import get_server

SERVER_VARIABLE = "REFEREE_TEST_PG"


def database_url(server_url: str, name: str) -> str:
    """`server_url` naming database `name` instead (its host, socket and options kept)."""
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@dataclass(frozen=True)
class Server:
    """A PostgreSQL server to create databases on: `url` names one whose role may create them;
    `pid`, the postmaster's, when it was started here (none for `REFEREE_TEST_PG`'s)."""

    url: str
    pid: int | None


@contextmanager
def throwaway_server() -> Iterator[Server]:
    """`REFEREE_TEST_PG`'s server, else a new one by pgserver, stopped and deleted after."""
    given = os.environ.get(SERVER_VARIABLE)
    if given:
        yield Server(given, None)
        return
    # not under pytest's temporary folder: run as root, pgserver runs PostgreSQL as another user,
    # who must traverse the folders above its data, and every pytest session that starts makes
    # its /tmp/pytest-of-USER private again (the server of a session running beside it fails)
    folder = Path(tempfile.mkdtemp(prefix="referee-test-pg-"))
    server = get_server(folder / "data", cleanup_mode="delete")
    try:
        yield Server(server.get_uri(), server.get_pid())
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """The URL of a new, empty database on the server of `server_url`, dropped after."""
    name = f"referee_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield database_url(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL database from which tests create their own."""
    with throwaway_server() as server:
        yield server.url


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """The URL of a new, empty database on the test server, dropped after the test."""
    with fresh_database(pg_server) as url:
        yield url
