"""A referee restarted with a corrected rule, on every store (issue 14, point 1): a table created
before plays on under the rules it was created under, a new table under the corrected ones, and
views and DescribeGame say which version each plays. A table from before rules versions were
kept plays the rules loaded now, as it always did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.engine.versions import rules_version, source_text
from referee.errors import RefereeError
from referee.model import Move
from referee.plugins.games import load_games
from referee.service import RefereeService, auth
from referee.service.referee_service import SNAPSHOT_EVERY
from referee.store.base import Store, StoredSpec
from tests.store.conftest import open_store
from tests.versions.corrected import ALLOWED_BEFORE_ONLY, corrected_specs

BET = Move.from_data({"type": "bet", "amount": ALLOWED_BEFORE_ONLY})


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    # loaded once: every test only reads the games
    return load_games(corrected_specs(tmp_path_factory.mktemp("corrected")))


class Restarts:
    """One store, opened again for each referee started on it (memory: the same one)."""

    def __init__(self, kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
        self.kind, self._request, self._tmp_path = kind, request, tmp_path
        self._memory = open_store("memory", request, tmp_path) if kind == "memory" else None
        self._opened: list[tuple[RefereeService, Store]] = []

    def start(
        self, games: dict[str, Game], *, snapshot_every: int = SNAPSHOT_EVERY
    ) -> RefereeService:
        """A referee on the store, once the one before it (if any) is stopped."""
        self.stop()
        store = self._memory or open_store(self.kind, self._request, self._tmp_path)
        service = RefereeService(store, games, snapshot_every=snapshot_every)
        self._opened.append((service, store))
        return service

    @property
    def store(self) -> Store:
        """The store the running referee has open."""
        return self._opened[-1][1]

    def stop(self) -> None:
        for service, store in self._opened:
            service.close()
            if store is not self._memory:
                store.close()
        self._opened.clear()


@pytest.fixture
def restarts(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Restarts]:
    opened = Restarts(kind, request, tmp_path)
    yield opened
    opened.stop()


def to_act(service: RefereeService, table_id: str) -> int:
    return int(service.view(table_id, None).view["to_act"])


def bet(service: RefereeService, table_id: str, tokens: dict[int, str]) -> list[str]:
    """The rules a bet of ALLOWED_BEFORE_ONLY breaks, by the seat to act (none: accepted)."""
    verdict = service.propose(table_id, tokens[to_act(service, table_id)], BET).verdict
    return [violation.rule for violation in verdict.violations]


def test_an_old_table_keeps_its_rules_and_a_new_one_follows_the_correction(
    restarts: Restarts, games: dict[str, Game], corrected: dict[str, Game]
) -> None:
    shipped, fixed = rules_version(games["pontoon"]), rules_version(corrected["pontoon"])
    first = restarts.start(games)
    old = first.create_table("pontoon", seats=3)
    assert first.view(old.table_id, None).rules_version == shipped

    again = restarts.start(corrected)  # the rule corrected, the referee restarted
    new = again.create_table("pontoon", seats=3)
    assert bet(again, old.table_id, old.tokens) == []  # judged by the rule it was created under
    assert bet(again, new.table_id, new.tokens) == ["PO-3"]  # by the corrected one
    assert again.view(old.table_id, old.tokens[1]).rules_version == shipped
    assert again.view(new.table_id, new.tokens[1]).rules_version == fixed
    assert again.describe_game("pontoon")["rules_version"] == fixed

    third = restarts.start(corrected)  # both tables load again, each under its own rules
    assert third.view(old.table_id, None).rules_version == shipped
    assert third.view(new.table_id, None).view["version"] == 0


def test_a_corrected_base_pins_the_variants_old_tables_too(
    restarts: Restarts, games: dict[str, Game], corrected: dict[str, Game]
) -> None:
    """shoot_pontoon extends pontoon: correcting the base is a new version of the variant, and
    a variant's table keeps the version it was created under."""
    shipped, fixed = (
        rules_version(games["shoot_pontoon"]),
        rules_version(corrected["shoot_pontoon"]),
    )
    assert shipped != fixed
    old = restarts.start(games).create_table("shoot_pontoon", seats=3)
    again = restarts.start(corrected)
    new = again.create_table("shoot_pontoon", seats=3)
    assert again.view(old.table_id, None).rules_version == shipped
    assert again.view(new.table_id, None).rules_version == fixed
    stored = restarts.store.stored_spec(shipped)
    assert stored is not None and "pontoon.yaml" in stored.text  # the base's old text is kept


def test_an_old_table_reads_the_snapshots_taken_under_its_rules(
    restarts: Restarts, games: dict[str, Game], corrected: dict[str, Game]
) -> None:
    first = restarts.start(games, snapshot_every=1)
    old = first.create_table("pontoon", seats=3)
    assert bet(first, old.table_id, old.tokens) == []
    before = first.view(old.table_id, None).view

    again = restarts.start(corrected, snapshot_every=1)
    assert again.view(old.table_id, None).view == before
    loads = again.metrics.table_loads
    assert loads.labels(source="snapshot")._value.get() == 1
    assert loads.labels(source="log")._value.get() == 0


def test_a_table_from_before_rules_versions_plays_the_rules_loaded_now(
    restarts: Restarts, corrected: dict[str, Game]
) -> None:
    """Its database knows nothing of the rules it was created under (its row has none): it is
    served under the spec loaded now, as it was before rules versions were kept."""
    service = restarts.start(corrected)
    table = Table.create(corrected["pontoon"], TableSetup(game="pontoon", seats=3))
    tokens = auth.new_tokens(3)
    store = restarts.store
    store.create_table(
        "legacy", table.setup.to_data(), {s: auth.digest(t) for s, t in tokens.items()}
    )
    assert store.load_table("legacy").rules_version is None
    assert bet(service, "legacy", tokens) == ["PO-3"]
    assert service.view("legacy", None).rules_version == rules_version(corrected["pontoon"])


def test_a_stored_version_that_no_longer_compiles_is_said_so(
    restarts: Restarts, games: dict[str, Game]
) -> None:
    service = restarts.start(games)
    game = games["pontoon"]
    broken = source_text(game).replace("mechanics: banking", "mechanics: gone")
    table = Table.create(game, TableSetup(game="pontoon", seats=3))
    store = restarts.store
    store.create_table(
        "t1", table.setup.to_data(), {0: "0" * 64}, StoredSpec("f" * 64, "pontoon", broken)
    )
    with pytest.raises(RefereeError, match="version ffffffffffff, which does not compile any more"):
        service.view("t1", None)
