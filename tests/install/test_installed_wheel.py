"""The wheel works outside the checkout (issue 11): built from the tracked files alone, installed
into a fresh venv, run from an empty folder, it serves all five games over the gRPC code it ships.

Offline and quick: the wheel is built with this environment's setuptools and grpcio-tools
(`--no-build-isolation`), installed with `--no-deps --no-index`, and the new venv reaches the
referee's dependencies (grpcio, z3, ...) through a `.pth` file naming this environment's
site-packages: a `.pth` line adds a folder only, so the checkout's editable install is not seen,
and the venv's own site-packages (the wheel) comes first on its path.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.support import served

# long runs; one worker runs the whole module: the wheel (a module fixture) is built and installed
# once, not once a worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("installed-wheel")]

ROOT = Path(__file__).resolve().parents[2]
# the shipped games, by their spec files' names (a proofs file is no game)
GAMES = [
    path.name.removesuffix(".yaml")
    for path in sorted((ROOT / "specs").glob("*.yaml"))
    if not path.name.endswith(".proofs.yaml")
]
NOT_SOURCE = (
    ".git",
    ".venv",
    "build",
    "dist",
    "var",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "node_modules",
)
SCENARIO = ROOT / "tests" / "conformance" / "pontinho" / "pn02-dealer-and-mao.yaml"

# run by the installed venv's python: a move played over the stubs the wheel installed
CLIENT = """
import json, sys
import grpc
import referee
from referee.api.v1 import referee_pb2 as pb, referee_pb2_grpc
from google.protobuf import json_format

channel = grpc.insecure_channel(sys.argv[1])
stub = referee_pb2_grpc.RefereeStub(channel)
games = [g.name for g in stub.ListGames(pb.ListGamesRequest()).games]
table = stub.CreateTable(pb.CreateTableRequest(game="pontinho", seats=3))
view = json_format.MessageToDict(stub.GetView(pb.GetViewRequest(table_id=table.table_id)).view)
seat = int(view["to_act"])
token = next(s.token for s in table.seats if s.seat == seat)
verdict = stub.Propose(pb.ProposeRequest(table_id=table.table_id, move=pb.Move(type="draw")),
                       metadata=(("x-seat-token", token),)).verdict
other = next(s.token for s in table.seats if s.seat != seat)  # a move no game has, in Portuguese
refused = stub.Propose(pb.ProposeRequest(table_id=table.table_id, move=pb.Move(type="fly")),
                       metadata=(("x-seat-token", other), ("accept-language", "pt"))).verdict
print(json.dumps({"package": referee.__file__, "games": games,
                  "outcome": pb.Outcome.Name(verdict.outcome), "version": verdict.version,
                  "refused": [v.message for v in refused.violations]}))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh venv with the wheel built from the tracked files installed."""
    tmp = tmp_path_factory.mktemp("install")
    source = _clean_copy(tmp / "source")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(tmp / "wheels"),
            str(source),
        ],
        cwd=tmp,
    )
    (wheel,) = (tmp / "wheels").glob("referee-*.whl")
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp)
    bin_dir = venv / "bin"
    purelib = Path(
        run(
            [
                str(bin_dir / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_path('purelib'))",
            ],
            cwd=tmp,
        ).strip()
    )
    purelib.joinpath("referee_test_deps.pth").write_text(
        "\n".join(dict.fromkeys([*site.getsitepackages(), sysconfig.get_path("purelib")])) + "\n"
    )
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(bin_dir / "python"),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        cwd=tmp,
    )
    return bin_dir


def _clean_copy(target: Path) -> Path:
    """The files git would put in a clone (and new ones not ignored): no generated code, no
    venv, no build output of the checkout. Outside a git checkout: the tree less those."""
    names = _tracked_files()
    if names is None:
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*NOT_SOURCE))
        shutil.rmtree(target / "referee" / "api" / "v1", ignore_errors=True)
    for name in names or []:
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    assert not (target / "referee" / "api" / "v1").exists()
    return target


def _tracked_files() -> list[str] | None:
    """What a clone would hold, and the new files git does not ignore; None outside git."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except FileNotFoundError:  # no git on this machine
        return None
    return [n for n in listed.stdout.split("\0") if n] if listed.returncode == 0 else None


def run(command: list[str], cwd: Path) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=_clean_env(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{command}: {done.stderr}"
    return done.stdout


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "REFEREE_"))}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def test_the_installed_referee_serves_the_five_games_and_plays_a_move(
    installed: Path, empty: Path
) -> None:
    assert run([str(installed / "referee"), "--version"], cwd=empty).strip() == "referee 0.1.0"
    with served.start(
        "--memory",
        program=[str(installed / "referee")],
        cwd=empty,
        env=_clean_env(),
        stderr=subprocess.DEVNULL,
    ) as server:
        try:
            address = served.address(server)
            answer = json.loads(run([str(installed / "python"), "-c", CLIENT, address], cwd=empty))
        finally:
            server.terminate()
            server.wait(timeout=15)
    assert Path(answer["package"]).is_relative_to(installed.parent)  # not the checkout's
    assert answer["games"] == GAMES
    assert (answer["outcome"], answer["version"]) == ("OUTCOME_ACCEPTED", 1)
    [refused] = answer["refused"]  # the referee's own sentences ship in the wheel too
    assert refused.startswith("não existe a jogada “fly”"), refused
    assert server.returncode == 0
    assert list(empty.iterdir()) == []  # --memory: nothing written where it was started


def test_the_installed_referee_plays_proves_and_runs_conformance(
    installed: Path, empty: Path
) -> None:
    referee = str(installed / "referee")
    played = run([referee, "play", "pontoon", "--hands", "1", "--quiet"], cwd=empty)
    assert "chips conserved" in played
    proved = run([referee, "prove", "pontinho", "--only", "trio-three-suits"], cwd=empty)
    assert proved.splitlines()[-1] == "1 properties, 0 not proved"
    # a game's properties in its proofs file (`pontoon.proofs.yaml`) ship beside its rules
    proved = run([referee, "prove", "pontoon", "--only", "buy-within-PO-5"], cwd=empty)
    assert proved.splitlines()[-1] == "1 properties, 0 not proved"
    checked = run([referee, "conformance", str(SCENARIO)], cwd=empty)
    assert checked.splitlines()[-1] == "1 passed, 0 failed"


def test_the_installed_referee_refuses_to_serve_no_games(installed: Path, empty: Path) -> None:
    done = subprocess.run(
        [str(installed / "referee"), "serve", "--memory", "--specs", str(empty)],
        cwd=empty,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"referee serve: no games to serve: no game specs (`*.yaml`) in `{empty}`\n"
    )
