"""A power cut at a random commit (issue 10, point 9): with `synchronous=FULL` no acknowledged move
is lost; with `synchronous=NORMAL` the same harness loses some, which shows it has teeth.

Each run opens the real `SqliteStore` (its pragmas, statements and group commits) with the level
under test on a `PowerCut` VFS (tests/harden/power_cut.py) and the real service over it. Several
Pontinho tables are created and checkpointed, then played by one thread each (so commits are
grouped) with a `move_id` on every proposal; a move is acknowledged when the service returns its
verdict with the power still on. The power goes at a seeded random commit, at a random file
operation within it; the disk is left as the VFS's page-cache model says, with each unsynced
sector lost (even runs) or kept by a coin toss (odd runs). The image is then opened by the store
on the stdlib sqlite3 module, as the referee would after the reboot, and audited move by move.

`HARDEN_SCALE` multiplies the runs and how far into a run the cut may fall;
`HARDEN_REPORT=1` prints the figures.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from referee.engine.game import Game
from referee.model import Move
from referee.service import CreatedTable, RefereeService
from referee.store.sqlite import SqliteStore
from tests.harden.ledger import Audit, Ledger, draw_or_discard
from tests.harden.power_cut import Platter, PowerCut
from tests.harden.report import report, scaled

SEED = 20261201
RUNS = scaled(8)  # per level; the same seeds for both levels
LAST_CUT = scaled(100)  # the cut falls at commit 1 .. LAST_CUT after the tables are made
OPS_IN_A_COMMIT = 8  # the cut falls before file operation 0 .. 7 of its commit
TABLES = 3
MOVES_AT_MOST = LAST_CUT + 10  # per table: enough commits for the latest cut, even all grouped


@dataclass(frozen=True)
class Run:
    commits: int
    cut: str
    audit: Audit


def cut_power_once(folder: Path, games: dict[str, Game], synchronous: str, seed: int) -> Run:
    rng = random.Random(seed)
    vfs = PowerCut(
        f"power-cut-{folder.name}", random.Random(rng.random()), keep=0.5 if seed % 2 else 0.0
    )
    store = SqliteStore(folder / "referee.db", synchronous=synchronous, connect=vfs.connect)
    service, ledger = RefereeService(store, games, allow_stacked=True), Ledger()
    tables = [
        service.create_table("pontinho", seats=3, seed=rng.randrange(2**32)) for _ in range(TABLES)
    ]
    for table in tables:
        ledger.open(table.table_id)
    assert vfs.connection is not None
    vfs.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the tables are on disk
    commit, op = rng.randint(1, LAST_CUT), rng.randrange(OPS_IN_A_COMMIT)
    vfs.arm(commit, op)
    with ThreadPoolExecutor(TABLES) as pool:
        for player in [
            pool.submit(play, service, table, ledger, vfs, random.Random(rng.random()))
            for table in tables
        ]:
            player.result()
    service.close()
    store.close()
    vfs.unregister()
    vfs.write_image(folder / "after-the-cut")
    reopened = SqliteStore(folder / "after-the-cut" / "referee.db")  # stdlib sqlite3, FULL
    audit = ledger.audit(reopened)
    reopened.close()
    return Run(vfs.commits_at_cut - vfs.armed_at, f"{commit}/{op}", audit)


def play(
    service: RefereeService, table: CreatedTable, ledger: Ledger, vfs: PowerCut, rng: random.Random
) -> None:
    """Draw and discard until the power goes; acknowledge each verdict received before."""
    for number in range(MOVES_AT_MOST):
        seat = int(service.view(table.table_id, None).view["to_act"])
        token = table.tokens[seat]
        move = draw_or_discard(service.view(table.table_id, token).view, rng)
        move_id = f"{table.table_id}-{number}"
        verdict = service.propose(
            table.table_id, token, Move.from_data(move), move_id=move_id
        ).verdict
        assert verdict.accepted, verdict
        with vfs.power:
            if not vfs.powered:
                return
            ledger.acknowledge(table.table_id, verdict.version, move_id)
    raise AssertionError(f"no power cut in {MOVES_AT_MOST} moves of table {table.table_id}")


def cut_power(tmp_path: Path, games: dict[str, Game], synchronous: str) -> list[Run]:
    started = time.monotonic()
    runs = []
    for number in range(RUNS):
        folder = tmp_path / f"run-{number}"
        folder.mkdir()
        runs.append(cut_power_once(folder, games, synchronous, SEED + number))
    lost = [r.audit.lost for r in runs]
    report(
        f"power loss (synchronous={synchronous})",
        {
            "runs": RUNS,
            "commits to the cut": f"{min(r.commits for r in runs)}..{max(r.commits for r in runs)}",
            "cut at commit/op": " ".join(r.cut for r in runs[:8]) + (" ..." if RUNS > 8 else ""),
            "acknowledged": sum(r.audit.acknowledged for r in runs),
            "lost": sum(lost),
            "runs that lost": sum(1 for n in lost if n),
            "stored unacknowledged": sum(r.audit.unacknowledged for r in runs),
            "doubled": sum(r.audit.doubled for r in runs),
            "seconds": round(time.monotonic() - started, 1),
        },
    )
    assert all(r.audit.doubled == 0 for r in runs)
    return runs


def test_with_synchronous_full_a_power_cut_loses_no_acknowledged_move(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    runs = cut_power(tmp_path, games, "FULL")
    assert [r.audit.lost for r in runs] == [0] * RUNS
    assert sum(r.audit.acknowledged for r in runs) > 0


def test_with_synchronous_normal_the_same_cut_loses_moves(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """The harness has teeth: NORMAL syncs the log only at a checkpoint."""
    runs = cut_power(tmp_path, games, "NORMAL")
    assert sum(r.audit.lost for r in runs) > 0


def test_the_disk_keeps_what_was_synced_and_maybe_what_was_not() -> None:
    platter = Platter()
    platter.write(0, b"a" * 1024)
    platter.sync()
    platter.write(512, b"b" * 1024)  # two sectors, not synced
    platter.truncate(1024)
    assert platter.survivor(lambda: False) == b"a" * 1024
    assert platter.survivor(lambda: True) == b"a" * 512 + b"b" * 512
    torn = iter([False, True, False])  # the second sector written back, not the first
    assert platter.survivor(lambda: next(torn)) == b"a" * 1024 + b"b" * 512
