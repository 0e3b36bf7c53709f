"""A copy of the shipped specs with one rule corrected, as an operator would correct it: the
folder a restarted referee loads (`--specs DIR`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.plugins.games import DEFAULT_SPECS

# Pontoon's initial bet (PO-3): at most a tenth of `max_bet` once corrected (10 by default)
BET_RULE = "require: move.amount >= options.min_bet and move.amount <= options.max_bet\n"
CORRECTED_BET_RULE = (
    "require: move.amount >= options.min_bet and move.amount <= options.max_bet // 10\n"
)
ALLOWED_BEFORE_ONLY = 50  # a bet the shipped rule allows and the corrected one refuses


def specs_copy(folder: Path) -> Path:
    """The shipped specs (and their proofs files), copied into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in Path(DEFAULT_SPECS).glob("*.yaml"):
        shutil.copy(path, folder / path.name)
    return folder


def edit(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"`{old.strip()}` is not once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def corrected_specs(folder: Path) -> Path:
    """The shipped specs with Pontoon's bet rule corrected."""
    edit(specs_copy(folder), "pontoon.yaml", BET_RULE, CORRECTED_BET_RULE)
    return folder
