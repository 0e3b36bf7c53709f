"""The build step setuptools cannot declare: the wheel gets the gRPC code and the game specs.

- `referee/api/v1/*_pb2*.py` are generated here from `proto/` by `proto/generate.py` (the same
  command as `make proto`), so the wheel cannot ship code older than its `.proto`. They are build
  output, not committed: a committed copy would be a second source that a change of the proto
  could leave stale, and its diffs would be unreadable. `grpcio-tools` is therefore a build
  requirement (`[build-system].requires`), not a run-time one.
- `specs/*.yaml` (every game, the specs they `extends` and the proofs files beside them,
  `GAME.proofs.yaml`) are copied into `referee/specs/`, where
  `referee.plugins.games.DEFAULT_SPECS` finds them with importlib.resources. The checkout keeps
  one copy, `specs/`, which the source tree reads directly (`make run`, `make test`).

An editable install (`make install`) skips both: the checkout has `make proto` and `specs/`.
Everything else is declared in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _generator():  # proto/ is no package: load proto/generate.py by path
    spec = importlib.util.spec_from_file_location(
        "referee_proto_generate", ROOT / "proto" / "generate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithGeneratedCode(build_py):
    """`build_py`, then the gRPC code and the specs into the built `referee` package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        package = Path(self.build_lib) / "referee"
        written = _generator().generate(package / "api")
        specs = package / "specs"
        shutil.rmtree(specs, ignore_errors=True)
        specs.mkdir(parents=True)
        for spec_file in sorted((ROOT / "specs").glob("*.yaml")):
            written.append(Path(shutil.copy2(spec_file, specs)))
        self.announce(f"generated {len(written)} files into {package}", level=2)


setup(cmdclass={"build_py": BuildWithGeneratedCode})
