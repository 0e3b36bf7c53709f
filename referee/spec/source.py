"""The text of a game's spec as it was loaded: every file read, its base first, so that the same
rules compile again when the files on disk have changed since (a table's pinned rules version,
`referee.engine.versions`). Its proofs file is no part of it: proofs are claims about the rules,
not rules."""

from __future__ import annotations

import json
from dataclasses import dataclass

from referee.errors import RefereeError


@dataclass(frozen=True)
class SpecSource:
    """The files a spec was read from, `extends` followed: (the file as named when loaded, its
    text), the base first and the game's own file last."""

    files: tuple[tuple[str, str], ...]

    @property
    def main(self) -> str:
        """The game's own file (the one the others are its bases)."""
        return self.files[-1][0]

    def text_of(self, file: str) -> str | None:
        return dict(self.files).get(file)

    def to_text(self) -> str:
        """One text to store: JSON, `{"files": [{"file": ..., "text": ...}, ...]}`."""
        return json.dumps(
            {"files": [{"file": name, "text": text} for name, text in self.files]},
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_text(cls, text: str) -> SpecSource:
        """The source `to_text` wrote; RefereeError for anything else."""
        try:
            files = json.loads(text)["files"]
            pairs = tuple((str(entry["file"]), str(entry["text"])) for entry in files)
        except (ValueError, TypeError, KeyError) as error:
            raise RefereeError(f"a stored spec does not read: {error}") from None
        if not pairs:
            raise RefereeError("a stored spec has no file")
        return cls(pairs)
