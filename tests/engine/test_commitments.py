"""Deck commitments (GEN-5) of the banking and trick-taking tables: published when a deck is
dealt, its salt secret; revealed once its order tells nothing of cards still hidden, and then
checkable (sha256 of the salt and the deck) and the very deck that was dealt.

Pontoon carries the pack from hand to hand (PO-8): it is committed to when shuffled and
revealed when a pontoon has it shuffled again. A Tarocchi deal is revealed when it is over.
(Pontinho's are tested in test_table.py.)
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, JSON, Event, Move
from referee_bots import pontoon_bot, tricks_bot


def digest(salt: str, deck: list[str]) -> str:
    return hashlib.sha256((salt + ":" + ",".join(deck)).encode("utf-8")).hexdigest()


def hidden_from_seats(table: Table, key: str) -> None:
    for seat in [None, *range(table.setup.seats)]:
        view = table.view(seat)
        assert "salt" not in view and key not in view


def test_a_pontoon_pack_is_revealed_when_a_pontoon_has_it_shuffled(games: dict[str, Game]) -> None:
    game = games["pontoon"]
    table = Table.create(
        game, TableSetup(game="pontoon", seats=4, seed=5, balances={s: 1000 for s in range(4)})
    )
    first_order = table.view(ADJUDICATOR)["deck"]  # as shuffled, top first
    hidden_from_seats(table, "deck")
    rng, published = random.Random(5), [table.commitment]
    revealed: list[dict[str, JSON]] = []
    while len(revealed) < 2:
        seat = pontoon_bot.next_to_act(table.view(ADJUDICATOR))
        for move in pontoon_bot.turn_candidates(table.view(seat), rng, min_bet=1, max_bet=100):
            verdict = table.propose(seat, Move.from_data(move))
            if verdict.accepted:
                break
        for event in verdict.events:
            if event.kind == "deck_revealed":
                revealed.append(event.seen_by(None))  # public: every seat sees it
            if event.kind == "hand_dealt":
                published.append(event.data["commitment"])
        hidden_from_seats(table, "deck")
    first, second = revealed
    assert first["commitment"] == table.commitment == digest(first["salt"], first["deck"])
    assert second["commitment"] == digest(second["salt"], second["deck"])
    assert first["commitment"] != second["commitment"] and second["shuffle"] == 2
    # the pack is committed to once per shuffle: the hands in between all publish the same one
    assert set(published) == {
        first["commitment"],
        second["commitment"],
        table.view(0)["commitment"],
    }
    # the deck revealed is the pack the first hands were dealt from (52 cards, top first)
    assert first["deck"] == first_order and len(first["deck"]) == 52


def without_keys(event: Event) -> Event:
    """The event less the revealed shuffle keys (a stacked deck was not shuffled: it has none)."""
    return replace(event, data={k: v for k, v in event.data.items() if k != "keys"})


def test_a_pontoon_table_replays_from_its_revealed_pack(games: dict[str, Game]) -> None:
    """A dispute's check: the revealed deck, stacked, gives the same hands as the seed did."""
    game = games["pontoon"]
    setup = TableSetup(
        game="pontoon", seats=3, seed=9, balances={s: 1000 for s in range(3)}, salt="same salt"
    )
    table = Table.create(game, setup)
    deck = table.view(ADJUDICATOR)["deck"]
    stacked = Table.create(
        game,
        TableSetup(
            game="pontoon",
            seats=3,
            deal={"deck": deck},
            seed=9,
            balances={s: 1000 for s in range(3)},
            salt="same salt",
        ),
    )
    rng = random.Random(9)
    for _ in range(30):
        seat = pontoon_bot.next_to_act(table.view(ADJUDICATOR))
        for move in pontoon_bot.turn_candidates(table.view(seat), rng, min_bet=1, max_bet=100):
            verdict = table.propose(seat, Move.from_data(move))
            if verdict.accepted:
                again = stacked.propose(seat, Move.from_data(move)).events
                assert [without_keys(e) for e in again] == [without_keys(e) for e in verdict.events]
                break
        if any(e.kind == "deck_revealed" for e in verdict.events):
            break  # a new shuffle: from the seed, not from the stacked deck
        assert stacked.view(ADJUDICATOR)["hands"] == table.view(ADJUDICATOR)["hands"]


def test_a_tarocchi_deal_is_revealed_when_it_is_over(games: dict[str, Game]) -> None:
    game = games["tarocchi_piedicavallo"]
    table = Table.create(
        game, TableSetup(game=game.name, seats=4, seed=2, options={"deals_per_game": 2})
    )
    dealt = table.view(ADJUDICATOR)
    hidden_from_seats(table, "deck")
    assert not table.view(None)["last_hand"]
    rng = random.Random(2)
    while table.view(ADJUDICATOR)["hand_number"] == 1:
        seat = tricks_bot.next_to_act(table.view(ADJUDICATOR))
        for move in tricks_bot.turn_candidates(table.view(seat), rng):
            if table.propose(seat, Move.from_data(move)).accepted:
                break
    finished = table.view(None)["last_hand"]  # a spectator sees the finished deal revealed
    assert finished["commitment"] == table.commitment == digest(finished["salt"], finished["deck"])
    assert finished["deck"] == dealt["deck"] and len(finished["deck"]) == 62
    assert sorted(c for hand in dealt["hands"].values() for c in hand) == sorted(finished["deck"])
    assert table.view(0)["commitment"] != table.commitment  # the second deal's, its salt secret
