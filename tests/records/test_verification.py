"""`referee.records.verification`: a signed record of every game verifies; every byte changed,
every step dropped or altered, a result or a secret rewritten, a record re-signed by another key:
each is caught, by the check that should catch it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.game import Game
from referee.records.chain import chained
from referee.records.seal import sealed, unsealed
from referee.records.signing import SigningKey
from referee.records.verification import Verification, verify
from tests.records.played import signed_record
from tests.support.games import shipped_games

GAMES = sorted(shipped_games())
GAMES_LOADED = shipped_games()
KEY = SigningKey.generate()
SMALL_RECORD = signed_record(GAMES_LOADED["pontoon"], most=20, key=KEY)


def failed(verified: Verification) -> set[str]:
    return {check.name for check in verified.checks if check.holds is False}


def unchecked(verified: Verification) -> set[str]:
    return {check.name for check in verified.checks if check.holds is None}


@pytest.mark.parametrize("name", GAMES)
def test_a_signed_record_of_every_game_verifies(name: str, games: dict[str, Game]) -> None:
    text = signed_record(games[name], most=60, key=KEY)
    verified = verify(text, games.values(), trusted=KEY.public)
    assert verified.holds and not unchecked(verified), verified.checks
    assert [c.name for c in verified.checks] == [
        "form", "signature", "chain", "commitments", "replay"
    ]  # fmt: skip


def test_a_fair_game_over_verifies_from_its_secret_and_revealed_decks(
    games: dict[str, Game],
) -> None:
    game = games["tarocchi_piedicavallo"]
    text = signed_record(game, fair=True, most=None, key=KEY)
    record = json.loads(text)
    assert record["result"]["match_over"] and record["secret"] and record["decks"]
    verified = verify(text, games.values(), trusted=KEY.public)
    assert verified.holds and not unchecked(verified), verified.checks
    said = {check.name: check.said for check in verified.checks}
    assert "the secret is the one committed to" in said["commitments"]

    other = dict(record, secret="00" * 32)  # another secret, re-signed: its commitment fails
    assert "commitments" in failed(verify(sealed(other, KEY), games.values()))
    deck = dict(record["decks"][0], deck=record["decks"][0]["deck"][::-1])
    redealt = dict(record, decks=[deck, *record["decks"][1:]])
    assert failed(verify(sealed(redealt, KEY), games.values())) >= {"commitments", "replay"}


def test_a_fair_game_in_play_is_sealed_but_replays_only_once_over(
    games: dict[str, Game],
) -> None:
    text = signed_record(games["pontinho"], fair=True, most=60, key=KEY)
    assert "secret" not in json.loads(text)
    verified = verify(text, games.values(), trusted=KEY.public)
    assert verified.holds
    assert unchecked(verified) == {"commitments", "replay"}


def test_every_byte_changed_is_caught(games: dict[str, Game]) -> None:
    text = signed_record(games["pontinho"], most=30, key=KEY)
    assert verify(text, games.values(), trusted=KEY.public).holds  # the control: it holds
    data = text.encode("utf-8")
    missed = []
    for index in range(len(data)):
        for flip in (0x01, 0x20):  # a letter or digit becomes another; a case, a sign changes
            changed = bytearray(data)
            changed[index] ^= flip
            try:
                altered = changed.decode("utf-8")
            except UnicodeDecodeError:
                continue  # not text: `referee verify` cannot even read it
            if verify(altered, games.values(), trusted=KEY.public).holds:
                missed.append((index, flip))
    assert not missed


def test_the_same_data_in_another_form_is_not_the_signed_record(
    games: dict[str, Game],
) -> None:
    text = signed_record(games["pontinho"], most=30, key=KEY)
    spaced = json.dumps(json.loads(text), indent=1) + "\n"  # equal data: only the form catches it
    verified = verify(spaced, games.values(), trusted=KEY.public)
    assert failed(verified) == {"form"}


def resigned(record: dict[str, Any], key: SigningKey = KEY) -> str:
    return sealed(record, key)


def test_what_a_forger_with_another_key_changes_is_caught(games: dict[str, Game]) -> None:
    record = json.loads(signed_record(games["pontinho"], most=200, key=KEY))
    forger = SigningKey.generate()
    body = unsealed(record)
    # re-signed by the forger: only a trusted key tells
    assert failed(verify(resigned(body, forger), games.values(), trusted=KEY.public)) == {
        "signature"
    }
    # the last move dropped, the chain made again: the replay's result differs
    dropped = chained({**body, "steps": body["steps"][:-1]})
    assert "replay" in failed(verify(resigned(dropped, forger), games.values()))
    # a move altered without making the chain again: the chain breaks after it, the replay too
    steps = [dict(step) for step in body["steps"]]
    steps[2]["seat"] = (steps[2]["seat"] + 1) % body["seats"]
    assert failed(verify(resigned({**body, "steps": steps}), games.values())) >= {
        "chain",
        "replay",
    }
    # the result rewritten
    result = {**body["result"], "to_act": (body["result"]["to_act"] + 1) % body["seats"]}
    assert failed(verify(resigned({**body, "result": result}), games.values())) == {"replay"}


def test_a_record_under_rules_not_given_is_not_replayed(games: dict[str, Game]) -> None:
    record = json.loads(signed_record(games["pontinho"], most=30, key=KEY))
    other = {**unsealed(record), "rules_version": "0" * 64}
    verified = verify(resigned(chained(other)), games.values())
    assert failed(verified) == {"replay"}
    assert "--specs" in {c.name: c.said for c in verified.checks}["replay"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        "{",
        '{"format": 1}\n',
        "null\n",
        '{"a":NaN}\n',
        '{"a":9007199254740992}\n',
        "\ufeff{}\n",
    ],
)
def test_what_is_no_record_fails_in_words(text: str, games: dict[str, Game]) -> None:
    verified = verify(text, games.values())
    assert not verified.holds
    assert all(check.said for check in verified.checks)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        found += [p for key, item in value.items() for p in _leaves(item, (*path, key))]
    elif isinstance(value, list):
        found += [p for index, item in enumerate(value) for p in _leaves(item, (*path, index))]
    return found


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_value_anywhere_re_signed_is_judged_without_a_crash(data: st.DataObject) -> None:
    """A record whose signer put anything anywhere (a list for the steps, text for a seat) is
    verified and told apart: no exception escapes `verify`."""
    record = json.loads(SMALL_RECORD)
    path = data.draw(st.sampled_from(_leaves(record)[1:]))
    holder = record
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = data.draw(
        st.one_of(
            st.none(),
            st.booleans(),
            # what a signer can sign: JSON's safe integers (2^53 is a failed form, above)
            st.integers(-(2**53 - 1), 2**53 - 1),
            st.text(max_size=5),
            st.lists(st.integers(0, 3), max_size=2),
            st.dictionaries(st.text(max_size=2), st.integers(0, 3), max_size=2),
        )
    )
    verify(sealed(record, KEY), GAMES_LOADED.values())


@pytest.mark.parametrize("salt", [[0], 7, {"a": 1}])
def test_a_salt_that_is_not_text_fails_the_replay_in_words(salt: object) -> None:
    """Found by the property above: a re-signed record whose `salt` is a list reached the deck's
    commitment, which could not hash it (a TypeError out of `verify`)."""
    record = json.loads(SMALL_RECORD)
    record["salt"] = salt
    said = {c.name: c.said for c in verify(sealed(record, KEY), GAMES_LOADED.values()).checks}
    assert said["replay"] == "the record's `salt` is not text"
