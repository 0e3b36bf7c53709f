"""A fair deal over real gRPC (docs/fair-deal.md): a live referee refuses a chosen seed or a
stacked deal unless allowed, every view shows the mode and the commitment, a seat's `contribute`
is judged and watched like any move, the decks revealed over gRPC re-derive from their keys, and
a finished fair table's record replays from its revealed secret."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from referee.adjudication.replay import adjudicate
from referee.app import create_server
from referee.engine.game import Game
from referee.engine.record import record_of
from referee.engine.table import Table, TableSetup
from referee.errors import InvalidArgument
from referee.model import ADJUDICATOR, Move, Outcome
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_bots import tricks_bot
from referee_client import RefereeClient
from tests.support import server as server_support
from tests.support.fair_deal_doc import doc_shuffle  # the document's algorithm

DEAL = {
    **server_support.DEAL,
    "hands": {str(s): h for s, h in server_support.DEAL["hands"].items()},
}


@pytest.fixture
def live(games: dict[str, Game]) -> Iterator[RefereeClient]:
    """A referee as in production: `allow_stacked` off."""
    service = RefereeService(MemoryStore(), games)
    server, port = create_server(service)
    server.start()
    with RefereeClient(f"127.0.0.1:{port}") as client:
        yield client
    service.close()
    server.stop(None)


@pytest.mark.parametrize("chosen", [{"seed": 7}, {"deal": DEAL}, {"seed": 7, "deal": DEAL}])
def test_a_live_referee_refuses_a_chosen_seed_or_deal(
    live: RefereeClient, chosen: dict[str, Any]
) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        live.create_table("pontinho", 3, **chosen)
    assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert "--allow-stacked" in (refused.value.details() or "")


def test_a_fair_table_shows_its_mode_and_commitment_to_every_seat(live: RefereeClient) -> None:
    table = live.create_table("pontinho", 3, entropy="the creator's own")
    assert len(table.deal_commitment) == 64
    for token in [None, *table.tokens.values()]:
        view = live.view(table.id, token)
        assert view["deal"] == "fair" and view["deal_commitment"] == table.deal_commitment
        assert view["contributions"] == 0 and "seed" not in view and "deal_secret" not in view


def test_allowed_stacked_and_seeded_tables_say_so_in_every_view(stub: Any, address: str) -> None:
    with RefereeClient(address) as client:
        seeded = client.create_table("pontinho", 3, seed=42)
        stacked = client.create_table("pontinho", 3, deal=DEAL)
        for token in [None, *seeded.tokens.values()]:
            view = client.view(seeded.id, token)
            assert (view["deal"], view["seed"]) == ("seeded", 42)
            assert view["deal_commitment"] == hashlib.sha256(b"seed:42").hexdigest()
        for token in [None, *stacked.tokens.values()]:
            view = client.view(stacked.id, token)
            assert view["deal"] == "stacked" and "seed" not in view  # its later deals: fair


def test_a_contribution_is_judged_recorded_and_watched(live: RefereeClient) -> None:
    table = live.create_table("pontinho", 3)
    verdict = live.propose(table.id, table.tokens[2], {"type": "contribute", "entropy": "dice: 4"})
    assert verdict["accepted"] and verdict["events"] == [
        {
            "kind": "contributed",
            "seat": 2,
            "contributions": 1,
            "text": "seat 2 mixed its entropy into the deal (1 so far)",
        }
    ]
    too_long = live.propose(table.id, table.tokens[0], {"type": "contribute", "entropy": "x" * 65})
    assert not too_long["accepted"] and too_long["violations"][0]["rule"] == "GEN-8"
    assert live.view(table.id)["contributions"] == 1
    watched = live.watch(table.id, table.tokens[0])
    assert next(iter(watched))["events"][0]["kind"] == "contributed"


@pytest.mark.slow
def test_deals_revealed_over_grpc_rederive_from_their_keys(live: RefereeClient) -> None:
    """Fair Tarocchi games of four deals, some seats contributing: every revealed deck is the
    shuffle of its cards by its key; at the end the secret matches the commitment."""
    checked = 0
    for index in range(3):
        table = live.create_table("tarocchi_piedicavallo", 4, options={"deals_per_game": 4})
        rng, seen = random.Random(index), {}
        while not (view := live.view(table.id))["match_over"]:
            if rng.random() < 0.03:
                seat = rng.randrange(4)
                entropy = {"type": "contribute", "entropy": f"{rng.getrandbits(32)}"}
                assert live.propose(table.id, table.tokens[seat], entropy)["accepted"]
            seat = tricks_bot.next_to_act(view)
            for move in tricks_bot.turn_candidates(live.view(table.id, table.tokens[seat]), rng):
                if live.propose(table.id, table.tokens[seat], move)["outcome"] != "rejected":
                    break
            last = live.view(table.id).get("last_hand") or {}
            for purpose, key in (last.get("keys") or {}).items():
                seen[purpose] = (last["deck"], key)
        for deck, key in seen.values():
            assert doc_shuffle(deck, bytes.fromhex(key)) == deck
            checked += 1
        secret = live.view(table.id)["deal_secret"]
        assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == table.deal_commitment
    assert checked == 12


def test_a_finished_fair_tables_record_replays_from_its_secret(games: dict[str, Game]) -> None:
    game = games["tarocchi_piedicavallo"]
    table = Table.create(game, TableSetup(game=game.name, seats=4, entropy="mine"))
    table.propose(3, Move("contribute", {"entropy": "and mine"}))
    unfinished = record_of(table)
    assert "secret" not in unfinished and unfinished["deal_commitment"] == table.deal_commitment
    with pytest.raises(InvalidArgument, match="still in play"):
        adjudicate(games, unfinished)
    rng = random.Random(5)
    while not table.is_over:
        seat = tricks_bot.next_to_act(table.view(ADJUDICATOR))
        for move in tricks_bot.turn_candidates(table.view(seat), rng):
            if table.propose(seat, Move.from_data(move)).outcome is not Outcome.REJECTED:
                break
    record = record_of(table)
    assert record["secret"] == table.view(0)["deal_secret"]
    answer = adjudicate(games, record)
    assert answer["legal"] and answer["moves"] == table.version
    # the same shuffles and play (the deck commitments' salt is not part of a record)
    unsalted = [
        {k: v for k, v in view["last_hand"].items() if k not in ("salt", "commitment")}
        for view in (answer["result"], table.view(ADJUDICATOR))
    ]
    assert unsalted[0] == unsalted[1] and unsalted[0]["keys"]
    forged = {**record, "secret": "00" * 32}
    with pytest.raises(InvalidArgument, match="does not match"):
        adjudicate(games, forged)
