"""One error root with stable codes.

Errors are protocol or configuration problems (a bad spec, an unknown table, bad options).
An illegal move is *not* an error: it is a rejected verdict (see `referee.model.Verdict`).
The server maps each code to one gRPC status in `referee.calls.status`.
"""

from __future__ import annotations

from referee.i18n.catalogue import CATALOGUE
from referee.model import Sentence

MAX_MESSAGE_CHARS = 600  # a message quoting what a client sent: at most this long


def shortened(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """At most `limit` characters, control characters shown as escapes."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


class RefereeError(Exception):
    """Root of every error the referee raises on purpose. `code` is stable snake_case."""

    code = "referee_error"

    def __init__(self, message: str | Sentence) -> None:
        """`message` in English, or a sentence of the catalogue (kept, to be worded in the
        language of whoever is told: `referee.i18n`)."""
        self.sentence = message if isinstance(message, Sentence) else None
        self.message = message if isinstance(message, str) else CATALOGUE.render(message)
        super().__init__(self.message)


class CardError(RefereeError):
    code = "malformed_card"


class MoveFormatError(RefereeError):
    """A move that cannot be read (unknown type, missing or mistyped field, bad card code)."""

    code = "malformed_move"


class InvalidArgument(RefereeError):
    code = "invalid_argument"


class OptionError(InvalidArgument):
    code = "invalid_option"


class SetupError(InvalidArgument):
    """A table cannot be set up as asked (seat count, a stacked deal that does not fit the pack)."""

    code = "invalid_setup"


class FailedPrecondition(RefereeError):
    """Refused in this server's configuration (a stacked deal where none is allowed)."""

    code = "failed_precondition"


class NotFound(RefereeError):
    code = "not_found"


class PermissionDenied(RefereeError):
    code = "permission_denied"


class Unauthenticated(RefereeError):
    code = "unauthenticated"


class VersionConflict(RefereeError):
    """The proposal expected another table version (optimistic concurrency)."""

    code = "version_conflict"


class SpecError(RefereeError):
    """A problem in a spec file, located at file:line:col and a key path."""

    code = "spec_error"

    def __init__(
        self,
        message: str,
        *,
        file: str = "<spec>",
        line: int = 0,
        column: int = 0,
        path: str = "",
        excerpt: str = "",
    ) -> None:
        self.file, self.line, self.column, self.path = file, line, column, path
        self.excerpt = excerpt
        where = f"{file}:{line}:{column}"
        at = f" at `{path}`" if path else ""
        text = f"{where}:{at}: {message}" if at else f"{where}: {message}"
        if excerpt:
            text = f"{text}\n{excerpt}"
        super().__init__(text)
        self.detail = message


class SpecErrors(RefereeError):
    """Every error found in one spec (a checker reports them all, not only the first)."""

    code = "spec_error"

    def __init__(self, errors: list[SpecError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))
