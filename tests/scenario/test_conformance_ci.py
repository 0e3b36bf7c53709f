"""`referee conformance` for CI: JUnit XML, a JSON report, a progress line only on a terminal,
an unknown rule id as an error in the scenario, and a remote target's skips counted as skips."""

from __future__ import annotations

import io
import json
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
import yaml

from referee.app import ServerConfig, create_server
from referee.cli import main
from referee.commands.conformance import Progress
from referee.engine.game import Game
from referee.scenario.format import load_text
from referee.scenario.rule_ids import RuleIndex, known_rule_ids
from referee.scenario.runner import run_scenario
from referee.scenario.target import InProcessTarget
from referee.service import RefereeService
from referee.store.memory import MemoryStore

CONFORMANCE = Path(__file__).parents[1] / "conformance"
DEADLINE = CONFORMANCE / "taradinho" / "td4-deadline-without-claims.yaml"
LOBBY = CONFORMANCE / "pontinho" / "i27-names-and-reissue.yaml"
DEAL = {
    "hands": {
        1: ["5C", "6C", "7C", "8C", "KH", "KS", "2D", "3D", "JH"],
        2: ["4S", "4H", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
        0: ["2S", "3S", "5H", "6H", "JD", "JS", "KC", "AD", "7S"],
    },
    "turned": "9D",
    "stock": ["4C", "TH", "5S"],
}
HEAD: dict[str, Any] = {"format": 1, "game": "pontinho", "seats": 3, "dealer": 0, "deal": DEAL}
GOOD = [{"seat": 1, "move": {"type": "draw"}, "expect": "accept"}]
WRONG = [{"seat": 2, "move": {"type": "draw"}, "expect": "accept"}]  # not seat 2's turn
UNKNOWN_RULE = [{"seat": 2, "move": {"type": "draw"}, "expect": "reject", "rule": "PN-99"}]


def write(folder: Path, name: str, steps: list[dict[str, Any]]) -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump({**HEAD, "steps": steps}), encoding="utf-8")
    return path


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir()
    write(folder, "good.yaml", GOOD)
    write(folder, "wrong.yaml", WRONG)
    write(folder, "unknown-rule.yaml", UNKNOWN_RULE)
    return folder


def test_junit_has_one_testcase_per_scenario_with_failures_and_errors(
    cases: Path, tmp_path: Path
) -> None:
    junit = tmp_path / "out" / "conformance.xml"
    assert main(["conformance", "--junit", str(junit), str(cases)]) == 1
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert (
        suite.get("tests"),
        suite.get("failures"),
        suite.get("errors"),
        suite.get("skipped"),
    ) == ("3", "1", "1", "0")
    by_name = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(by_name) == {"good.yaml", "wrong.yaml", "unknown-rule.yaml"}
    assert list(by_name["good.yaml"]) == []
    failure = by_name["wrong.yaml"].find("failure")
    assert failure is not None and "seat 2 `draw`" in failure.get("message", "")
    assert "step 1" in (failure.text or "") and "GEN-7" in (failure.text or "")
    error = by_name["unknown-rule.yaml"].find("error")
    assert error is not None and "unknown rule id `PN-99`" in error.get("message", "")


