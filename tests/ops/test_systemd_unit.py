"""The systemd units of docs/deploying.md, as written there: each says what the referee needs of
systemd (hardening, its state folder, the token as a credential, a stop timeout no shorter than
the referee's stop), and `systemd-analyze verify` finds nothing to say about any of them, with
the checkout's referee in place of `/opt/referee/bin/referee` (verify checks the program exists).
The control: a unit with a misspelt key and a wrong value, which systemd would ignore with a
warning and exit status 0, is caught. Where systemd-analyze is missing, the keys are still
checked and the verification is skipped, saying so."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.commands.serve import STOP_WITHIN_S
from tests.support.server import ROOT

DEPLOYING = ROOT / "docs" / "deploying.md"
INSTALLED = "/opt/referee/bin/referee"
UNIT_BLOCK = re.compile(r"```ini\n# file: /etc/systemd/system/(\S+)\n(.*?)```", re.DOTALL)
ANALYZE = shutil.which("systemd-analyze")


def documented_units() -> dict[str, str]:
    return dict(UNIT_BLOCK.findall(DEPLOYING.read_text(encoding="utf-8")))


def settings(unit: str) -> dict[str, list[str]]:
    """Each key of the unit and its values, in order (a key may be given several times)."""
    found: dict[str, list[str]] = {}
    for line in unit.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def test_the_service_is_hardened_and_outwaits_the_referee_s_stop() -> None:
    units = documented_units()
    assert set(units) == {"referee.service", "referee-backup.service", "referee-backup.timer"}
    unit = settings(units["referee.service"])
    for key, value in {
        "DynamicUser": "yes",
        "StateDirectory": "referee",
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "Restart": "on-failure",
    }.items():
        assert unit[key] == [value], key
    assert float(unit["TimeoutStopSec"][0]) >= STOP_WITHIN_S
    assert unit["LoadCredential"] == ["create-token:/etc/referee/create-token"]
    assert "REFEREE_CREATE_TOKEN_FILE=%d/create-token" in unit["Environment"]
    assert "token" not in unit["ExecStart"][0]  # argv is public


def verify(folder: Path, units: dict[str, str]) -> str:
    """What `systemd-analyze verify` says of `units` (its exit status asserted 0)."""
    referee = str(Path(sys.executable).with_name("referee"))
    for name, text in units.items():
        (folder / name).write_text(text.replace(INSTALLED, referee), encoding="utf-8")
    assert ANALYZE is not None
    done = subprocess.run(
        [ANALYZE, "verify", *(f"./{name}" for name in units)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    return "\n".join(line for line in said.splitlines() if any(n in line for n in units))


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not on this machine")
def test_systemd_analyze_verifies_the_documented_units(tmp_path: Path) -> None:
    assert verify(tmp_path, documented_units()) == ""


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not on this machine")
def test_the_control_a_misspelt_unit_is_caught(tmp_path: Path) -> None:
    unit = documented_units()["referee.service"]
    wrong = unit.replace("ProtectSystem=", "ProtectSytem=").replace(
        "Restart=on-failure", "Restart=sometimes"
    )
    said = verify(tmp_path, {"referee.service": wrong})
    assert "ProtectSytem" in said and "sometimes" in said
