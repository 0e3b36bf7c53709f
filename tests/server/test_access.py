"""Who may reach the referee (issue 10): the operator's create token, and TLS with an optional
client CA. Each refusal has its control: the same call with the right secret goes through."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import trustme

from referee.api.v1 import referee_pb2 as pb
from referee.app import ServerConfig
from referee.engine.game import Game
from referee.server.tls import TlsFiles
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_client import RefereeClient
from tests.support import served
from tests.support.server import serving as support_serving
from tests.support.server import status_of

SECRET = "the-operator's-secret"


def serving(games: dict[str, Game], config: ServerConfig) -> contextlib.AbstractContextManager[str]:
    return support_serving(RefereeService(MemoryStore(), games), config)


def test_create_table_needs_the_operators_token(games: dict[str, Game]) -> None:
    with serving(games, ServerConfig(create_token=SECRET)) as address:
        for given in (None, "", "wrong", SECRET + "x"):
            with RefereeClient(address, create_token=given) as client:
                refused = status_of(lambda: client.create_table("pontinho", seats=3))
                assert refused == grpc.StatusCode.PERMISSION_DENIED
                assert "pontinho" in client.games()  # everything else answers
        with RefereeClient(address, create_token=SECRET) as operator:
            table = operator.create_table("pontinho", seats=3)
        with RefereeClient(address) as seat:  # a seat needs only its own token
            assert seat.view(table.id, table.tokens[1])["to_act"] == 1


def test_without_a_create_token_anyone_creates(games: dict[str, Game]) -> None:
    with serving(games, ServerConfig()) as address, RefereeClient(address) as client:
        assert client.create_table("pontinho", seats=3).id


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A server certificate for 127.0.0.1 from one CA, a client certificate from another."""
    folder = tmp_path_factory.mktemp("pki")
    server_ca, client_ca, stranger_ca = trustme.CA(), trustme.CA(), trustme.CA()
    server = server_ca.issue_cert("127.0.0.1", "localhost")
    client = client_ca.issue_cert("a-club-client")
    files = {
        "ca": server_ca.cert_pem,
        "cert": server.cert_chain_pems[0],
        "key": server.private_key_pem,
        "client_ca": client_ca.cert_pem,
        "client_cert": client.cert_chain_pems[0],
        "client_key": client.private_key_pem,
        "stranger_ca": stranger_ca.cert_pem,
    }
    paths = {}
    for name, blob in files.items():
        paths[name] = folder / f"{name}.pem"
        blob.write_to_path(str(paths[name]))
    return paths


def reaches(
    address: str,
    tls_ca: bytes | None = None,
    tls_cert: bytes | None = None,
    tls_key: bytes | None = None,
) -> bool:
    """Whether a client with these TLS settings (none: plaintext) gets an answer."""
    with RefereeClient(address, tls_ca=tls_ca, tls_cert=tls_cert, tls_key=tls_key) as client:
        try:
            client.stub.ListGames(pb.ListGamesRequest(), timeout=5)
            return True
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE, error  # the handshake failed
            return False


def test_tls_serves_only_clients_that_speak_it(
    games: dict[str, Game], pki: dict[str, Path]
) -> None:
    tls = TlsFiles(pki["cert"], pki["key"])
    with serving(games, ServerConfig(tls=tls)) as address:
        assert reaches(address, tls_ca=pki["ca"].read_bytes())
        assert not reaches(address)  # plaintext
        assert not reaches(address, tls_ca=pki["stranger_ca"].read_bytes())  # wrong server


def test_a_client_ca_refuses_clients_without_its_certificate(
    games: dict[str, Game], pki: dict[str, Path]
) -> None:
    tls = TlsFiles(pki["cert"], pki["key"], client_ca=pki["client_ca"])
    with serving(games, ServerConfig(tls=tls)) as address:
        ca = pki["ca"].read_bytes()
        assert not reaches(address, tls_ca=ca)  # no client certificate
        assert not reaches(
            address, tls_ca=ca, tls_cert=pki["cert"].read_bytes(), tls_key=pki["key"].read_bytes()
        )  # one the client CA did not sign
        assert reaches(
            address,
            tls_ca=ca,
            tls_cert=pki["client_cert"].read_bytes(),
            tls_key=pki["client_key"].read_bytes(),
        )


def serve(*flags: str) -> subprocess.Popen[str]:
    return served.start("--memory", *flags, stderr=subprocess.PIPE)


@contextlib.contextmanager
def listening(*flags: str) -> Iterator[str]:
    process = serve(*flags)
    try:
        yield served.address(process)  # "referee listening on 0.0.0.0:PORT", say
    finally:
        served.stop(process)


@pytest.mark.slow
def test_serve_on_an_open_address_needs_a_create_token(tmp_path: Path) -> None:
    refused = serve("--host", "0.0.0.0")
    _, errors = refused.communicate(timeout=60)
    assert refused.returncode == 2
    assert "--create-token-file" in errors and "--open-create" in errors
    token_file = tmp_path / "create-token"
    token_file.write_text(SECRET + "\n")
    with listening("--host", "0.0.0.0", "--create-token-file", str(token_file)) as address:
        with RefereeClient(address) as stranger:
            assert (
                status_of(lambda: stranger.create_table("pontinho", seats=3))
                == grpc.StatusCode.PERMISSION_DENIED
            )
        with RefereeClient(address, create_token=SECRET) as operator:
            assert operator.create_table("pontinho", seats=3).id
    with (
        listening("--host", "0.0.0.0", "--open-create") as address,  # waived out loud
        RefereeClient(address) as anyone,
    ):
        assert anyone.create_table("pontinho", seats=3).id


@pytest.mark.slow
def test_serve_speaks_tls_from_its_flags(pki: dict[str, Path]) -> None:
    with listening("--tls-cert", str(pki["cert"]), "--tls-key", str(pki["key"])) as address:
        assert reaches(address, tls_ca=pki["ca"].read_bytes())
        assert not reaches(address)
    half = serve("--tls-cert", str(pki["cert"]))
    _, errors = half.communicate(timeout=60)
    assert half.returncode == 2 and "--tls-key" in errors
