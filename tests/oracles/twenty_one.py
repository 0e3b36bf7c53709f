"""The test-only twenty-one (docs/example-specs/twenty_one.yaml) in plain Python: how
a hand is settled against the banker."""

from __future__ import annotations

from tests.oracles.banking import BUST_OVER, best_total


def paid(player: list[str], banker: list[str], stake: int) -> int:
    """What the banker pays a hand (negative: what the hand pays); a bust hand holds no card."""
    if not player:
        return -stake
    return (
        stake
        if best_total(banker) > BUST_OVER or best_total(player) > best_total(banker)
        else -stake
    )
