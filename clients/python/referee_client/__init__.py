"""A Python client for the referee (gRPC), and a random rummy bot for examples and tests."""

from referee_client.client import RefereeClient, TableHandle

__all__ = ["RefereeClient", "TableHandle"]
