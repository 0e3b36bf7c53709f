"""docs/fair-deal.md, implemented a second time from the document alone (this module does not
import `referee.engine.chance`), checked against the decks the referee reveals.

Bots play many tables of every mechanic, fair (the referee's secret) and seeded, some seats
contributing entropy along the way. For every deal revealed at the end of its hand: the deck is
the shuffle of its own cards by the revealed key, and it matches the commitment published when
it was dealt. For every finished game: the revealed secret matches the commitment published at
creation, and re-deriving the chain from it and the log gives every revealed key.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from referee.cards import codes
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, Move, Outcome
from referee.plugins.transcript import adapter_for
from tests.support.fair_deal_doc import (
    doc_commitment,
    doc_hmac,
    doc_root,
    doc_shuffle,
)
from tests.support.games import shipped_games
from tests.support.soak import SOAK_SCALE


def test_the_documents_test_vector() -> None:
    root = doc_root(None, 42)
    assert hashlib.sha256(root).hexdigest() == (
        "f6ef7999c7631f7871c1638ea0ff0504b36ebf6455f4a4568a023737a24d1f4a"
    )
    link = doc_hmac(root, "chain")
    assert link.hex() == "bd4ae274db75528354255243a68dc12fafe92c60e493e5f3d4eb934ee762874d"
    key = doc_hmac(link, "shuffle:deal:1")
    assert key.hex() == "e5045afcfa068f416975f3fd2cddd919f4a17f52337d5b8afb90dfa4bea63203"
    clubs = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"]
    assert doc_shuffle(clubs, key) == ["9C", "7C", "3C", "5C", "4C", "6C", "TC", "2C", "AC", "8C"]
    assert doc_hmac(link, "contribute:2:hello").hex() == (
        "7fc2fdcc2741d49bd62128cfea52fef70c0047b25b9fac19ddd77671f9aef927"
    )


# --- playing tables and gathering what they reveal ---------------------------------------------


@dataclass
class Played:
    table: Table
    # hand number -> the number of moves made when it was dealt (0: at creation)
    dealt_at: dict[int, int] = field(default_factory=lambda: {1: 0})
    # purpose -> (the revealed deck, its salt, its commitment, the revealed key)
    revealed: dict[str, tuple[list[str], str, str, str]] = field(default_factory=dict)
    commitments: dict[int, str] = field(default_factory=dict)  # published at each deal


def reveals(full: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = [full.get("last_hand") or {}, full.get("revealed_deck") or {}]
    return [r for r in found if r.get("keys")]


def play(
    game: Game, table: Table, rng: random.Random, *, hands: int, contribute: float = 0.0
) -> Played:
    """Bots play `table` until `hands` hands were dealt or the game is over; a seat contributes
    entropy before a move with the chance `contribute`."""
    adapter = adapter_for(game)
    played = Played(table, commitments={1: table.view(ADJUDICATOR)["commitment"]})
    candidates = adapter.candidates(game.resolve_options(table.setup.options))
    moves = table.version
    while not table.is_over and len(played.dealt_at) <= hands and moves < 20_000:
        full = table.view(ADJUDICATOR)
        note(played, full, moves)
        seat = adapter.next_seat(full)
        move = Move("contribute", {"entropy": f"{rng.getrandbits(64):x}"})
        if rng.random() >= contribute:
            move = next(
                (
                    Move.from_data(m)
                    for m in candidates(table.view(seat), rng)
                    if table.propose(seat, Move.from_data(m)).outcome is not Outcome.REJECTED
                ),
                move,
            )
            assert move.type != "contribute", "a bot found no legal move"
        else:
            assert table.propose(seat, move).outcome is Outcome.ACCEPTED
        moves += 1
    note(played, table.view(ADJUDICATOR), moves)
    return played


def note(played: Played, full: Mapping[str, Any], moves: int) -> None:
    number = int(full["hand_number"])
    if number not in played.dealt_at:
        played.dealt_at[number] = moves
        played.commitments[number] = full["commitment"]
    for reveal in reveals(full):
        for purpose, key in reveal["keys"].items():
            played.revealed.setdefault(
                purpose, (list(reveal["deck"]), reveal["salt"], reveal["commitment"], key)
            )


def chain_links(played: Played) -> list[str]:
    """The chain's link after each move (index = moves made), from the revealed secret."""
    setup, table = played.table.setup, played.table
    view = table.view(0)
    secret = view.get("deal_secret")
    assert secret is not None or setup.seed is not None
    root = doc_root(secret, setup.seed)
    assert hashlib.sha256(root).hexdigest() == view["deal_commitment"]
    link = doc_hmac(root, "chain")
    if setup.entropy is not None:
        link = doc_hmac(link, f"contribute:creator:{setup.entropy}")
    links = [link.hex()]
    for seat, move in table.history:
        if move.type == "contribute":
            link = doc_hmac(link, f"contribute:{seat}:{move.fields['entropy']}")
        links.append(link.hex())
    return links


