"""YAML loading that remembers where every value came from.

Spec errors must point at the spot (`specs/pontinho.yaml:42:7: at `rules[3].require`: ...`),
so the loader keeps a map from each key path to its line and column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from referee.errors import SpecError

PathKey = tuple[str | int, ...]


def format_path(path: PathKey) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


@dataclass
class Located:
    """Plain data loaded from a YAML file, plus the position of every key path in it."""

    data: Any
    file: str
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def where(self, path: PathKey) -> tuple[int, int]:
        """Line and column (1-based) of `path`, or of its nearest located parent."""
        while path and path not in self.positions:
            path = path[:-1]
        return self.positions.get(path, (1, 1))

    def error(self, path: PathKey, message: str) -> SpecError:
        line, column = self.where(path)
        return SpecError(message, file=self.file, line=line, column=column,
                         path=format_path(path))


def load_yaml(path: str | Path) -> Located:
    text = Path(path).read_text(encoding="utf-8")
    return parse_yaml(text, str(path))


def parse_yaml(text: str, file: str = "<spec>") -> Located:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = getattr(exc, "problem", None) or str(exc)
        raise SpecError(f"not valid YAML: {problem}", file=file, line=line, column=column) from None
    located = Located(data=None, file=file, lines=text.splitlines())
    located.data = _convert(node, (), located.positions) if node is not None else {}
    return located


def _convert(node: yaml.Node, path: PathKey, positions: dict[PathKey, tuple[int, int]]) -> Any:
    positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            # keys are names: `on:` stays "on", never YAML 1.1's boolean
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else _scalar(key_node)
            result[key] = _convert(value_node, path + (str(key),), positions)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, path + (i,), positions) for i, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: yaml.Node) -> Any:
    return yaml.SafeLoader("").construct_object(node, deep=True)
