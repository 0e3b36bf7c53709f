"""`referee verify` and `referee key` on the command line: a record exported and verified by the
store's key, a changed one refused (exit 1, the failing check named), one that cannot be read
(exit 2); keys as hex and PEM, from a store, a key file or a running referee."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee.cli import main
from referee.engine.game import Game
from referee.records.signing import SigningKey
from tests.records.played import signed_record
from tests.support.server import ServerProcess

KEY = SigningKey.generate()


@pytest.fixture
def record_file(tmp_path: Path, games: dict[str, Game]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(signed_record(games["pontinho"], most=100, key=KEY), encoding="utf-8")
    return path


def test_a_record_verifies_by_its_key(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(record_file), "--key", KEY.public_hex]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [
        "form", "signature", "chain", "commitments", "replay"
    ]  # fmt: skip
    assert all(": ok: " in line for line in lines[:-1]) and lines[-1] == "verified"
    assert main(["verify", str(record_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["holds"] is True


def test_a_changed_record_or_another_key_is_refused(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = record_file.read_text(encoding="utf-8")
    record_file.write_text(text.replace('"type":"draw"', '"type":"drew"', 1), encoding="utf-8")
    assert main(["verify", str(record_file)]) == 1
    out = capsys.readouterr().out
    assert "signature: FAILED: " in out and out.splitlines()[-1] == "NOT verified"

    record_file.write_text(text, encoding="utf-8")
    other = SigningKey.generate().public_hex
    assert main(["verify", str(record_file), "--key", other]) == 1
    assert "not by the trusted key" in capsys.readouterr().out


def test_what_cannot_be_read_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(tmp_path / "none.json")]) == 2
    assert "cannot be read" in capsys.readouterr().err
    (tmp_path / "r.json").write_text("{}\n")
    assert main(["verify", str(tmp_path / "r.json"), "--key", "not-a-key"]) == 2
    assert "a public key is 32 bytes in hex" in capsys.readouterr().err


def test_a_key_file_in_pem_or_hex_signs_and_prints_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    private = Ed25519PrivateKey.generate()
    pem = tmp_path / "key.pem"
    pem.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    seed = tmp_path / "key.hex"
    seed.write_text(private.private_bytes_raw().hex() + "\n")
    public = private.public_key().public_bytes_raw().hex()
    for path in (pem, seed):
        assert main(["key", "--signing-key", str(path)]) == 0
        assert capsys.readouterr().out.strip() == public
    assert main(["key", "--signing-key", str(pem), "--pem"]) == 0
    public_pem = tmp_path / "public.pem"
    public_pem.write_text(capsys.readouterr().out)
    assert public_pem.read_text().startswith("-----BEGIN PUBLIC KEY-----")
    assert SigningKey.from_file(pem).public.hex() == public
    (tmp_path / "bad.pem").write_text("-----BEGIN PRIVATE KEY-----\nnope\n")
    assert main(["key", "--signing-key", str(tmp_path / "bad.pem")]) == 2


def test_serve_signs_with_the_key_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = SigningKey.generate()
    path = tmp_path / "key.hex"
    path.write_text(key.seed_hex)
    server = ServerProcess(store=["--memory", "--signing-key", str(path)])
    try:
        code = main(["key", "--target", server.address])
        said = capsys.readouterr()
        assert (code, said.out.strip()) == (0, key.public_hex), said.err
    finally:
        assert server.stop() == 0
