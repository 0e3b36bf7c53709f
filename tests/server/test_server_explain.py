"""Explain over gRPC (issue 16): a past proposal's rules, their outcomes and the values they read,
as the caller may see them; the director sees all of it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.app import ServerConfig
from referee.bench import recorded_game
from referee.cards import PackKind, cards_said
from referee.engine.game import Game
from referee.model import Move
from referee.redaction import HIDDEN, cards_in
from referee.server.convert import struct_to_data
from referee.service import CreatedTable, RefereeService
from referee.store.memory import MemoryStore
from tests.support.server import DEAL, status_of, stub_of

DIRECTOR = "the-director's-secret"


@pytest.fixture
def service(games: dict[str, Game]) -> RefereeService:
    return RefereeService(MemoryStore(), games, allow_stacked=True)


@pytest.fixture
def stub(service: RefereeService) -> Iterator[referee_pb2_grpc.RefereeStub]:
    with stub_of(service, ServerConfig(create_token=DIRECTOR)) as stub:
        yield stub


@pytest.fixture
def pontinho(service: RefereeService) -> CreatedTable:
    """Seat 2 draws out of turn (`early`), seat 1 draws (`d1`), then melds cards that are
    no meld (`bad`)."""
    table = service.create_table("pontinho", seats=3, deal=DEAL)
    service.propose(table.table_id, table.tokens[2], Move("draw"), move_id="early")
    service.propose(table.table_id, table.tokens[1], Move("draw"), move_id="d1")
    meld = Move("meld", {"cards": ["5C", "6C", "KH"]})
    service.propose(table.table_id, table.tokens[1], meld, move_id="bad")
    return table


def explain(
    stub: Any,
    table: CreatedTable,
    *,
    token: str | None = None,
    director: bool = False,
    **which: Any,
) -> pb.ExplainResponse:
    metadata = [("x-seat-token", token)] if token else []
    if director:
        metadata.append(("x-create-token", DIRECTOR))
    if "language" in which:
        metadata.append(("accept-language", which.pop("language")))
    request = pb.ExplainRequest(table_id=table.table_id, **which)
    response: pb.ExplainResponse = stub.Explain(request, metadata=metadata)
    return response


def said_in(text: Any) -> set[str]:
    """The cards an explanation's lines name, as players write them (`7♥`), by their codes."""
    return set(cards_said("\n".join(text), PackKind.FRENCH))


def reads(response: pb.ExplainResponse) -> list[Any]:
    return [struct_to_data(r.reads) for j in response.judged for r in j.rules]


def deciding_broken(response: pb.ExplainResponse) -> set[str]:
    return {
        r.rule
        for j in response.judged
        if j.role != "tried"
        for r in j.rules
        if r.outcome == "broken"
    }


def test_a_seat_s_own_rejection_is_explained_with_what_it_read(
    stub: Any, pontinho: CreatedTable
) -> None:
    response = explain(stub, pontinho, token=pontinho.tokens[1], move_id="bad")
    assert response.shown == "own" and response.seat == 1 and response.judged_at == 1
    assert response.verdict.outcome == pb.OUTCOME_REJECTED
    cited = {v.rule for v in response.verdict.violations}
    assert deciding_broken(response) <= cited
    assert {j.checkpoint for j in response.judged} >= {"meld"}
    assert any("in_turn" in r for r in reads(response))  # GEN-7 read whose turn it was
    assert response.text[0] == "seat 1 proposed to lay a meld at version 1: rejected"
    held = "GEN-7 held (its sentence: \u201cit is not your turn\u201d) (it read in turn: yes)"
    assert any(held in line for line in response.text), response.text


def test_the_text_is_in_the_caller_s_language(stub: Any, pontinho: CreatedTable) -> None:
    response = explain(stub, pontinho, token=pontinho.tokens[2], move_id="early", language="pt-BR")
    assert response.text[0] == "o lugar 2 propôs comprar do monte na versão 0: recusada"
    assert any(line.startswith("  GEN-7 violada: ") for line in response.text), response.text


def test_another_seat_sees_an_accepted_move_s_outcomes_only(
    stub: Any, pontinho: CreatedTable
) -> None:
    for token in (pontinho.tokens[2], None):  # another seat, a spectator
        response = explain(stub, pontinho, token=token, version=1)
        assert response.shown == "outcomes" and response.seat == 1
        assert response.judged and all(r == {} for r in reads(response))
    own = explain(stub, pontinho, token=pontinho.tokens[1], version=1)
    assert any(r for r in reads(own))  # the control: the proposer sees the values


