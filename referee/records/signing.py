"""The referee's signing key: Ed25519 (RFC 8032), through `cryptography`.

A referee signs the records it gives (GetRecord, `referee export`) with one key: created on first
start and kept in its store, so every process sharing a store signs alike, or read from
`serve --signing-key FILE` (a PEM private key, as `openssl genpkey -algorithm ed25519` writes, or
the 32-byte seed in hex). Its public key is given by GetSigningKey and `referee key`, in hex; a
key's id is the first 16 hex digits of the public key's sha256, to tell keys apart at a glance.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from referee.errors import RefereeError
from referee.store.base import Store

ALGORITHM = "ed25519"
KEY_BYTES = 32
KEY_ID_DIGITS = 16


class SigningKey:
    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = private.public_key().public_bytes_raw()

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_hex(cls, seed: str) -> SigningKey:
        """The key of a 32-byte seed in hex (as a store keeps it)."""
        try:
            raw = bytes.fromhex(seed.strip())
        except ValueError:
            raw = b""
        if len(raw) != KEY_BYTES:
            raise RefereeError(
                f"a signing key is {KEY_BYTES} bytes in hex ({2 * KEY_BYTES} digits)"
            )
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    @classmethod
    def from_file(cls, path: Path) -> SigningKey:
        """A PEM Ed25519 private key (unencrypted), or a seed in hex."""
        try:
            data = path.read_bytes()
        except OSError as error:
            raise RefereeError(
                f"the signing key `{path}` cannot be read: {error.strerror}"
            ) from None
        if b"-----BEGIN" not in data:
            return cls.from_hex(data.decode("ascii", "replace"))
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as error:
            raise RefereeError(f"the signing key `{path}` does not read: {error}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise RefereeError(f"the signing key `{path}` is not an Ed25519 key")
        return cls(key)

    @property
    def seed_hex(self) -> str:
        """The private key's seed, in hex: what a store keeps (and nothing else may show)."""
        return self._private.private_bytes_raw().hex()

    @property
    def public_hex(self) -> str:
        return self.public.hex()

    @property
    def key_id(self) -> str:
        return key_id(self.public)

    def sign(self, data: bytes) -> str:
        """The signature of `data`, in hex."""
        return self._private.sign(data).hex()

    def __repr__(self) -> str:  # never the private key, in a log or a traceback
        return f"SigningKey({self.key_id})"


def kept_signing_key(store: Store) -> SigningKey:
    """The store's key (made now if it keeps none)."""
    return SigningKey.from_hex(store.signing_key(SigningKey.generate().seed_hex))


def signing_key(path: Path | None, store: Store) -> SigningKey:
    """The key in `path` if given, else the store's."""
    return SigningKey.from_file(path) if path is not None else kept_signing_key(store)


def key_id(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()[:KEY_ID_DIGITS]


def read_public_key(text: str) -> bytes:
    """A public key as `referee key` prints it (hex) or as PEM; RefereeError otherwise."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(text.encode("ascii"))
        except (ValueError, UnicodeEncodeError) as error:
            raise RefereeError(f"the public key does not read: {error}") from None
        if not isinstance(key, Ed25519PublicKey):
            raise RefereeError("the public key is not an Ed25519 key")
        return key.public_bytes_raw()
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != KEY_BYTES:
        raise RefereeError(f"a public key is {KEY_BYTES} bytes in hex ({2 * KEY_BYTES} digits)")
    return raw


def signature_holds(public: bytes, data: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True
