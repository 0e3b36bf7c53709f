"""A record sealed by the referee: the `signature` key holds the algorithm, the public key (hex)
and the Ed25519 signature (hex) of the canonical JSON of everything else in the record; the whole
is written in its signed form (`referee.records.canonical`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.model import JSON
from referee.records.canonical import canonical, signed_form
from referee.records.signing import ALGORITHM, SigningKey

SIGNATURE = "signature"


def sealed(record: Mapping[str, JSON], key: SigningKey) -> str:
    """The signed form of `record`, signed by `key` (a signature it had is replaced)."""
    body = unsealed(record)
    signature = {"algorithm": ALGORITHM, "key": key.public_hex, "value": key.sign(canonical(body))}
    return signed_form({**body, SIGNATURE: signature})


def unsealed(record: Mapping[str, JSON]) -> dict[str, Any]:
    """The record without its signature: what the signature is of."""
    return {key: value for key, value in record.items() if key != SIGNATURE}
