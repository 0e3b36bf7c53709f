"""F5 (issue 25): GetViews each with a unique 7,000-character made-up seat token. A rate bucket
was kept for every token string seen (RSS +140 MB for 20,000), and unique tokens escaped the
per-token quota. Now only a token that authenticated holds a bucket, keyed by its digest: the
referee's memory stays where it was (20,000 tokens: under 10 MB more).

The control runs the same attack on a referee that keeps a bucket for every token string
(`undefended.py token-digests`): its memory grows by the tokens' size. The per-address rate is
off in both, so every call reaches the token quota; that a made-up token costs its address's
bucket is tests/server/test_quota_costs.py's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee_client import RefereeClient
from tests.harden.report import STRICT, report, scaled
from tests.harden.served import Served, referee

pytestmark = pytest.mark.slow  # every test here is a long run

TOKENS = 20_000 if STRICT else scaled(1_000)  # `make harden`: the attack
TOKEN_CHARS = 7_000
AT_ONCE = 64  # calls in flight
WARM_UP = 300
MB = 1024


def made_up_tokens(count: int, prefix: str = "t") -> Iterator[str]:
    for index in range(count):
        yield f"{prefix}{index:08d}".ljust(TOKEN_CHARS, "t")


def views_with(served: Served, table_id: str, tokens: Iterator[str]) -> dict[str, int]:
    """A GetView with each token, AT_ONCE at a time: how many ended with each status."""
    codes: dict[str, int] = {}
    with grpc.insecure_channel(served.address) as channel:
        stub = RefereeStub(channel)
        pending: list[Any] = []  # grpc.Future, which typeshed does not know generic
        for token in tokens:
            request = pb.GetViewRequest(table_id=table_id)
            pending.append(stub.GetView.future(request, metadata=(("x-seat-token", token),)))
            if len(pending) >= AT_ONCE:
                _count(pending, codes)
        _count(pending, codes)
    return codes


def _count(pending: list[Any], codes: dict[str, int]) -> None:
    for call in pending:
        failed = call.exception()
        code = failed.code().name if failed is not None else "OK"
        codes[code] = codes.get(code, 0) + 1
    pending.clear()


def attack(served: Served) -> tuple[int, dict[str, int]]:
    """The RSS growth in KB over TOKENS made-up tokens, and the calls' statuses."""
    with RefereeClient(served.address) as client:
        table = client.create_table("pontinho", seats=3)
    # the server's own growth first: its threads and their allocators at work on such calls
    views_with(served, table.id, made_up_tokens(WARM_UP, prefix="warm"))
    before = served.rss_kb
    codes = views_with(served, table.id, made_up_tokens(TOKENS))
    return served.rss_kb - before, codes


@pytest.mark.parametrize("defended", [True, False], ids=["digests", "control"])
def test_made_up_tokens_hold_no_memory(defended: bool) -> None:
    flags = ("--memory", "--peer-rate", "0", "--token-rate", "50/100")
    with referee(*flags, undefended=None if defended else "token-digests") as served:
        grown_kb, codes = attack(served)
    report(
        f"token buckets ({'defended' if defended else 'control'})",
        {"tokens": TOKENS, "token chars": TOKEN_CHARS, "rss growth MB": round(grown_kb / MB, 1)},
    )
    assert sum(codes.values()) == TOKENS
    assert set(codes) <= {"UNAUTHENTICATED", "PERMISSION_DENIED"}  # each refused by its token
    if defended:
        assert grown_kb < 10 * MB
    else:  # every token string kept: at least half its size each
        assert grown_kb > TOKENS * TOKEN_CHARS / 2 / 1024
