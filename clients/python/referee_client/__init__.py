"""A Python client for the referee (gRPC). The random bots that play through it are a package of
their own, `referee_bots`."""

from referee_client.client import RefereeClient, TableHandle

__all__ = ["RefereeClient", "TableHandle"]
