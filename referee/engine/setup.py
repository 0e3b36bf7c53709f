"""What CreateTable asked for, as a table keeps it: the first entry of its move log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from referee.model import JSON


@dataclass(frozen=True)
class TableSetup:
    """What CreateTable asked for, resolved (the secret and salt filled in) once the table
    exists. `seed` and `deal` are chosen by the creator (test and dispute mode); without a seed
    the root of the seed chain is the referee's `secret` (docs/fair-deal.md)."""

    game: str
    options: Mapping[str, JSON] = field(default_factory=dict)
    seats: int = 4
    dealer: int = 0
    seed: int | None = None
    deal: Mapping[str, JSON] | None = None
    scores: Mapping[int, int] | None = None
    balances: Mapping[int, int] | None = None
    salt: str | None = None
    secret: str | None = None  # hex: the referee's secret, the seed chain's root
    entropy: str | None = None  # the creator's contribution to the seed chain
    names: Mapping[int, str] | None = None  # display names by seat: labels, never identities

    def asked(self) -> dict[str, Any]:
        """What a creator asks CreateTable for, to make this table again (its keyword arguments
        in `RefereeService.create_table` and the Python client's): the referee draws the rest."""
        return {
            "seats": self.seats,
            "dealer": self.dealer,
            "options": dict(self.options),
            "seed": self.seed,
            "deal": self.deal,
            "scores": self.scores,
            "balances": self.balances,
            "entropy": self.entropy,
            "names": self.names,
        }

    def to_data(self) -> dict[str, JSON]:
        data = asdict(self)
        data["options"] = dict(self.options)
        for key in ("scores", "balances", "names"):
            if data[key] is not None:
                data[key] = {str(k): v for k, v in data[key].items()}
        if data["names"] is None:  # a table without names is stored as it was before them
            del data["names"]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> TableSetup:
        def seat_map(value: Any) -> dict[int, int] | None:
            return None if value is None else {int(k): int(v) for k, v in value.items()}

        return cls(
            game=data["game"],
            options=dict(data.get("options") or {}),
            seats=int(data.get("seats", 4)),
            dealer=int(data.get("dealer", 0)),
            seed=None if data.get("seed") is None else int(data["seed"]),
            deal=data.get("deal"),
            scores=seat_map(data.get("scores")),
            balances=seat_map(data.get("balances")),
            salt=data.get("salt"),
            secret=data.get("secret"),
            entropy=data.get("entropy"),
            names=None
            if data.get("names") is None
            else {int(k): str(v) for k, v in data["names"].items()},
        )
