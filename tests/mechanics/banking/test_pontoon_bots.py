"""Pontoon bots against a real referee over gRPC (port 0, SQLite file): hands played by
`referee_client.pontoon_bot`, each bot holding only its own token and seeing only its own view.

After every accepted move: chips are conserved (the balances plus what lies on the table never
change in sum, GEN-6), and no seat's view shows another seat's face-down cards (GEN-3, PO-3):
a seat sees of the other seats exactly what a spectator sees, `??` for every card not face up;
the banker does not see its own first card before its turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import struct_pb2

from referee.api.v1 import referee_pb2 as pb
from referee.app import create_server
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.sqlite import SqliteStore
from referee_bots.pontoon_bot import HIDDEN, next_to_act, turn_candidates
from referee_client import RefereeClient, TableHandle
from tests.oracles.banking import best_total, hard_total

MAX_PROPOSALS = 5000  # per table: a hand of bots takes a few dozen


@pytest.fixture
def client(tmp_path: Path, games: dict[str, Game]) -> Iterator[RefereeClient]:
    service = RefereeService(SqliteStore(tmp_path / "referee.db"), games, allow_stacked=True)
    server, port = create_server(service, "127.0.0.1", 0)
    server.start()
    with RefereeClient(f"127.0.0.1:{port}") as connected:
        yield connected
    server.stop(None)
    service.close()


def create_table(
    client: RefereeClient,
    seats: int,
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    chips: int = 1000,
    dealer: int = 0,
    deal: dict[str, Any] | None = None,
) -> TableHandle:
    """A Pontoon table with starting chips (`RefereeClient.create_table` does not take
    balances: the request is made here with the generated stub)."""
    request = pb.CreateTableRequest(
        game="pontoon", seats=seats, dealer=dealer, balances={s: chips for s in range(seats)}
    )
    if options:
        request.options.update(options)
    if seed is not None:
        request.seed = seed
    if deal is not None:
        stacked = struct_pb2.Struct()
        stacked.update(deal)
        request.deal.CopyFrom(stacked)
    reply = client.stub.CreateTable(request)
    return TableHandle(reply.table_id, {s.seat: s.token for s in reply.seats}, reply.commitment)


def chips(view: dict[str, Any]) -> int:
    return int(sum(view["balances"].values())) + int(view["on_table"]) + int(view.get("kitty") or 0)


def check_views(client: RefereeClient, table: TableHandle, twists: dict[int, int]) -> None:
    """GEN-3 and PO-3 in every seat's view (`twists`: the cards each seat twisted face up this
    hand, the only player cards a spectator may see while the hand is played)."""
    public = client.view(table.id)
    in_play = public["phase"] in ("bet", "play")
    banker = public["banker"]
    for seat, token in table.tokens.items():
        view = client.view(table.id, token)
        assert view["seat"] == seat
        for other, hands in view["hands"].items():
            if int(other) != seat:  # nothing more of the others than a spectator sees
                assert hands == public["hands"][other], (seat, other, hands, public["hands"][other])
        own = [c for h in view["hands"][str(seat)] for c in h["cards"]]
        if seat == banker and in_play:  # PO-3: the banker may not look at its first card
            assert view["hands"][str(seat)][0]["cards"][0] == HIDDEN
            assert own.count(HIDDEN) == 1, own
        else:
            assert HIDDEN not in own, (seat, own)
    if not in_play:
        return
    for seat, hands in public["hands"].items():
        shown = [c for h in hands if not shown_whole(h["cards"]) for c in h["cards"] if c != HIDDEN]
        if int(seat) == banker or public["phase"] == "bet":
            assert not shown, (seat, hands)
        else:  # face up: only what was twisted
            assert len(shown) <= twists.get(int(seat), 0), (seat, hands, twists)


def shown_whole(cards: list[str]) -> bool:
    """PO-5: a pontoon, a five-card trick and a bust hand are shown whole, by themselves."""
    if HIDDEN in cards:
        return False
    pontoon = len(cards) == 2 and best_total(cards) == 21
    return pontoon or len(cards) == 5 or hard_total(cards) > 21


def play(
    client: RefereeClient,
    table: TableHandle,
    hands: int,
    rng: random.Random,
    limits: dict[str, int],
    views: bool = True,
) -> dict[str, Any]:
    """Bots play `hands` hands; the invariants are checked after every accepted move."""
    total = chips(client.view(table.id))
    played, proposals, twists = 0, 0, dict[int, int]()
    while proposals < MAX_PROPOSALS:
        public = client.view(table.id)
        if public["hand_over"]:
            played += 1
            twists.clear()
            if played >= hands:
                return public
        seat = next_to_act(public)
        token = table.tokens[seat]
        for move in turn_candidates(client.view(table.id, token), rng, **limits):
            proposals += 1
            verdict = client.propose(table.id, token, move)
            if verdict["accepted"]:
                if move["type"] == "twist" and public["phase"] == "play":
                    twists[seat] = twists.get(seat, 0) + 1
                if move["type"] == "next_hand":
                    twists.clear()
                break
            assert verdict["violations"], verdict
            assert client.view(table.id)["version"] == public["version"]  # nothing changed
        else:
            raise AssertionError(f"seat {seat} found no legal move: {client.view(table.id, token)}")
        after = client.view(table.id)
        assert chips(after) == total, f"chips {chips(after)} != {total} after {move}"
        if views:
            check_views(client, table, twists)
    raise AssertionError(f"{hands} hands took more than {MAX_PROPOSALS} proposals")


@pytest.mark.parametrize(
    ("seats", "seed", "options"),
    [
        (2, 1, {}),
        (5, 3, {"min_bet": 5, "max_bet": 50}),
        (
            6,
            8,
            {
                "stick_min": 16,
                "burn_hard_13": True,
                "fifth_card_buy": "twist_only_if_hard_11_or_less",
            },
        ),
        (
            8,
            21,
            {"split": "aces_only", "split_pontoon_double": False, "min_bet": 10, "max_bet": 10},
        ),
    ],
)
def test_bots_play_hands_with_chips_conserved_and_cards_hidden(
    client: RefereeClient, seats: int, seed: int, options: dict[str, Any]
) -> None:
    table = create_table(client, seats, seed=seed, options=options)
    limits = {"min_bet": options.get("min_bet", 1), "max_bet": options.get("max_bet", 100)}
    final = play(client, table, hands=4, rng=random.Random(seed), limits=limits)
    assert final["hand_over"] and final["on_table"] == 0
    assert sum(final["balances"].values()) == 1000 * seats
    assert final["hand_number"] >= 4


def test_many_hands_conserve_chips(client: RefereeClient) -> None:
    """A longer table (the bank passing on pontoons), chips counted after every move."""
    table = create_table(client, 7, seed=99)
    final = play(client, table, hands=15, rng=random.Random(99), limits={}, views=False)
    assert sum(final["balances"].values()) == 7000 and final["on_table"] == 0


def test_the_last_hand_does_not_give_away_the_next(client: RefereeClient) -> None:
    """GEN-3 across hands. No pontoon in hand 1: its used cards go under the pack and hand 2 is
    dealt from the rest of the pack as it lay (PO-8). The finished hand revealed to everyone
    (`last_hand`) must not let seat 1 read the banker's face-down second card of hand 2."""
    deck = [
        "TH",
        "TC",
        "9H",
        "8C",  # hand 1: seat 1 TH 9H (19), banker TC 8C (18)
        "5D",
        "KD",
        "6D",
        "QD",
    ]  # hand 2: seat 1 5D 6D, banker KD QD (20)
    table = create_table(client, 2, deal={"deck": deck}, seed=5)
    seat1, banker = table.tokens[1], table.tokens[0]
    moves: list[tuple[str, dict[str, Any]]] = [
        (seat1, {"type": "bet", "amount": 10}),
        (seat1, {"type": "stick"}),
        (banker, {"type": "stick"}),
        (banker, {"type": "next_hand"}),
        (seat1, {"type": "bet", "amount": 10}),
    ]
    for token, move in moves:
        assert client.propose(table.id, token, move)["accepted"], move
    secret = client.view(table.id, banker)["hands"]["0"][0]["cards"][1]  # the banker sees it
    view = client.view(table.id, seat1)
    assert view["hands"]["0"][0]["cards"] == [HIDDEN, HIDDEN]  # seat 1 does not...
    last = view["last_hand"]
    used = sum(len(h) for hands in last["hands"].values() for h in hands)
    rest = [
        c
        for c in last.get("deck", [])
        if c not in {c for hands in last["hands"].values() for h in hands for c in h}
    ]
    # ... unless the revealed deck says in which order the rest of the pack lies: the 4th card
    # dealt in hand 2 (second round, the banker's) would be rest[3]
    assert used == 4
    assert rest[3:4] != [secret], (
        f"seat 1 reads the banker's face-down {secret} in last_hand.deck: {last.get('deck')}"
    )


def test_referee_play_pontoon(capsys: pytest.CaptureFixture[str]) -> None:
    """`referee play pontoon`: the pontoon bot (the game's mechanics are `banking`) plays the
    hands asked for, the banker dealing each next one, and the chips are all there at the end."""
    from referee.cli import main

    assert main(["play", "pontoon", "--bots", "6", "--seed", "3", "--hands", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert [f"hand {n} over" in out for n in range(1, 5)] == [True] * 4
    assert "hand 5 over" not in out
    assert "after 4 hands:" in out and "chips conserved (6000 of 6000)" in out
    assert "{'type': 'next_hand'} -> accepted" in out


def test_bots_play_shoot_pontoon_with_a_kitty(capsys: pytest.CaptureFixture[str]) -> None:
    """SH-1, SH-8: the bank puts up (and refills) the kitty; chips plus kitty are conserved."""
    from referee.cli import main

    assert (
        main(["play", "shoot_pontoon", "--bots", "4", "--seed", "3", "--hands", "3", "--quiet"])
        == 0
    )
    out = capsys.readouterr().out
    assert "after 3 hands" in out and "chips conserved (4000 of 4000)" in out
