"""The package graph stays clean: the folders of referee/ are layers (issue 26: import-linter's
contracts in pyproject.toml), no import cycles, no function-level imports (issue 12, point 5).

The graph is built from the source with `ast`, not by importing: one node per module of
`referee/` (the generated `referee.api` left out: it is build output and imports nothing of ours),
of the client `referee_client` and of the bots `referee_bots`; one edge per import at module
level, those under `if TYPE_CHECKING:` included (a cycle that only the type checker sees is still
a knot in the design). `from package import name` is an edge to `package.name` when that is a
module, else to `package`. Importing a submodule also runs its parents' `__init__`; those implicit
edges are left out, as import linters do, so a package may re-export its own submodules.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {  # top-level package -> the folder it lives in
    "referee": ROOT / "referee",
    "referee_client": ROOT / "clients" / "python" / "referee_client",
    "referee_bots": ROOT / "clients" / "python" / "referee_bots",
}
GENERATED = "referee.api"


def _module_name(package: str, folder: Path, path: Path) -> str:
    parts = [package, *path.relative_to(folder).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            name = _module_name(package, folder, path)
            if not _within(name, GENERATED):
                found[name] = path
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _module_level(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported: its top level, and inside `if`/`try`."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            yield from _module_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            handlers = [stmt for handler in node.handlers for stmt in handler.body]
            yield from _module_level(node.body + handlers + node.orelse + node.finalbody)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(
    node: ast.Import | ast.ImportFrom, module: str, path: Path, modules: dict[str, Path]
) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    source = _absolute(node, module, path.name == "__init__.py")
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        yield submodule if submodule in modules else source


def _ours(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ours an import name refers to (its longest known prefix), if any."""
    if _within(name, GENERATED):
        return None
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in _module_level(tree.body):
            for target in _targets(node, module, path, modules):
                ours = _ours(target, modules)
                if ours is not None and ours != module:
                    graph[module].add(ours)
    return graph


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the knots of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    knots: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    knot = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        knot.append(member)
                        if member == node:
                            break
                    if len(knot) > 1:
                        knots.append(sorted(knot))
    return knots


def _nested_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    top = set(map(id, _module_level(tree.body)))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
            yield node


def _lint_imports(config: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(lint), "--config", str(config), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_folders_are_layers() -> None:
    """Each folder of referee/ imports only the layers below it, and no two side by side import
    each other, at any depth (pyproject.toml's `[tool.importlinter]`)."""
    linted = _lint_imports(ROOT / "pyproject.toml")
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert re.search(r"Contracts: 2 kept, 0 broken", linted.stdout), linted.stdout


def test_an_import_pointing_up_is_caught(tmp_path: Path) -> None:
    """The control: with the engine put above the mechanics, the mechanics' imports of the
    engine's contract point up, and the contract breaks naming them."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = settings["contracts"][0]["layers"]
    engine, mechanics = layers.index("engine | store"), layers.index("mechanics")
    layers[engine], layers[mechanics] = layers[mechanics], layers[engine]
    config = tmp_path / "swapped.toml"
    config.write_text(_toml(settings))
    linted = _lint_imports(config)
    assert linted.returncode == 1, linted.stdout
    assert "referee.mechanics is not allowed to import referee.engine" in linted.stdout


def _toml(settings: dict[str, object]) -> str:
    """`settings` as the `[tool.importlinter]` of a TOML file (its values: strings and lists of
    strings, and its contracts)."""
    contracts = settings["contracts"]
    assert isinstance(contracts, list)

    def lines(table: dict[str, object]) -> list[str]:
        return [f"{key} = {_value(value)}" for key, value in table.items()]

    body = ["[tool.importlinter]", *lines({k: v for k, v in settings.items() if k != "contracts"})]
    for contract in contracts:
        body += ["", "[[tool.importlinter.contracts]]", *lines(contract)]
    return "\n".join(body) + "\n"


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return '"' + str(value) + '"'


def test_the_graph_sees_the_packages() -> None:
    graph = import_graph()
    assert "referee.service" in graph and "referee_client.client" in graph
    assert "referee.engine.table" in graph["referee.service"] or any(
        "referee.engine.table" in graph[name] for name in graph if _within(name, "referee.service")
    )


def test_no_import_cycles() -> None:
    knots = _strongly_connected(import_graph())
    assert not knots, "import cycles:\n" + "\n".join(" <-> ".join(knot) for knot in knots)


def test_no_function_level_imports() -> None:
    found = []
    for path in _modules().values():
        tree = ast.parse(path.read_text(), filename=str(path))
        found += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in _nested_imports(tree)]
    assert not found, "imports inside functions or classes:\n" + "\n".join(found)


def test_the_bots_import_nothing_of_the_engine() -> None:
    graph = import_graph()
    bots = [name for name in graph if _within(name, "referee_bots")]
    assert bots, "no referee_bots package found"
    leaks = {
        name: sorted(target for target in graph[name] if not _within(target, "referee_bots"))
        for name in bots
    }
    assert not any(leaks.values()), leaks


def test_the_generated_code_is_its_own_package() -> None:
    """referee.api is a leaf: nothing of ours is imported by it, so the client may use it."""
    api = ROOT / "referee" / "api" / "__init__.py"
    tree = ast.parse(api.read_text())
    assert not list(_module_level(tree.body))
    graph = import_graph()
    client = {target for name in graph if _within(name, "referee_client") for target in graph[name]}
    assert all(_within(target, "referee_client") for target in client), client


# the tools that iterate over the installed plugins (issue 12, point 1): none names a mechanic
ITERATING = (
    "referee.plugins.games",
    "referee.plugins.transcript",
    "referee.commands.play",
    "referee.scenario.checks",
    "referee.scenario.fields",
)


def test_the_tools_iterate_over_the_plugins() -> None:
    """Adding a mechanic touches its package, its plugin (`referee/plugins/<name>.py`) and
    `referee.plugins.installed`: the tools reach mechanics, bots and a mechanic's plugin only
    through that list."""
    graph = import_graph()
    plugins = {  # a mechanic's plugin: a module of referee.plugins importing a mechanic
        name
        for name in graph
        if name.startswith("referee.plugins.")
        and any(target.startswith("referee.mechanics.") for target in graph[name])
    }
    assert {"referee.plugins.rummy", "referee.plugins.banking"} <= plugins
    for name in ITERATING:
        named = sorted(
            target
            for target in graph[name]
            if target.startswith(("referee.mechanics.", "referee_bots")) or target in plugins
        )
        assert not named, f"{name} names {named}"
