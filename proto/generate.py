"""Generate the Python gRPC code for `proto/` into the `referee.api` package (`make proto`).

protoc names the generated modules after the proto's path (`referee/v1/referee.proto` ->
`referee.v1.referee_pb2`), which would shadow the `referee` package itself; the code is written
under `referee/api/` instead and its imports of sibling modules are rewritten to match. The proto
file keeps its own name, so a client generated elsewhere from the same file stays compatible.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

from google.api import annotations_pb2
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PACKAGE_DIR = ROOT / "referee" / "api"  # `generate(into)` writes elsewhere: setup.py's build
PROTO_PACKAGE = "referee"  # top-level directory of the protos, as protoc turns it into imports
API_PACKAGE = "referee.api"

# `from referee.v1 import referee_pb2 as ...` -> `from referee.api.v1 import referee_pb2 as ...`
_SIBLING_IMPORT = re.compile(rf"^from {PROTO_PACKAGE}\.(\S+) import", re.MULTILINE)


def protos() -> list[Path]:
    return sorted(PROTO_DIR.joinpath(PROTO_PACKAGE).rglob("*.proto"))


def includes() -> list[Path]:
    """The folders of the protos the API imports: google/protobuf/*.proto (struct.proto) ship
    with grpc_tools, google/api/{annotations,http}.proto (the HTTP routes) with
    googleapis-common-protos, beside the modules generated from them."""
    return [
        Path(protoc.__file__).parent / "_proto",
        Path(annotations_pb2.__file__).parent.parent.parent,
    ]


def run_protoc(out: Path) -> None:
    args = [
        "protoc",
        f"-I{PROTO_DIR}",
        *(f"-I{folder}" for folder in includes()),
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
    ]
    args += [str(p.relative_to(PROTO_DIR)) for p in protos()]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed: see the messages above")


def install(generated: Path, package_dir: Path) -> None:
    """Move the generated tree into `package_dir` (`referee/api`), with imports and `__init__.py`
    files fixed."""
    for source in sorted(generated.rglob("*.py*")):
        target = package_dir / source.relative_to(generated)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = _SIBLING_IMPORT.sub(rf"from {API_PACKAGE}.\1 import", source.read_text())
        target.write_text(text)
        for package in _packages_between(package_dir, target.parent):
            package.joinpath("__init__.py").touch()


def _packages_between(top: Path, leaf: Path) -> list[Path]:
    """The directories from just below `top` down to `leaf` (each needs an `__init__.py`)."""
    return [leaf, *leaf.parents][: len(leaf.relative_to(top).parts)]


def generate(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """Write the gRPC code into `package_dir` (the `referee.api` package); the generated files."""
    with tempfile.TemporaryDirectory() as tmp:
        run_protoc(Path(tmp))
        generated = Path(tmp) / PROTO_PACKAGE
        for old in generated.iterdir():  # replace, so a deleted proto leaves no stale module
            shutil.rmtree(package_dir / old.name, ignore_errors=True)
        install(generated, package_dir)
    return sorted(p for p in package_dir.rglob("*.py*") if p.name != "__init__.py")


def main() -> int:
    generate()
    print(
        f"generated {', '.join(str(p.relative_to(ROOT)) for p in protos())} into "
        f"{PACKAGE_DIR.relative_to(ROOT)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
