"""The page's YAML reader (js-yaml, vendored in referee/web/static/vendor/, in YAML 1.1 as the page
calls it) reads every record and scenario of the repository as PyYAML's safe_load does, the
referee's own reader: what the page steps through is what the referee judges. Run with node (the
TypeScript client's), without a browser."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
READER = ROOT / "referee" / "web" / "static" / "vendor" / "js-yaml.js"
RECORDS = sorted([*ROOT.glob("tests/conformance/*/*.yaml"), *ROOT.glob("docs/examples/*.yaml")])
# each file's text in, a line of JSON (or `!` and the error) out, in order
SCRIPT = """
import { load, YAML11_SCHEMA } from %s;
import { readFileSync } from "node:fs";
for (const file of process.argv.slice(1)) {
  try { console.log(JSON.stringify(load(readFileSync(file, "utf8"), { schema: YAML11_SCHEMA }))); }
  catch (error) { console.log("!" + error.message); }
}
"""


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
