"""The page's YAML reader (referee/web/static/yaml.js) reads every record and scenario of the
repository as PyYAML's safe_load does, the referee's own reader: what the page steps through is
what the referee judges. Run with node (the TypeScript client's), without a browser."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
READER = ROOT / "referee" / "web" / "static" / "yaml.js"
RECORDS = sorted([*ROOT.glob("tests/conformance/*/*.yaml"), *ROOT.glob("docs/examples/*.yaml")])
# each file's text in, a line of JSON (or `!` and the error) out, in order
SCRIPT = """
import { parseYaml } from %s;
import { readFileSync } from "node:fs";
for (const file of process.argv.slice(1)) {
  try { console.log(JSON.stringify(parseYaml(readFileSync(file, "utf8")))); }
  catch (error) { console.log("!" + error.message); }
}
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_the_page_reads_every_record_as_the_referee_does() -> None:
    assert len(RECORDS) > 100
    script = SCRIPT % json.dumps(READER.as_uri())
    read = subprocess.run(
        ["node", "--input-type=module", "-e", script, *map(str, RECORDS)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.splitlines()
    assert len(read) == len(RECORDS)
    for path, line in zip(RECORDS, read, strict=True):
        assert not line.startswith("!"), f"{path}: {line[1:]}"
        expected = json.loads(json.dumps(yaml.safe_load(path.read_text())))  # keys as JSON has them
        assert json.loads(line) == expected, path


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_what_it_cannot_read_it_says() -> None:
    script = SCRIPT % json.dumps(READER.as_uri())
    read = subprocess.run(
        ["node", "--input-type=module", "-e", script, "/dev/stdin"],
        input="a: &anchor 1\nb: *anchor\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert read.startswith("!line 1")
