"""The play clock's table options (issue 16), which every game whose spec has a `clock:` section
takes: `turn_seconds` for each move the table waits for (0: no clock), `on_timeout` (`auto`: the
referee plays the spec's `clock.auto` moves for the seat; `forfeit`: the seat is out of the hand)
and `max_timeouts` (a seat timed out that often is out of the match; 0: never). Worded by the
referee's catalogue, in the spec's languages (`referee.engine.auto_moves` reads the section itself)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.i18n.catalogue import CATALOGUE
from referee.model import Sentence
from referee.spec.options import Option
from referee.spec.sections import Shape

CLOCK = "clock"
TURN_SECONDS, ON_TIMEOUT, MAX_TIMEOUTS = "turn_seconds", "on_timeout", "max_timeouts"
AUTO, FORFEIT = "auto", "forfeit"
MAX_TURN_SECONDS = 86_400  # a day: longer is no play clock
MAX_TIMEOUTS_ALLOWED = 1_000
SECTION_SHAPE: Mapping[str, Shape] = {"source": None, "note": None, "auto": None}


def clock_options(languages: tuple[str, ...]) -> dict[str, Option]:
    """The options a game with a clock takes, worded in the spec's languages."""

    def text(key: str) -> dict[str, str]:
        return {language: CATALOGUE.render(Sentence(key), language) for language in languages}

    decision = ("decision",)
    return {
        TURN_SECONDS: Option(
            TURN_SECONDS, "int", 0, (), 0, MAX_TURN_SECONDS, decision, text("option.turn_seconds")
        ),
        ON_TIMEOUT: Option(
            ON_TIMEOUT,
            "enum",
            AUTO,
            (AUTO, FORFEIT),
            None,
            None,
            decision,
            text("option.on_timeout"),
        ),
        MAX_TIMEOUTS: Option(
            MAX_TIMEOUTS,
            "int",
            0,
            (),
            0,
            MAX_TIMEOUTS_ALLOWED,
            decision,
            text("option.max_timeouts"),
        ),
    }