def test_json_reports_counts_and_every_scenario(
    cases: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "--json", str(cases)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["target"] == "in-process"
    assert report["counts"] == {"total": 3, "passed": 1, "failed": 1, "error": 1, "skipped": 0}
    scenarios = {Path(s["source"]).name: s for s in report["scenarios"]}
    assert scenarios["good.yaml"]["status"] == "passed" and scenarios["good.yaml"]["steps"] == 1
    wrong = scenarios["wrong.yaml"]
    assert wrong["status"] == "failed" and wrong["failures"][0]["step"] == 1
    assert wrong["failures"][0]["kind"] == "failure" and "GEN-7" in wrong["failures"][0]["message"]
    unknown = scenarios["unknown-rule.yaml"]
    assert unknown["status"] == "error" and unknown["failures"][0]["kind"] == "error"
    assert unknown["steps"] == 0  # not run: its expectation could never be met
    assert {"source", "name", "status", "steps", "skipped", "seconds", "failures"} <= set(wrong)


def test_an_unknown_rule_id_is_an_error_in_the_scenario(games: dict[str, Game]) -> None:
    scenario = load_text(yaml.safe_dump({**HEAD, "steps": UNKNOWN_RULE}), "cases/u.yaml")
    report = run_scenario(scenario, InProcessTarget(games), RuleIndex(games))
    assert report.status == "error"
    [failure] = report.failures
    assert failure.error and failure.where is not None and failure.where.step == 1
    assert str(failure).endswith(
        ": step 1 (seat 2 `draw`): error in the scenario: unknown rule id `PN-99`: game "
        "`pontinho` has no such rule (neither in its spec nor cited from RULES.md by it)"
    )


def test_known_ids_are_the_specs_ids_those_they_cite_and_gen8(games: dict[str, Game]) -> None:
    pontinho = known_rule_ids(games["pontinho"])
    assert {"GEN-7", "GEN-8", "PN-12", "PN-13-shape", "PN-14"} <= pontinho
    assert "PN-99" not in pontinho and "PO-5" not in pontinho
    assert "PO-5-split-pack" in known_rule_ids(games["pontoon"])


def test_every_shipped_scenario_names_only_known_rule_ids(games: dict[str, Game]) -> None:
    from referee.scenario.runner import run_file, scenario_files

    index, target = RuleIndex(games), InProcessTarget(games)
    errors = [
        str(f)
        for path in scenario_files([CONFORMANCE])
        for f in run_file(path, target, index).failures
        if f.error
    ]
    assert errors == []


def test_the_progress_line_shows_only_on_a_terminal(tmp_path: Path) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stream, shown in ((Terminal(), True), (io.StringIO(), False)):
        progress = Progress(stream)
        progress.show(1, 2, tmp_path / "a.yaml")
        progress.show(2, 2, tmp_path / "b.yaml")
        progress.done()
        written = stream.getvalue()
        assert (f"[2/2] {tmp_path / 'b.yaml'}" in written) is shown
        assert written.endswith("\r") is shown


@pytest.fixture
def remote(games: dict[str, Game]) -> Iterator[str]:
    """A real referee on a free port; its logs are kept off stdout, where the report goes."""
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    server, port = create_server(service)
    server.start()
    with structlog.testing.capture_logs():
        yield f"127.0.0.1:{port}"
    service.close()
    server.stop(None)


def test_a_scenario_a_remote_target_cannot_run_is_skipped(
    remote: str, cases: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(DEADLINE, cases / DEADLINE.name)
    (cases / "wrong.yaml").unlink()
    (cases / "unknown-rule.yaml").unlink()
    junit = tmp_path / "remote.xml"
    assert (
        main(["conformance", "--target", remote, "--json", "--junit", str(junit), str(cases)]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["counts"] == {"total": 2, "passed": 1, "failed": 0, "error": 0, "skipped": 1}
    skipped = next(s for s in report["scenarios"] if s["status"] == "skipped")
    assert skipped["source"].endswith(DEADLINE.name) and skipped["failures"] == []
    assert "step 5" in skipped["skipped"] and "clock" in skipped["skipped"]
    case = next(
        c for c in ET.parse(junit).getroot().iter("testcase") if c.get("name") == DEADLINE.name
    )
    element = case.find("skipped")
    assert element is not None and "clock" in element.get("message", "")


def test_the_text_report_lists_skips_and_counts_them(
    remote: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "--target", remote, str(DEADLINE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"skip {DEADLINE}: step 5: `close_window`")
    assert out[-1] == "0 passed, 0 failed, 1 skipped"


def test_names_and_a_reissue_run_against_a_real_referee_as_in_process(
    games: dict[str, Game], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lobby's scenario (issue 27) against a referee with an operator: names sent with
    CreateTable, the director's `reissue` through ReissueSeat, the seat playing on with its
    new token; and the same scenario in process."""
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    server, port = create_server(service, config=ServerConfig(create_token="operator"))
    server.start()
    token = tmp_path / "operator.token"
    token.write_text("operator", encoding="utf-8")
    try:
        with structlog.testing.capture_logs():
            asked = ["conformance", "--target", f"127.0.0.1:{port}", "--create-token-file"]
            assert main([*asked, str(token), str(LOBBY)]) == 0, capsys.readouterr().out
    finally:
        service.close()
        server.stop(None)
    assert main(["conformance", str(LOBBY)]) == 0
