"""What is written on stderr below Python, logged as JSON lines.

grpc's C core writes its own lines on file descriptor 2 (`I1207 12:09:03.223854 21809
ssl_transport_security.cc:2563] Handshake failed ...` when a client speaks plaintext to a TLS
port), out of reach of `logging`. While `serve` serves, descriptor 2 is a pipe: a thread reads
each line written to it and logs it as a `native_stderr` event (its level and source file read
from the line when it has abseil's form), on the real stderr, where structlog writes.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

import structlog

log = structlog.get_logger("referee.native")

# abseil's (and glog's) prefix: severity letter, date, time, thread id, file:line]
ABSEIL_LINE = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ ([^\]\s]+)\] ?(.*)$")
LEVELS = {"I": "info", "W": "warning", "E": "error", "F": "critical"}
DRAIN_S = 2.0  # how long the end of serving waits for the last lines to be logged


@contextlib.contextmanager
def stderr_as_log() -> Iterator[TextIO]:
    """Descriptor 2 read back and logged while the block runs; yields the real stderr (a
    duplicate of it, kept open for the process's life: the log writes there, after the block
    too). Afterwards descriptor 2 is the real stderr again."""
    sys.stderr.flush()
    real = _real_stderr()
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)
    reader = threading.Thread(
        target=_log_lines, args=(read_end,), name="native-stderr", daemon=True
    )
    reader.start()
    try:
        yield real
    finally:
        sys.stderr.flush()
        os.dup2(real.fileno(), 2)  # the pipe's last write end closed: the reader reads its end
        reader.join(timeout=DRAIN_S)


_real: TextIO | None = None


def _real_stderr() -> TextIO:
    """One duplicate of descriptor 2 for the process: the log is configured once and writes
    there, so a second `serve` in the same process (tests) reuses it rather than leaking another."""
    global _real
    if _real is None:
        _real = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")
    return _real


def _log_lines(read_end: int) -> None:
    with open(read_end, "rb") as lines:
        for raw in lines:
            text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if text.strip():
                log_native_line(text)


def log_native_line(text: str) -> None:
    """One line written below Python, as an event: abseil's severity and source when it has
    them, else a warning with the line as it was."""
    fields: dict[str, Any] = {"line": text}
    level = "warning"
    found = ABSEIL_LINE.match(text)
    if found:
        letter, source, message = found.groups()
        level = LEVELS[letter]
        fields = {"source": source, "message": message}
    getattr(log, level)("native_stderr", **fields)
