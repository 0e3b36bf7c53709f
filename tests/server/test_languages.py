"""Verdicts and descriptions in the caller's language (`accept-language`), over real gRPC.

A Tarocchi seat reading Portuguese and a Pontoon seat reading Tagalog are told why a move is
refused in their language: the spec's own sentence for a rule (with the words it shows
translated), the catalogue's for a move the referee cannot read. The verdict recorded stays as
judged: the same `move_id` asked again in another language is worded in that one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from referee.cards import PackKind, cards_said, codes_in
from referee.engine.game import Game
from referee.i18n import CATALOGUE, fill
from referee.model import Sentence
from referee_bots.tricks_bot import suit, turn_candidates
from referee_client import RefereeClient

TAROCCHI = "tarocchi_piedicavallo"


@pytest.fixture
def portuguese(address: str) -> Iterator[RefereeClient]:
    with RefereeClient(address, language="pt-BR, pt;q=0.9, en;q=0.5") as client:
        yield client


@pytest.fixture
def english(address: str) -> Iterator[RefereeClient]:
    with RefereeClient(address) as client:
        yield client


def rule_sentence(game: Game, rule_id: str, language: str) -> str:
    return game.texts[rule_id][language]


def test_a_rule_broken_is_told_in_the_seats_language(
    portuguese: RefereeClient, english: RefereeClient, games: dict[str, Game]
) -> None:
    table = portuguese.create_table(TAROCCHI, 4, seed=7)
    view = portuguese.view(table.id, table.tokens[0])
    idle = next(s for s in range(4) if s != view["to_act"])
    move = {"type": "play", "card": portuguese.view(table.id, table.tokens[idle])["hand"][0]}
    told = portuguese.propose(table.id, table.tokens[idle], move, move_id="out-of-turn")
    rules = [v["rule"] for v in told["violations"]]
    assert "GEN-7" in rules
    assert [v["message"] for v in told["violations"]] == [
        rule_sentence(games[TAROCCHI], rule, "pt") for rule in rules
    ]
    assert "não é a sua vez" in [v["message"] for v in told["violations"]]
    # the same move id, asked in English: the first verdict, worded in English this time
    again = english.propose(table.id, table.tokens[idle], move, move_id="out-of-turn")
    assert [v["rule"] for v in again["violations"]] == rules
    assert [v["message"] for v in again["violations"]] == [
        rule_sentence(games[TAROCCHI], rule, "en") for rule in rules
    ]


def test_an_unreadable_move_is_told_in_the_catalogues_words(
    portuguese: RefereeClient, english: RefereeClient
) -> None:
    table = portuguese.create_table(TAROCCHI, 4, seed=7)
    seat = portuguese.view(table.id, table.tokens[0])["to_act"]
    move = {"type": "play", "card": "ZZ"}
    [told] = portuguese.propose(table.id, table.tokens[seat], move)["violations"]
    [plain] = english.propose(table.id, table.tokens[seat], move)["violations"]
    assert told["rule"] == plain["rule"] == "GEN-8" and told["code"] == plain["code"]
    assert plain["message"].startswith("to play: the card: \u201cZZ\u201d is not a card")
    assert told["message"].startswith("jogar: a carta: \u201cZZ\u201d não é uma carta")


def test_the_words_a_sentence_shows_are_translated_too(
    portuguese: RefereeClient, english: RefereeClient, games: dict[str, Game]
) -> None:
    """TA-7-follow shows the suit led: `espadas`, not `swords`, to a Portuguese reader."""
    game = games[TAROCCHI]
    table = english.create_table(TAROCCHI, 4, seed=11)
    english_violation, portuguese_violation = refused_follow(english, portuguese, table)
    english_told, portuguese_told = english_violation["message"], portuguese_violation["message"]
    led = next(word for word in game.spec.words if f"({word})" in english_told)
    assert portuguese_told == fill(
        rule_sentence(game, "TA-7-follow", "pt"), {"led": game.spec.words[led]["pt"]}
    )
    assert f"({game.spec.words[led]['pt']})" in portuguese_told
    # the fix: the cards that would follow, in words in each language
    fix = portuguese_violation["fix"]
    assert fix["kind"] == "play_one_of" and fix == english_violation["fix"]
    for language, hint in (("en", english_violation["hint"]), ("pt", portuguese_violation["hint"])):
        assert cards_said(hint, PackKind.TAROT, language) == fix["cards"], hint
        assert codes_in(hint, PackKind.TAROT) == []  # as players write them: `rei de copas`
    assert english_violation["hint"].startswith("play one of ")
    assert portuguese_violation["hint"].startswith("jogue uma destas: ")


def refused_follow(
    english: RefereeClient, portuguese: RefereeClient, table: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the deal until a seat holding the suit led offers another card: the TA-7-follow
    rejection, in English and in Portuguese (a rejected move changes nothing)."""
    rng = random.Random(3)
    for _ in range(80):
        seat = english.view(table.id)["to_act"]
        view = english.view(table.id, table.tokens[seat])
        trick = [play["card"] for play in view["trick"]]
        if view["phase"] == "play" and trick and suit(trick[0]) != "T":
            led = suit(trick[0])
            off = [c for c in view["hand"] if suit(c) not in (led, "T") and c != "MT"]
            if off and any(suit(c) == led for c in view["hand"]):
                move = {"type": "play", "card": off[0]}
                told = [
                    english.propose(table.id, table.tokens[seat], move),
                    portuguese.propose(table.id, table.tokens[seat], move),
                ]
                rules = [[v["rule"] for v in t["violations"]] for t in told]
                assert rules == [["TA-7-follow"], ["TA-7-follow"]], told
                return told[0]["violations"][0], told[1]["violations"][0]
        for candidate in turn_candidates(view, rng):
            if english.propose(table.id, table.tokens[seat], candidate)["accepted"]:
                break
    raise AssertionError("no seat could have followed suit and did not, in 80 moves")


