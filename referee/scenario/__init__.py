"""Scenario files (SCENARIOS.md, `format: 1`): conformance cases and game records as data.

`format` loads and validates a file, `runner` runs it against a `target` (the engine in this
process, or a referee over gRPC: `remote`), `checks` compares `check` steps with a view.
"""
