"""Where the cores went during a measurement: CPU time of the run's processes, read from /proc.

On a machine of 2 cores shared with other work, a throughput figure means little without it:
which of the referee processes, PostgreSQL and the clients was busy, how much CPU other
processes took, and how long the cores sat waiting on the disk (fsync) or idle."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from referee.bench import TICKS, process_seconds, stat_fields

CORES = os.cpu_count() or 1

# CPU seconds used so far by some processes
Counter = Callable[[], float]


def tree_seconds(pid: int) -> float:
    """`pid`'s CPU seconds with its children's: those alive (a PostgreSQL backend for each
    connection) and those it has waited for (cutime, cstime)."""
    try:
        fields = stat_fields(pid)
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    own = sum(int(field) for field in fields[11:15]) / TICKS
    return own + sum(process_seconds(int(child)) for child in children)


def processes(pids: Iterable[int]) -> Counter:
    chosen = tuple(pids)
    return lambda: sum(process_seconds(pid) for pid in chosen)


def tree(pid: int) -> Counter:
    return lambda: tree_seconds(pid)


def _machine() -> tuple[float, float, float]:
    """The machine's CPU seconds so far, summed over its cores: busy, waiting on I/O, idle."""
    first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in first[1:9])
    busy = user + nice + system + irq + softirq + steal
    return busy / TICKS, iowait / TICKS, idle / TICKS


@dataclass(frozen=True)
class Reading:
    at: float
    seconds: dict[str, float]
    machine: tuple[float, float, float]


def read(counters: Mapping[str, Counter]) -> Reading:
    return Reading(time.monotonic(), {name: c() for name, c in counters.items()}, _machine())


def cores_used(before: Reading, after: Reading) -> dict[str, float]:
    """The cores each counter kept busy between the readings (1.0: one core all along), then
    `other` (busy time no counter accounts for: other processes, interrupts), `iowait` and
    `idle` of the machine's cores."""
    elapsed = after.at - before.at
    used = {name: (after.seconds[name] - before.seconds[name]) / elapsed for name in after.seconds}
    busy, iowait, idle = ((a - b) / elapsed for a, b in zip(after.machine, before.machine))
    return {**used, "other": max(0.0, busy - sum(used.values())), "iowait": iowait, "idle": idle}
