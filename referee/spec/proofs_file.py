"""A game's proofs file: the `properties` `referee prove` checks, kept beside the rules.

`specs/GAME.yaml` says how the game is played; `specs/GAME.proofs.yaml`, beside it, says what
z3 proves about those rules (its only key is `properties:`, read by `referee.proofs.properties`).
A variant (`extends: pontoon`) inherits its base's properties, which are claims about the rules
it shares; its own proofs file, if any, merges over them by `id` as its rules do: an entry with
a base's id replaces it, `{id: ..., remove: true}` drops it, a new id is added.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.spec.yamlsource import Located, PathKey, load_yaml

SUFFIX = ".proofs.yaml"
SECTION = "properties"


def proofs_path(spec_path: Path) -> Path:
    """`specs/pontoon.yaml` → `specs/pontoon.proofs.yaml`."""
    return spec_path.with_name(spec_path.name.removesuffix(".yaml") + SUFFIX)


def is_proofs_file(path: Path) -> bool:
    return path.name.endswith(SUFFIX)


def spec_of(proofs: Path) -> Path:
    """`specs/pontoon.proofs.yaml` → `specs/pontoon.yaml`: the rules a proofs file is about."""
    return proofs.with_name(proofs.name.removesuffix(SUFFIX) + ".yaml")


def spec_files(folder: Path) -> list[Path]:
    """The game specs of a folder: its `*.yaml` but the proofs files beside them."""
    return sorted(p for p in folder.glob("*.yaml") if not is_proofs_file(p))


def load_proofs(chain: Sequence[Path]) -> Located:
    """The properties of the spec read from `chain` (its files, the base first): every proofs
    file of the chain, merged; an empty list where none has one."""
    found = [_read(p) for p in map(proofs_path, chain) if p.is_file()]
    merged = Located(data={SECTION: []}, file=str(proofs_path(chain[-1])))
    entries: list[tuple[Located, PathKey]] = []
    for located in found:
        entries = _over(entries, located)
    for index, (source, at) in enumerate(entries):
        merged.graft(source, at, (SECTION, index))
        merged.data[SECTION].append(copy.deepcopy(source.data[SECTION][at[1]]))
    return merged


def misplaced(spec_file: str) -> str:
    """What a rules file that writes `properties:` is told: they have one place, beside it."""
    return (
        f"`{SECTION}` are stated in `{proofs_path(Path(spec_file)).name}` beside the spec, "
        "not in its rules: move them there"
    )


def _read(path: Path) -> Located:
    """One proofs file: a mapping whose only key is `properties`, a list."""
    located = load_yaml(path)
    data = located.data
    if not isinstance(data, dict):
        raise located.error((), f"a proofs file is a mapping: `{SECTION}: [...]`")
    for key in data:
        if key != SECTION:
            raise located.error(
                (str(key),),
                f"unknown key `{key}` of a proofs file: its only key is `{SECTION}`",
                at_key=True,
            )
    if not isinstance(data.get(SECTION) or [], list):
        raise located.error((SECTION,), f"`{SECTION}` is a list of properties")
    data[SECTION] = data.get(SECTION) or []
    return located


def _over(entries: list[tuple[Located, PathKey]], child: Located) -> list[tuple[Located, PathKey]]:
    """`child`'s properties over `entries` (where each comes from), by `id`."""
    result = list(entries)
    for index, item in enumerate(child.data[SECTION]):
        ids = [_id(source.data[SECTION][at[1]]) for source, at in result]
        if isinstance(item, dict) and item.get("remove"):
            if _id(item) not in ids:
                raise child.error(
                    (SECTION, index), f"no inherited property `{_id(item)}` to remove"
                )
            result = [e for e, i in zip(result, ids) if i != _id(item)]
        elif _id(item) is not None and _id(item) in ids:
            result[ids.index(_id(item))] = (child, (SECTION, index))
        else:
            result.append((child, (SECTION, index)))
    return result


def _id(item: Any) -> str | None:
    return str(item["id"]) if isinstance(item, dict) and "id" in item else None


__all__ = [
    "SECTION",
    "SUFFIX",
    "is_proofs_file",
    "load_proofs",
    "misplaced",
    "proofs_path",
    "spec_files",
    "spec_of",
]
