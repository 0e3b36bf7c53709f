"""YAML loading that remembers where every value came from.

Spec errors must point at the spot (`specs/pontinho.yaml:42:7: at `rules[3].require`: ...`),
so the loader keeps a map from each key path to its line and column.
"""

from __future__ import annotations

import re
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


@dataclass(frozen=True)
class ScalarText:
    """A scalar's text as written, with where it starts (for expressions spanning lines).

    Block scalars (`>-`, `|`) keep their line breaks here (YAML folds `>` into one line), so
    an error inside an expression can point at its real line; `indent` is the block's indentation.
    """

    text: str
    line: int
    column: int
    indent: int


@dataclass
class Located:
    """Plain data loaded from a YAML file, plus where every value (and every key) sits."""

    data: Any
    file: str
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    keys: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    scalars: dict[PathKey, ScalarText] = field(default_factory=dict)
    files: dict[PathKey, str] = field(default_factory=dict)  # parts from another file (extends)

    def file_of(self, path: PathKey) -> str:
        """The file `path` was written in: a spec that extends another holds both."""
        while path and path not in self.files:
            path = path[:-1]
        return self.files.get(path, self.file)

    def scalar(self, path: PathKey, value: Any) -> ScalarText:
        """The text of the scalar at `path` as written, or `value` placed at `path`."""
        if path in self.scalars:
            return self.scalars[path]
        line, column = self.where(path)
        return ScalarText(str(value), line, column, column - 1)

    def where(self, path: PathKey) -> tuple[int, int]:
        """Line and column (1-based) of `path`, or of its nearest located parent."""
        while path and path not in self.positions:
            path = path[:-1]
        return self.positions.get(path, (1, 1))

    def error(self, path: PathKey, message: str, at_key: bool = False) -> SpecError:
        """An error about the value at `path`, or about its key itself (`at_key`)."""
        line, column = self.keys[path] if at_key and path in self.keys else self.where(path)
        return SpecError(
            message, file=self.file_of(path), line=line, column=column, path=format_path(path)
        )

    def graft(self, source: Located, source_path: PathKey, path: PathKey) -> None:
        """Take the positions of `source`'s subtree at `source_path` as this one's at `path`."""

        def moved(table: dict[PathKey, Any], into: dict[PathKey, Any]) -> None:
            size = len(source_path)
            for key, value in table.items():
                if key[:size] == source_path:
                    into[path + key[size:]] = value

        moved(source.positions, self.positions)
        moved(source.keys, self.keys)
        moved(source.scalars, self.scalars)
        here = source.file_of(source_path)
        moved({k: v for k, v in source.files.items()}, self.files)
        self.files[path] = here


def load_yaml(path: str | Path) -> Located:
    text = Path(path).read_text(encoding="utf-8")
    return parse_yaml(text, str(path))


# libyaml composes a spec's nodes, marks and all, ten times faster than the pure-Python loader;
# a file it refuses is read again by the latter, whose messages the hints below know
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, file: str = "<spec>") -> Located:
    try:
        node = _compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = getattr(exc, "problem", None) or str(exc)
        column, hint = _colon_hint(text.splitlines(), line, column, problem)
        raise SpecError(
            f"not valid YAML: {problem}{hint}", file=file, line=line, column=column
        ) from None
    located = Located(data=None, file=file, lines=text.splitlines())
    located.data = _convert(node, (), located) if node is not None else {}
    return located


def _compose(text: str) -> yaml.Node | None:
    """The document's node tree (None for an empty one); a YAMLError as the pure-Python loader
    words it."""
    try:
        return yaml.compose(text, Loader=FAST_LOADER)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


_COLON_PROBLEMS = ("mapping values are not allowed here", "expected ',' or '}', but got ':'")
_KEY_AND_VALUE = re.compile(r"^(\s*(?:- )?\{?\s*)([A-Za-z_][\w.]*):\s+(?=\S)")
_FLOW_KEY = re.compile(r"[{,]\s*([A-Za-z_]\w*):\s+(?=\S)")


def _colon_hint(lines: list[str], line: int, column: int, problem: str) -> tuple[int, str]:
    """When YAML trips on the `: ` of an unquoted expression (`all(c in hand: ...)`), say to
    quote it and point at where the expression starts: (column, hint), else (column, "")."""
    if problem not in _COLON_PROBLEMS or not 1 <= line <= len(lines):
        return column, ""
    text = lines[line - 1]
    starts = [(m.group(1), m.end()) for m in _FLOW_KEY.finditer(text, 0, column - 1)]
    if (m := _KEY_AND_VALUE.match(text)) and m.end() < column:
        starts.insert(0, (m.group(2), m.end()))
    if not starts:
        return column, ""
    key, start = starts[-1]
    return start + 1, (
        f": the value of `{key}` holds `: ` (an expression's `x in xs: ...`?): "
        f"quote it, `{key}: '...'`, or write it as a block, `{key}: >-`"
    )


def _convert(node: yaml.Node, path: PathKey, located: Located) -> Any:
    located.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            # keys are names: `on:` stays "on", never YAML 1.1's boolean
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else _scalar(key_node)
            located.keys[path + (str(key),)] = (
                key_node.start_mark.line + 1,
                key_node.start_mark.column + 1,
            )
            result[key] = _convert(value_node, path + (str(key),), located)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, path + (i,), located) for i, item in enumerate(node.value)]
    if isinstance(node, yaml.ScalarNode):
        located.scalars[path] = _scalar_text(node, located.lines)
    return _scalar(node)


def _scalar_text(node: yaml.ScalarNode, lines: list[str]) -> ScalarText:
    start, end = node.start_mark, node.end_mark
    if node.style in (">", "|"):
        body = lines[start.line + 1 : end.line + (1 if end.column else 0)]
        indent = min((len(line) - len(line.lstrip()) for line in body if line.strip()), default=0)
        text = "\n".join(line[indent:] for line in body).rstrip()
        return ScalarText(text, start.line + 2, indent + 1, indent)
    if node.style in ("'", '"'):
        return ScalarText(str(node.value), start.line + 1, start.column + 2, start.column + 1)
    return ScalarText(str(node.value), start.line + 1, start.column + 1, start.column)


def _scalar(node: yaml.Node) -> Any:
    return yaml.SafeLoader("").construct_object(node, deep=True)
