"""TLS for the server: a certificate chain and its key, and optionally the CA whose client
certificates it accepts (mutual TLS: a client without one is refused in the handshake)."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc


@dataclass(frozen=True)
class TlsFiles:
    cert: Path  # PEM: the server's certificate chain
    key: Path  # PEM: its private key
    client_ca: Path | None = None  # PEM: when set, every client must show a certificate it signed

    def credentials(self) -> grpc.ServerCredentials:
        ca = self.client_ca.read_bytes() if self.client_ca else None
        return grpc.ssl_server_credentials(
            [(self.key.read_bytes(), self.cert.read_bytes())],
            root_certificates=ca,
            require_client_auth=ca is not None,
        )

    def ssl_context(self) -> ssl.SSLContext:
        """The same certificate and client CA for the HTTP server (`serve --http`)."""
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        if self.client_ca is not None:
            context.load_verify_locations(self.client_ca)
            context.verify_mode = ssl.CERT_REQUIRED
        return context
