"""A throw-away PostgreSQL for the tests, and a fresh database of it for each test.

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


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL database from which tests create their own."""
    given = os.environ.get(SERVER_VARIABLE)
    if given:
        yield given
        return
    # not under pytest's temporary folder: run as root, pgserver runs PostgreSQL as another user,
    # who must traverse the folders above its data, and every pytest session that starts makes
    # its /tmp/pytest-of-USER private again (the server of a session running beside it fails)
    folder = Path(tempfile.mkdtemp(prefix="referee-test-pg-"))
    server = get_server(folder / "data", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server_url: str) -> str:
    """The URL of a new, empty database on the server."""
    name = f"referee_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return database_url(server_url, name)


def drop_database(server_url: str, url: str) -> None:
    """Drop the database of `url`, connected to the server's own (`server_url`)."""
    name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """The URL of a new, empty database on the test server, dropped after the test."""
    url = fresh_database(pg_server)
    yield url
    drop_database(pg_server, url)
