"""Records are parsed safely (issue 10): Adjudicate and `referee replay` read YAML from anyone.
Aliases are refused (a 400-byte alias bomb once cost seconds of CPU and tens of MB), so are
records nested too deep, too long or with too many steps; values Python will not build (an
integer of 5,000 digits) and control characters are clear errors, never INTERNAL; a message
quotes at most a few hundred characters of what was sent."""

from __future__ import annotations

import time

import pytest

from referee.errors import MAX_MESSAGE_CHARS
from referee.scenario import format
from referee.scenario.format import MAX_DEPTH, ScenarioError, load_text

ALIAS_BOMB = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]"]
    + [
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}]"
        for i in range(9)
    ]
)


def refused(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_text(text)
    message = str(caught.value)
    assert len(message) <= MAX_MESSAGE_CHARS + 40
    return message


def test_an_alias_bomb_is_refused_at_once() -> None:
    started = time.perf_counter()
    assert "aliases" in refused(ALIAS_BOMB)
    assert time.perf_counter() - started < 0.5


def test_any_alias_is_refused() -> None:
    text = "format: 1\ngame: pontinho\nseats: 3\nseed: 1\nsteps:\n- &s {seat: 1, move: {type: draw}}\n- *s\n"
    assert "aliases" in refused(text)


def test_deep_nesting_is_refused() -> None:
    very_deep = refused("a: " + "[" * 5000 + "]" * 5000)  # libyaml has a bound of its own
    assert f"deeper than {MAX_DEPTH}" in very_deep or "nesting depth" in very_deep
    assert f"deeper than {MAX_DEPTH}" in refused(
        "a:\n" + "".join(" " * i + "- \n" for i in range(100))
    )


def test_too_many_steps_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(format, "MAX_STEPS", 50)  # the real bound, 200,000, reads for seconds
    text = (
        "format: 1\ngame: pontinho\nseats: 3\nseed: 1\nsteps:\n"
        + "- {seat: 1, move: {type: draw}}\n" * 51
    )
    assert "at most 50 steps" in refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "format: 1\ngame: pontinho\nseats: " + "9" * 5000 + "\nsteps: []\n",
        "format: 1\ngame: \x07pontinho\nseats: 3\nsteps: []\n",
        "format: 1\ngame: pontinho\nseats: 3\nsteps: []\n" + "x" * 100_000 + ": 1\n",
        "\x00\x01\x02",
    ],
)
def test_hostile_values_are_clear_errors_that_quote_little(text: str) -> None:
    message = refused(text)
    assert "\x07" not in message and "\x00" not in message


RECORD = "format: 1\ngame: pontoon\nseats: 2\nseed: 1\n"


@pytest.mark.parametrize(
    "text, where",
    [
        (RECORD.replace("seed: 1", f"seed: {2**63}"), "<record>: `seed`"),
        (RECORD.replace("seed: 1", f"seed: {-(2**63) - 1}"), "<record>: `seed`"),
        (RECORD + f"options: {{max_bet: {10**400}}}\nsteps: []\n", "<record>: `options.max_bet`"),
        (RECORD + f"balances: {{0: 5, 1: {10**30}}}\nsteps: []\n", "<record>: `balances.1`"),
        (
            RECORD + "steps:\n- {seat: 1, move: {type: bet, amount: 5}}\n"
            f"- {{seat: 1, move: {{type: buy, amount: [1, {10**400}]}}}}\n",
            "<record>:7: step 2: `steps[1].move.amount[1]`",
        ),
    ],
)
def test_a_number_beyond_64_bits_is_an_error_naming_where_it_stands(text: str, where: str) -> None:
    message = refused(text if "steps" in text else text + "steps: []\n")
    assert message.startswith(where + ": `") and "is beyond the 64-bit integer range" in message


def test_the_64_bit_edges_are_read() -> None:
    for seed in (2**63 - 1, -(2**63)):
        assert load_text(RECORD.replace("seed: 1", f"seed: {seed}") + "steps: []\n").setup.seed == (
            seed
        )


@pytest.mark.parametrize("first, second", [("'01'", "1"), ("1", "' 1'"), ("0", "'00'")])
@pytest.mark.parametrize("key", ["balances", "scores"])
def test_a_seat_named_twice_is_an_error_naming_both(key: str, first: str, second: str) -> None:
    message = refused(RECORD + f"{key}: {{{first}: 5, {second}: 7}}\nsteps: []\n")
    shown = first.strip("'"), second.strip("'")
    assert f"`{key}`: `{shown[0]}` and `{shown[1]}` both name {int(shown[1])}" in message
