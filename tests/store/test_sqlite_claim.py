"""The claim `referee serve` holds on its SQLite file (`referee.store.sqlite_claim`), in one
process: an flock belongs to an open file description, so a second claim here is refused as one
from another process is; stores open the file freely, claimed or not."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from referee.store.sqlite import SqliteStore
from referee.store.sqlite_claim import ServedElsewhere, ServingClaim, sidecar


def test_a_second_claim_is_refused_naming_the_file_its_holder_and_postgresql(
    tmp_path: Path,
) -> None:
    db = tmp_path / "referee.db"
    with ServingClaim(db), pytest.raises(ServedElsewhere) as refused:
        ServingClaim(db)
    assert refused.value.code == "sqlite_served_elsewhere"
    said = str(refused.value)
    assert said.startswith(f"`{db}` is served by another referee process (pid {os.getpid()}): ")
    assert "`referee serve --store postgresql://...`" in said and "\n" not in said


def test_a_released_claim_can_be_taken_again(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    ServingClaim(db).release()
    with ServingClaim(db) as claim:
        assert claim.path == tmp_path / "referee.db.lock"
        assert claim.path.read_text() == f"{os.getpid()}\n"
    assert claim.path.exists()  # never deleted: see the module's docstring


def test_a_link_to_the_file_shares_its_claim(tmp_path: Path) -> None:
    db, link = tmp_path / "referee.db", tmp_path / "link.db"
    link.symlink_to(db)
    assert sidecar(link) == sidecar(db)
    with ServingClaim(db), pytest.raises(ServedElsewhere):
        ServingClaim(link)


def test_a_holder_that_has_not_written_its_pid_yet_is_named_without_one(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    held = os.open(sidecar(db), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(ServedElsewhere, match="another referee process: one SQLite file"):
            ServingClaim(db)
    finally:
        os.close(held)


def test_stores_open_a_claimed_file_in_the_process_that_claims_it(tmp_path: Path) -> None:
    db = tmp_path / "referee.db"
    with ServingClaim(db):
        first = SqliteStore(db)
        first.create_table("t1", {"game": "pontinho", "seats": 3}, {0: "h0"})
        first.close()
        again = SqliteStore(db)  # a durability test reopening the file
        assert again.table_ids() == ["t1"]
        again.close()
