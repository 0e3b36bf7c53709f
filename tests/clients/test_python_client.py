"""The Python client and its bots example, against a real referee on a free port. The tables
are kept in memory: a whole match is thousands of moves, and every one would wait for an fsync
(the SQLite path over gRPC is tested in tests/server and tests/harden)."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import grpc
import pytest

from referee.app import ServerConfig, create_server
from referee.calls.limits import Limits
from referee.engine.game import Game
from referee.service import RefereeService
from referee.store.memory import MemoryStore
from referee_client import RefereeClient

EXAMPLE = Path(__file__).resolve().parents[2] / "clients/python/examples/bots_play_pontinho.py"


@pytest.fixture
def client(games: dict[str, Game]) -> Iterator[RefereeClient]:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    # bots play far faster than people: no rate quotas here (tests/server/test_limits.py)
    config = ServerConfig(limits=Limits().without_rates())
    server, port = create_server(service, config=config)
    server.start()
    with RefereeClient(f"127.0.0.1:{port}") as connected:
        yield connected
    server.stop(None)
    service.close()


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bots_play_pontinho", EXAMPLE)
    assert spec is not None and spec.loader is not None, EXAMPLE
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_four_bots_play_a_whole_match_over_grpc(client: RefereeClient) -> None:
    """A whole match, from 75 points a seat: a few hands over gRPC (a match from 0, thousands
    of moves, is the rummy golden transcript's, played in process)."""
    final = _example().play(client, seats=4, seed=7, show=False, start_at=75)
    assert final["match_over"] is True
    winner = final["winner"]
    # PN-27: everyone else blew (at 100 or more) and is out; the winner is under 100
    assert final["scores"][str(winner)] < 100
    assert set(final["blown"]) == {0, 1, 2, 3} - {winner}
    assert all(final["scores"][str(s)] >= 100 for s in final["blown"])
    # the last hand, revealed: whoever went out holds nothing and scored nothing
    last = final["last_hand"]
    assert last["hands"][str(last["went_out"])] == [] and last["points"][str(last["went_out"])] == 0


def test_a_seat_view_shows_its_own_hand_only(client: RefereeClient) -> None:
    table = client.create_table("pontinho", seats=3, seed=11)
    views = [client.view(table.id, table.tokens[s]) for s in range(3)]
    for seat, view in enumerate(views):
        assert len(view["hand"]) == 9
        assert "hands" not in view and "stock" not in view
        assert view["seat"] == seat and "hand" in view
    public = client.view(table.id)
    assert "hand" not in public and public["hand_sizes"] == {"0": 9, "1": 9, "2": 9}


def test_rejected_move_is_explained_and_changes_nothing(client: RefereeClient) -> None:
    table = client.create_table("pontinho", seats=3, seed=5)
    before = client.view(table.id, table.tokens[1])
    verdict = client.propose(
        table.id, table.tokens[1], {"type": "discard", "card": before["hand"][0]}
    )
    assert not verdict["accepted"]
    assert {"PN-16"} <= {c for v in verdict["violations"] for c in v["cites"]}
    fixes = [v["fix"] for v in verdict["violations"]]  # how to mend it, `{}` where none is told
    assert {"kind": "move_instead", "moves": ["draw", "take_discard"]} in fixes
    assert client.view(table.id, table.tokens[1]) == before


def test_a_record_comes_signed_by_the_referees_key(client: RefereeClient) -> None:
    table = client.create_table("pontinho", seats=3, seed=5)
    record = json.loads(client.record(table.id, table.tokens[1]))
    assert record["seen_by"] == 1 and record["signature"]["key"] == client.signing_key()
    assert client.view(table.id)["rules_version"] == record["rules_version"]


def test_a_seat_has_its_own_rejection_explained(client: RefereeClient) -> None:
    table = client.create_table("pontinho", seats=3, seed=5)
    client.propose(table.id, table.tokens[2], {"type": "draw"}, move_id="out-of-turn")
    explained = client.explain(table.id, table.tokens[2], move_id="out-of-turn")
    assert explained["shown"] == "own" and not explained["verdict"]["accepted"]
    draw = next(j for j in explained["judged"] if j["checkpoint"] == "draw")
    gen7 = next(r for r in draw["rules"] if r["rule"] == "GEN-7")
    assert gen7 == {"rule": "GEN-7", "outcome": "broken", "reads": {"in_turn": False}}
    assert explained["text"][0] == "seat 2 proposed to draw at version 0: rejected"


def test_the_director_rules_on_a_dispute(games: dict[str, Game]) -> None:
    service = RefereeService(MemoryStore(), games)
    server, port = create_server(service, config=ServerConfig(create_token="operator"))
    server.start()
    try:
        with RefereeClient(f"127.0.0.1:{port}", create_token="operator") as director:
            table = director.create_table("pontinho", seats=3)
            first = director.view(table.id)["to_act"]
            drawn = director.propose(table.id, table.tokens[first], {"type": "draw"})
            hand = director.view(table.id, table.tokens[first])["hand"]
            dispute = {"type": "dispute", "version": 1, "reason": "it drew before the cut"}
            director.propose(table.id, table.tokens[0], dispute)
            ruled = director.rule(table.id, 2, "rewind", "the draw is void", to=0)
            assert drawn["accepted"] and ruled["accepted"] and ruled["version"] == 3
            assert ruled["events"][0]["kind"] == "rewound" and ruled["events"][0]["voided"] == [1]
            assert len(director.view(table.id, table.tokens[first])["hand"]) == len(hand) - 1
            assert set(director.view(table.id, director=True)["hands"]) == {"0", "1", "2"}
            update = next(director.watch(table.id, from_version=2, director=True))
            assert update["seat"] == -1 and update["events"][0]["note"] == "the draw is void"
            seen = director.view(table.id)  # the open disputes; the ruled ones counted
            assert (seen["disputes"], seen["disputes_ruled"]) == ([], 1)
            assert director.propose(table.id, table.tokens[0], dispute)["accepted"]
            again = director.propose(table.id, table.tokens[2], dispute)
            assert again["violations"][0]["code"] == "already_disputed"
            assert director.view(table.id)["disputes"] == [{"dispute": 4, "seat": 0, "version": 1}]
    finally:
        server.stop(None)
        service.close()


def test_the_lobby_names_a_table_s_seats_and_gives_a_lost_seat_a_new_token(
    games: dict[str, Game],
) -> None:
    service = RefereeService(MemoryStore(), games)
    server, port = create_server(service, config=ServerConfig(create_token="operator"))
    server.start()
    try:
        with RefereeClient(f"127.0.0.1:{port}", create_token="operator") as operator:
            named = operator.create_table("pontinho", seats=3, names={0: "Ana", 2: "Caio"})
            others = [operator.create_table("pontinho", seats=3).id for _ in range(2)]
            assert operator.view(named.id)["names"] == {"0": "Ana", "2": "Caio"}
            page, token = operator.list_tables(page_size=2)
            assert [t["table_id"] for t in page] == others[::-1] and token
            listed = list(operator.all_tables(page_size=2))
            assert [t["table_id"] for t in listed] == [*others[::-1], named.id]
            assert listed[-1]["names"] == {0: "Ana", 2: "Caio"} and not listed[-1]["over"]
            assert operator.list_tables(over=True) == ([], "")
            new = operator.reissue_seat(named.id, 1)
            assert operator.view(named.id, new)["seat"] == 1
            with pytest.raises(grpc.RpcError) as refused:
                operator.view(named.id, named.tokens[1])
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with RefereeClient(f"127.0.0.1:{port}") as anyone:  # the control: no operator token
            with pytest.raises(grpc.RpcError) as denied:
                anyone.list_tables()
            assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        server.stop(None)
        service.close()