def test_another_seat_s_rejection_is_not_shown(stub: Any, pontinho: CreatedTable) -> None:
    assert status_of(lambda: explain(stub, pontinho, token=pontinho.tokens[2], move_id="bad")) == (
        grpc.StatusCode.PERMISSION_DENIED
    )
    assert (
        status_of(lambda: explain(stub, pontinho, move_id="bad"))
        == grpc.StatusCode.PERMISSION_DENIED
    )
    assert explain(stub, pontinho, director=True, move_id="bad").shown == "all"  # the control


@pytest.mark.parametrize(
    ("which", "code"),
    [
        ({"version": 9}, grpc.StatusCode.NOT_FOUND),
        ({"version": 0}, grpc.StatusCode.NOT_FOUND),
        ({"move_id": "never-sent"}, grpc.StatusCode.NOT_FOUND),
        ({}, grpc.StatusCode.INVALID_ARGUMENT),
    ],
)
def test_a_proposal_that_is_not_there_is_a_clear_answer(
    stub: Any, pontinho: CreatedTable, which: dict[str, Any], code: grpc.StatusCode
) -> None:
    assert status_of(lambda: explain(stub, pontinho, token=pontinho.tokens[1], **which)) == code


def test_a_token_of_another_table_is_refused(
    stub: Any, service: RefereeService, pontinho: CreatedTable
) -> None:
    other = service.create_table("pontinho", seats=3, deal=DEAL)
    call = lambda: explain(stub, pontinho, token=other.tokens[1], version=1)  # noqa: E731
    assert status_of(call) == grpc.StatusCode.UNAUTHENTICATED


def test_a_blind_banker_never_learns_its_hidden_card_from_an_explanation(
    stub: Any, service: RefereeService, games: dict[str, Game]
) -> None:
    """The banker proposes before its turn, while its first card is hidden from it: its
    explanation shows no card it does not see, where the director's shows the hidden one."""
    setup, log = recorded_game(games["pontoon"], 1, 300)
    table = service.create_table("pontoon", **setup.asked())
    for seat, move in log:
        service.propose(table.table_id, table.tokens[seat], move)
        if service.view(table.table_id, table.tokens[seat]).view.get("phase") == "play":
            break
    banker = service.view(table.table_id, None).view["banker"]
    service.propose(table.table_id, table.tokens[banker], Move("twist"), move_id="early-twist")
    seen = cards_in(service.view(table.table_id, table.tokens[banker]).view, PackKind.FRENCH)
    own = explain(stub, table, token=table.tokens[banker], move_id="early-twist")
    director = explain(stub, table, director=True, move_id="early-twist")
    named = cards_in(reads(own), PackKind.FRENCH) | said_in(own.text)
    assert named - {HIDDEN} <= seen, named - seen
    hidden = (cards_in(reads(director), PackKind.FRENCH) | said_in(director.text)) - seen - {HIDDEN}
    assert hidden, "the control: the director's explanation names the banker's hidden card"
    assert [j.role for j in own.judged].count("blind") == 1  # the 52 judgements merged
    assert [j.role for j in own.judged if j.checkpoint == "twist"] == ["blind"]  # not the real one
    worlds = [
        [struct_to_data(r.reads) for r in j.rules] for j in director.judged if j.role == "blind"
    ]
    varying = {
        (place, name)
        for place, first in enumerate(worlds[0])
        for name, value in first.items()
        if any(world[place].get(name) != value for world in worlds)
    }
    assert varying, "the control: some value a rule read depends on the hidden card"
    merged = [struct_to_data(r.reads) for j in own.judged if j.role == "blind" for r in j.rules]
    assert all(merged[place][name] == HIDDEN for place, name in varying)
    assert own.verdict.outcome == pb.OUTCOME_REJECTED


def test_an_explanation_is_judged_on_a_worker_thread_not_the_event_loop(
    stub: Any, service: RefereeService, pontinho: CreatedTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its work takes a worker thread (the pool every unary call runs on), never the event loop
    the health check and every call's transport share."""
    threads: list[str] = []
    original = service.explain

    def explain_noting_the_thread(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)

    monkeypatch.setattr(service, "explain", explain_noting_the_thread)
    assert explain(stub, pontinho, version=1).seat == 1
    assert len(threads) == 1 and threads[0].startswith("referee_"), threads
    assert threads[0] != "referee-grpc"  # the event loop's thread