def check_deals(played: Played, pack: list[str]) -> int:
    """Every revealed deal re-derived from its key; the number checked."""
    checked = 0
    for purpose, (deck, salt, commitment, key) in played.revealed.items():
        if not purpose.startswith("deal:"):
            continue
        assert doc_shuffle(deck, bytes.fromhex(key)) == deck, purpose
        assert doc_commitment(salt, deck) == commitment, purpose
        checked += 1
        assert Counter(deck) == Counter(pack), purpose
        number = int(purpose.split(":")[1])
        assert played.commitments[number] == commitment, purpose
    return checked


def check_chain(played: Played) -> None:
    """From the root (revealed or chosen) and the log, every revealed key of the game."""
    links = chain_links(played)
    for purpose, (_, _, _, key) in played.revealed.items():
        kind, number = purpose.split(":")[:2]
        if kind == "deal":
            link = links[played.dealt_at[int(number)] - (1 if int(number) > 1 else 0)]
            assert doc_hmac(bytes.fromhex(link), "shuffle:" + purpose).hex() == key, purpose
        else:  # a rebuilt stock: made during some move of the log
            assert any(
                doc_hmac(bytes.fromhex(k), "shuffle:" + purpose).hex() == key for k in links
            ), purpose


GAMES = shipped_games()
# game -> (setup extras, hands to play, tables): some 330 deals and 14 whole games in make test,
# three times as many with `make soak` (SOAK_SCALE=3)
PLAN: dict[str, tuple[dict[str, Any], int, int]] = {
    "tarocchi_piedicavallo": ({"seats": 4, "options": {"deals_per_game": 12}}, 12, 17 * SOAK_SCALE),
    "pontinho": ({"seats": 4}, 30, SOAK_SCALE),
    "taradinho": ({"seats": 4}, 30, 1),
    "pontoon": ({"seats": 6, "balances": {s: 10_000 for s in range(6)}}, 40, 10 * SOAK_SCALE),
    "shoot_pontoon": ({"seats": 4, "balances": {s: 10_000 for s in range(4)}}, 40, 3 * SOAK_SCALE),
}


def setups(name: str, index: int) -> TableSetup:
    extras, _, _ = PLAN[name]
    if index % 3 == 0:  # a seeded table
        return TableSetup(game=name, seed=1000 + index, **extras)
    entropy = f"creator {index}" if index % 3 == 1 else None  # a fair one, some with entropy
    # its secret fixed here (the referee draws it from `secrets`), so the test is deterministic
    secret = hashlib.sha256(f"{name} {index}".encode()).hexdigest()
    return TableSetup(game=name, secret=secret, entropy=entropy, **extras)


@pytest.mark.slow
def test_hundreds_of_revealed_deals_are_rederived_from_their_keys() -> None:
    rng = random.Random(2026)
    checked, games_checked = 0, 0
    for name, (_, hands, tables) in PLAN.items():
        game = GAMES[name]
        pack = codes(game.spec.pack())
        for index in range(tables):
            played = play(
                game,
                Table.create(game, setups(name, index)),
                rng,
                hands=hands,
                contribute=0.02 if index % 2 else 0.0,
            )
            checked += check_deals(played, pack)
            if played.table.is_over or played.table.setup.seed is not None:
                check_chain(played)
                games_checked += 1
    assert checked >= 330 * SOAK_SCALE, checked
    print(f"{checked} deals re-derived, {games_checked} chains")
    assert games_checked >= 20 * SOAK_SCALE, games_checked


def test_the_secret_is_shown_only_once_the_game_is_over() -> None:
    game = GAMES["tarocchi_piedicavallo"]
    played = play(
        game, Table.create(game, TableSetup(game=game.name, seats=4)), random.Random(1), hands=99
    )
    assert played.table.is_over
    assert played.table.view(1)["deal"] == "fair"
    assert "deal_secret" in played.table.view(1)
    fresh = Table.create(game, TableSetup(game=game.name, seats=4))
    assert "deal_secret" not in fresh.view(ADJUDICATOR)
    assert "deal_secret" not in fresh.view(None)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pontinho", "tarocchi_piedicavallo", "pontoon"])
def test_a_contribution_changes_later_shuffles_and_replays(name: str) -> None:
    extras, hands, _ = PLAN[name]
    game = GAMES[name]
    setup = TableSetup(game=name, seed=5, **extras)
    hands = min(hands, 4 if name != "pontoon" else 40)
    plain = play(game, Table.create(game, setup), random.Random(3), hands=hands)
    table = Table.create(game, setup)
    verdict = table.propose(1, Move("contribute", {"entropy": "seat one was here"}))
    assert verdict.outcome is Outcome.ACCEPTED
    assert [e.kind for e in verdict.events] == ["contributed"]
    mixed = play(game, table, random.Random(3), hands=hands)
    assert table.view(0)["contributions"] == 1
    first = [p for p in plain.revealed if p != "deal:1" and p.startswith("deal:")]
    assert first, "no later deal revealed"
    assert plain.revealed["deal:1"][0] == mixed.revealed["deal:1"][0]  # dealt before it
    for purpose in first:
        if purpose in mixed.revealed:
            assert plain.revealed[purpose][3] != mixed.revealed[purpose][3]
    check_chain(mixed)
    again = Table.replay(game, table.setup, table.history)
    assert again.view(ADJUDICATOR) == table.view(ADJUDICATOR)
