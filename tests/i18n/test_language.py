"""Which language a caller is answered in: `accept-language` read as RFC 9110 says, matched
against a game's languages, English when nothing fits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.i18n import negotiate, preferences


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("pt", ["pt"]),
        ("pt-BR, pt;q=0.9, en;q=0.8", ["pt", "en"]),
        ("en;q=0.2, tl", ["tl", "en"]),  # weight, not order, decides
        ("fil-PH", ["tl"]),  # Filipino is read as Tagalog
        ("PT-br", ["pt"]),  # tags are case-insensitive
        ("*", ["*"]),
        ("pt;q=0, en", ["en"]),  # q=0: not this one
        ("", []),
        (None, []),
        ("pt;q=2, en", ["en"]),  # a weight above 1 is malformed: skipped
        ("pt;q=abc, tl", ["tl"]),
        ("p@t, tl", ["tl"]),
        ("de, pt;q=0.5", ["de", "pt"]),
    ],
)
def test_preferences_reads_an_accept_language_value(
    header: str | None, expected: list[str]
) -> None:
    assert preferences(header) == expected


@pytest.mark.parametrize(
    ("wanted", "available", "chosen"),
    [
        (["pt", "en"], ("en", "pt"), "pt"),
        (["de", "pt"], ("en", "pt"), "pt"),
        (["tl"], ("en", "pt"), "en"),  # not written in it: English
        (["*"], ("en", "tl"), "en"),
        ([], ("en", "pt"), "en"),
    ],
)
def test_negotiate_takes_the_first_wanted_language_the_game_has(
    wanted: list[str], available: tuple[str, ...], chosen: str
) -> None:
    assert negotiate(wanted, available) == chosen


@given(st.text(max_size=300))
def test_any_header_gives_a_list_of_plain_language_codes(header: str) -> None:
    """No header, however hostile, fails a call: the worst it does is pick English."""
    wanted = preferences(header)
    assert len(wanted) == len(set(wanted)) <= 32
    assert all(w == "*" or (w.isascii() and w.isalpha() and w.islower()) for w in wanted)
    assert negotiate(wanted, ("en", "pt")) in ("en", "pt")
