"""Reading a spec's files: a spec with `extends: base` is its base's data overridden by its own,
merged key by key with every value keeping the file, line and column it was written at; the
files are read from the disk, or from the text a table once pinned (`referee.spec.source`)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.errors import SpecErrors
from referee.spec.source import SpecSource
from referee.spec.yamlsource import Located, PathKey, parse_yaml


class SpecFiles:
    """Where spec files are read from: the disk, or the source a game was once loaded from.
    Each text read is kept: the source of the game being loaded."""

    def __init__(self, stored: SpecSource | None = None) -> None:
        self._stored = stored
        self._read: dict[str, str] = {}

    def exists(self, path: Path) -> bool:
        if self._stored is None:
            return path.exists()
        return self._stored.text_of(str(path)) is not None

    def load(self, path: Path) -> Located:
        text = (
            path.read_text(encoding="utf-8")
            if self._stored is None
            else self._stored.text_of(str(path)) or ""
        )
        self._read[str(path)] = text
        return parse_yaml(text, str(path))

    def source(self, chain: Sequence[Path]) -> SpecSource:
        return SpecSource(tuple((str(p), self._read[str(p)]) for p in chain))


def load_with_parents(
    path: Path, specs_dir: Path, files: SpecFiles, seen: tuple[Path, ...] = ()
) -> tuple[Located, tuple[Path, ...]]:
    """A spec with `extends: parent` is the parent's data overridden by its own (see `merge`);
    every merged value keeps the file, line and column it was written at. With it, the files
    read, the base first (where their proofs files are found)."""
    located = files.load(path)
    parent_name = located.data.get("extends") if isinstance(located.data, dict) else None
    if parent_name is None:
        return located, (path,)
    parent_path = specs_dir / f"{parent_name}.yaml"
    if parent_path in seen or not files.exists(parent_path):
        problem = "extends itself" if parent_path in seen else "is not a spec in " + str(specs_dir)
        raise SpecErrors([located.error(("extends",), f"`{parent_name}` {problem}")])
    parent, chain = load_with_parents(parent_path, specs_dir, files, seen + (path,))
    merged = Located(data=None, file=located.file, lines=located.lines)
    merged.data = _merge(parent, (), located, (), merged, ())
    return merged, chain + (path,)


def merge(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Child over parent (plain data): see `_merge`."""
    out = Located(data=None, file="<merged>")
    merged: dict[str, Any] = _merge(
        Located(dict(parent), "<parent>"), (), Located(dict(child), "<child>"), (), out, ()
    )
    return merged


def _merge(
    parent: Located, p_path: PathKey, child: Located, c_path: PathKey, out: Located, path: PathKey
) -> Any:
    """Child over parent: mappings merge key by key; `rules` and `definitions` merge by id/name
    (a child entry replaces the parent's, `remove: true` drops it, new ones are appended); other
    values are the child's. Positions follow each value into `out`."""
    p_value, c_value = _at(parent.data, p_path), _at(child.data, c_path)
    if isinstance(p_value, dict) and isinstance(c_value, dict):
        result: dict[str, Any] = {}
        _place(out, child, c_path, path)
        for key in [*p_value, *[k for k in c_value if k not in p_value]]:
            if key == "extends":
                continue
            if key not in c_value:
                out.graft(parent, p_path + (key,), path + (key,))
                result[key] = copy.deepcopy(p_value[key])
            elif key not in p_value:
                out.graft(child, c_path + (key,), path + (key,))
                result[key] = copy.deepcopy(c_value[key])
            elif path == () and key in NAMED_LISTS and isinstance(c_value[key], list):
                result[key] = _merge_named(
                    parent, p_path + (key,), child, c_path + (key,), out, (key,), NAMED_LISTS[key]
                )
            else:
                result[key] = _merge(
                    parent, p_path + (key,), child, c_path + (key,), out, path + (key,)
                )
        return result
    out.graft(child, c_path, path)
    return copy.deepcopy(c_value)


NAMED_LISTS = {"rules": "id", "definitions": "name"}


def _merge_named(
    parent: Located,
    p_path: PathKey,
    child: Located,
    c_path: PathKey,
    out: Located,
    path: PathKey,
    key: str,
) -> list[Any]:
    def name_of(item: Any) -> Any:
        raw = item.get(key) if isinstance(item, dict) else None
        return str(raw).split("(")[0].strip() if raw is not None else None

    # each entry: (where it comes from, its index there)
    entries: list[tuple[Located, PathKey]] = [
        (parent, p_path + (i,)) for i in range(len(_at(parent.data, p_path) or []))
    ]
    for i, item in enumerate(_at(child.data, c_path)):
        names = [name_of(_at(src.data, at)) for src, at in entries]
        if isinstance(item, dict) and item.get("remove"):
            entries = [e for e, n in zip(entries, names) if n != name_of(item)]
        elif name_of(item) in names:
            entries[names.index(name_of(item))] = (child, c_path + (i,))
        else:
            entries.append((child, c_path + (i,)))
    result = []
    _place(out, child, c_path, path)
    for index, (source, at) in enumerate(entries):
        out.graft(source, at, path + (index,))
        result.append(copy.deepcopy(_at(source.data, at)))
    return result


def _place(out: Located, source: Located, source_path: PathKey, path: PathKey) -> None:
    """Where a merged mapping or list itself sits (its entries are placed one by one)."""
    out.positions[path] = source.where(source_path)
    if source_path in source.keys:
        out.keys[path] = source.keys[source_path]
    out.files[path] = source.file_of(source_path)


def _at(data: Any, path: PathKey) -> Any:
    for part in path:
        data = data[part]
    return data
