"""Debian's Chromium (/usr/bin/chromium), headless, driven by Playwright for Python: the page of
`serve --http` as a person sees it. Playwright's own browser download is never used; without
/usr/bin/chromium (`make chromium` installs it) the browser tests are skipped."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import BrowserContext, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
# the machine's notes: no sandbox (root in a container), nothing fetched from outside
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 860}


def available() -> bool:
    return CHROMIUM.exists() or shutil.which("chromium") is not None


@contextlib.contextmanager
def chromium() -> Iterator[BrowserContext]:
    """A fresh browser with a new empty profile, closed after."""
    with tempfile.TemporaryDirectory(prefix="referee-chromium-") as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")),
            headless=True,
            args=FLAGS,
            viewport=VIEWPORT,  # type: ignore[arg-type]
        )
        try:
            yield context
        finally:
            context.close()
