"""The mechanics this referee runs, by the name a spec's `mechanics:` gives. Adding a mechanic is
its package `referee/mechanics/<name>/` and one line here; nothing here imports the spec layer's
registry, which reads this list."""

from __future__ import annotations

from referee.mechanics.banking.mechanic import BankingMechanic
from referee.mechanics.base import Mechanic
from referee.mechanics.rummy import RummyMechanic
from referee.mechanics.tricks import TricksMechanic

MECHANICS: tuple[type[Mechanic], ...] = (
    RummyMechanic,
    BankingMechanic,
    TricksMechanic,
)


def by_name() -> dict[str, type[Mechanic]]:
    return {mechanic.name: mechanic for mechanic in MECHANICS}
