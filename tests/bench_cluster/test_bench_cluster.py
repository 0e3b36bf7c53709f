"""`make bench-cluster` at a tiny size: it starts PostgreSQL and the referee processes, drives
every bench game through client processes, spreads the calls over the processes, then sends them
through HAProxy in front of one and two, and prints its figures and where the cores went. `make
cluster` runs it (with tests/cluster), not `make test`: PostgreSQL and some ten processes for
most of a minute of the two cores."""

from __future__ import annotations

import os

import pytest

from tests.bench_cluster.run import (
    POSTGRES,
    SQLITE,
    aims_lines,
    cores_line,
    figures_line,
    flush_line,
    lower_floor_ratio,
    main,
)


@pytest.mark.slow
@pytest.mark.skipif("CLUSTER_SCALE" not in os.environ, reason="make cluster runs it")
def test_the_cluster_bench_measures_sqlite_and_several_processes_on_postgresql(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = main(
        [
            *("--seconds", "0.5", "--clients", "1,3", "--processes", "2", "--proxied", "1,2"),
            *("--client-processes", "2", "--reload-moves", "60", "--watch-moves", "12"),
        ]
    )
    assert [(row.deployment, row.clients) for row in rows] == [
        ("SQLite ×1", 1),
        ("SQLite ×1", 3),
        ("PostgreSQL ×2", 1),
        ("PostgreSQL ×2", 3),
        ("HAProxy ×1", 1),
        ("HAProxy ×1", 3),
        ("HAProxy ×2", 1),
        ("HAProxy ×2", 3),
    ]
    for row in rows:
        assert row.propose["rps"] > 0 and row.floor["rps"] > 0 and row.flush["rps"] > 0
        assert row.propose["p50_ms"] <= row.propose["p99_ms"]
    assert rows[0].flush is rows[1].flush and rows[2].flush is rows[3].flush is rows[4].flush
    # at 1 client, Propose against the lower of the health check's and the flush floor
    lower = min(rows[2].floor["rps"], rows[2].flush["rps"])
    assert lower_floor_ratio(rows[2]) == f"{rows[2].propose['rps'] / lower:.2f}"
    assert lower_floor_ratio(rows[3]) == "-"
    spread = rows[3].cores
    assert spread["referee 1"] > 0 and spread["referee 2"] > 0  # round robin: both judged
    assert "haproxy" not in spread and all(row.cores["haproxy"] > 0 for row in rows[4:])
    printed = capsys.readouterr().out
    assert "3 clients in 2 client processes" in printed
    assert all(figures_line(row) in printed and cores_line(row) in printed for row in rows)
    assert flush_line(SQLITE, rows[0].flush) in printed
    assert flush_line(POSTGRES, rows[2].flush) in printed
    assert "; behind HAProxy, each table's calls to one process" in printed
    assert aims_lines(rows) == [line for line in printed.splitlines() if "referee CPU a" in line]
    assert len(aims_lines(rows)) == 4 and "+0% of HAProxy ×1's" in aims_lines(rows)[0]
    assert "another process  12 moves: p50" in printed
    assert "SQLite      99 moves: from its snapshot and the 49 after it" in printed
    assert "PostgreSQL  99 moves: from its snapshot and the 49 after it" in printed
