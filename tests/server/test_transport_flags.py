"""`serve`'s flags of issue 25 reach the server's settings, each also from its REFEREE_ variable,
and the descriptor soft limit is raised to the hard limit unless `--keep-fd-limit` says not."""

from __future__ import annotations

import argparse
import resource
from collections.abc import Iterator

import pytest

from referee.app import ServerConfig
from referee.commands import serve
from referee.commands.arguments import from_environment
from referee.web.gateway import HttpLimits


def config_of(argv: list[str], environ: dict[str, str] | None = None) -> ServerConfig:
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    from_environment(parser, environ or {})  # again, with this environment
    return serve.server_config(parser.parse_args(argv))


def test_the_defaults_bound_every_connection_and_body() -> None:
    config = config_of([])
    assert (config.handshake_timeout_s, config.idle_timeout_s) == (5.0, 60.0)
    assert config.max_connections == 0
    assert config.http == HttpLimits(
        body_bytes=64 * 1024,
        record_bytes=512 * 1024,
        body_timeout_s=10.0,
        header_timeout_s=5.0,
        connections_per_peer=256,
    )


def test_the_flags_set_them() -> None:
    config = config_of(
        [
            "--handshake-timeout", "2.5",
            "--idle-timeout", "0",
            "--max-grpc-connections", "900",
            "--max-connections-per-peer", "8",
            "--max-body-bytes", "4096",
            "--max-record-body-bytes", "100000",
            "--body-timeout", "3",
        ]
    )  # fmt: skip
    assert (config.handshake_timeout_s, config.idle_timeout_s) == (2.5, 0.0)
    assert config.max_connections == 900
    assert config.http.header_timeout_s == 2.5
    assert (config.http.body_bytes, config.http.record_bytes) == (4096, 100_000)
    assert (config.http.body_timeout_s, config.http.connections_per_peer) == (3.0, 8)


def test_so_do_their_variables() -> None:
    config = config_of([], {"REFEREE_HANDSHAKE_TIMEOUT": "1", "REFEREE_MAX_BODY_BYTES": "999"})
    assert (config.handshake_timeout_s, config.http.body_bytes) == (1.0, 999)


@pytest.mark.parametrize("text", ["-1", "soon", "inf", "nan"])
def test_a_timeout_is_a_number_of_seconds(text: str) -> None:
    with pytest.raises(SystemExit):
        config_of(["--handshake-timeout", text])


@pytest.fixture
def lowered() -> Iterator[int]:
    """The soft limit lowered for the test (to the hard limit less one), restored after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard - 1 < 64:
        pytest.skip(reason="no finite hard limit to raise to")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard - 1, hard))
    yield hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_soft_limit_is_raised_to_the_hard(lowered: int) -> None:
    assert serve.raise_descriptor_limit(keep=True) == (lowered - 1, lowered - 1, lowered)
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == lowered - 1  # the control
    assert serve.raise_descriptor_limit(keep=False) == (lowered - 1, lowered, lowered)
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == lowered
