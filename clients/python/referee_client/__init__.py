"""A Python client for the referee (gRPC), and a random bot per mechanic (rummy, pontoon, tricks)
for examples, tests, transcripts and benchmarks."""

from referee_client.client import RefereeClient, TableHandle

__all__ = ["RefereeClient", "TableHandle"]
