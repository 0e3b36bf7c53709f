"""Conformance reports for machines: JUnit XML (CI test tabs) and JSON, from the runner's reports.

JUnit: one `testsuite` (`referee conformance`), one `testcase` per scenario, named by its file
(classname: the folder), with a `failure` per wrong answer (its step and message), an `error` for
an error in the scenario itself, or `skipped` with the reason the target could not run it. JSON:
the counts and, per scenario, its file, name, status, steps run, skip reason and each failure.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from referee.model import JSON
from referee.scenario.runner import Failure, Report

STATUSES = ("passed", "failed", "error", "skipped")


def counts(reports: Iterable[Report]) -> dict[str, int]:
    """How many scenarios of each status, and in all."""
    tally = Counter(r.status for r in reports)
    return {"total": sum(tally.values()), **{s: tally[s] for s in STATUSES}}


def failure_data(failure: Failure) -> dict[str, JSON]:
    where = failure.where
    return {
        "message": failure.message,
        "kind": "error" if failure.error else "failure",
        "step": where.step if where else None,
        "line": where.line if where else None,
        "what": failure.step,
        "at": str(failure),
    }


def report_data(report: Report, seconds: float) -> dict[str, JSON]:
    return {
        "source": report.source,
        "name": report.name,
        "status": report.status,
        "steps": report.steps,
        "skipped": report.skipped or None,
        "seconds": round(seconds, 4),
        "failures": [failure_data(f) for f in report.failures],
    }


def to_json(reports: list[Report], seconds: list[float], target: str) -> str:
    """The whole run as one JSON document."""
    return json.dumps(
        {
            "target": target,
            "counts": counts(reports),
            "scenarios": [report_data(r, t) for r, t in zip(reports, seconds)],
        },
        indent=2,
    )


def to_junit(reports: list[Report], seconds: list[float], target: str) -> ET.ElementTree:
    tally = counts(reports)
    suite = ET.Element(
        "testsuite",
        name="referee conformance",
        tests=str(tally["total"]),
        failures=str(tally["failed"]),
        errors=str(tally["error"]),
        skipped=str(tally["skipped"]),
        time=f"{sum(seconds):.3f}",
    )
    ET.SubElement(ET.SubElement(suite, "properties"), "property", name="target", value=target)
    for report, spent in zip(reports, seconds):
        suite.append(_testcase(report, spent))
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    return ET.ElementTree(root)


def _testcase(report: Report, seconds: float) -> ET.Element:
    source = Path(report.source)
    case = ET.Element(
        "testcase",
        name=source.name,
        classname=source.parent.as_posix(),
        file=report.source,
        time=f"{seconds:.3f}",
    )
    for failure in report.failures:
        kind = "error" if failure.error else "failure"
        message = f"{failure.step}: {failure.message}" if failure.step else failure.message
        element = ET.SubElement(case, kind, message=message, type=kind)
        element.text = str(failure)
    if report.skipped and not report.failures:
        ET.SubElement(case, "skipped", message=report.skipped)
    return case


def write_junit(path: Path, reports: list[Report], seconds: list[float], target: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    to_junit(reports, seconds, target).write(path, encoding="utf-8", xml_declaration=True)
