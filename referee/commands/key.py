"""Print the public key the referee signs game records with, in hex (`referee verify --key`):
the store's (`--db FILE`, `--store URL`; made now if it keeps none, as on first start), the one
of `--signing-key FILE`, or a running referee's (`--target HOST:PORT`, GetSigningKey). `--pem`
prints it as a PEM public key instead."""

from __future__ import annotations

import argparse
from pathlib import Path

import grpc
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.commands.stored import add_store_arguments, opened_store
from referee.records.signing import SigningKey, kept_signing_key, read_public_key

TIMEOUT_S = 10.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_store_arguments(parser)
    parser.add_argument("--signing-key", metavar="FILE", type=Path, help="a private key file")
    parser.add_argument("--target", metavar="HOST:PORT", help="ask a running referee")
    parser.add_argument("--pem", action="store_true", help="print a PEM public key")


def run(args: argparse.Namespace) -> int:
    public = _public_key(args)
    if args.pem:
        pem = Ed25519PublicKey.from_public_bytes(public).public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        print(pem.decode("ascii"), end="")
    else:
        print(public.hex())
    return 0


def _public_key(args: argparse.Namespace) -> bytes:
    if args.signing_key is not None:
        return SigningKey.from_file(args.signing_key).public
    if args.target:
        with grpc.insecure_channel(args.target) as channel:  # a gRPC error: told by referee.cli
            answer = RefereeStub(channel).GetSigningKey(
                pb.GetSigningKeyRequest(), timeout=TIMEOUT_S
            )
        return read_public_key(answer.public_key)
    store = opened_store(args)
    try:
        return kept_signing_key(store).public
    finally:
        store.close()