def test_a_pontoon_seat_reads_tagalog(address: str, games: dict[str, Game]) -> None:
    with RefereeClient(address, language="fil-PH") as tagalog:  # Filipino: read as Tagalog
        table = tagalog.create_table("pontoon", 2, seed=1, options={"max_bet": 50})
        told = tagalog.propose(table.id, table.tokens[1], {"type": "bet", "amount": 0})
    [violation] = told["violations"]
    assert violation["rule"] == "PO-3"
    assert violation["message"] == fill(
        games["pontoon"].texts["PO-3"]["tl"], {"low": "1", "high": "50"}
    )
    assert violation["message"] == "ang paunang taya ay dapat nasa pagitan ng 1 at 50"


def test_a_language_the_game_is_not_written_in_gets_english(address: str) -> None:
    with RefereeClient(address, language="pt") as client:  # Pontoon is English and Tagalog
        table = client.create_table("pontoon", 2, seed=1)
        [violation] = client.propose(table.id, table.tokens[1], {"type": "bet"})["violations"]
    assert violation["message"] == CATALOGUE.render(
        Sentence(
            "move.missing_field", {"at": Sentence("move.at", {"type": "bet"}), "field": "amount"}
        )
    )


def test_describe_game_words_every_sentence_in_the_callers_language(
    portuguese: RefereeClient, english: RefereeClient
) -> None:
    described = portuguese.describe(TAROCCHI)
    assert described["language"] == "pt" and described["languages"] == ["en", "pt"]
    entries = [*described["rules"], *described["moves"], *described["options"]]
    assert entries and all(entry["sentence"] == entry["text"]["pt"] for entry in entries)
    assert english.describe(TAROCCHI)["language"] == "en"
    contribute = next(m for m in described["moves"] if m["type"] == "contribute")
    assert contribute["sentence"].startswith("qualquer lugar")


def test_events_are_told_in_the_language_of_each_receiver(
    portuguese: RefereeClient, english: RefereeClient
) -> None:
    table = portuguese.create_table(TAROCCHI, 4, seed=7)
    dealer = portuguese.view(table.id)["to_act"]
    rng = random.Random(1)
    for move in turn_candidates(portuguese.view(table.id, table.tokens[dealer]), rng):
        told = portuguese.propose(table.id, table.tokens[dealer], move)
        if told["accepted"]:
            break
    [discarded] = told["events"]
    assert discarded["text"].startswith("você descartou ")
    other = (dealer + 1) % 4
    [seen] = next(iter(english.watch(table.id, table.tokens[other])))["events"]
    assert seen["text"] == (
        f"the dealer, seat {dealer}, discarded 2 cards face down: {seen['trumps']} trump(s)"
    )
