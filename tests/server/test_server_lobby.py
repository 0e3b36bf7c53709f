"""The lobby over gRPC (issue 27, point 1): display names at CreateTable, shown in views and
records and bounded; ListTables, the operator's, filtered and paged from the store's summaries;
ReissueSeat, the operator's, after which a seat's old token is refused and its new one acts."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import structlog

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.app import ServerConfig
from referee.bench import recorded_game
from referee.engine.game import Game
from referee.model import Move
from referee.records.verification import verify
from referee.server.convert import data_to_struct
from referee.server.logging import processors
from referee.service import RefereeService
from referee.service.auth import digest
from referee.store.sqlite import SqliteStore
from tests.support.named_fields import named_fields
from tests.support.server import DEAL, OpenTable, seat_metadata, status_of, stub_of

OPERATOR = "the-operator's-secret"
AS_OPERATOR = (("x-create-token", OPERATOR),)
NAMES = {0: "Ana", 1: "Bé 🂡", 2: "Carlos"}
DENIED = grpc.StatusCode.PERMISSION_DENIED


@pytest.fixture
def service(tmp_path: Path, games: dict[str, Game]) -> RefereeService:
    return RefereeService(SqliteStore(tmp_path / "t.db"), games, allow_stacked=True)


@pytest.fixture
def stub(service: RefereeService) -> Iterator[RefereeStub]:
    with stub_of(service, ServerConfig(create_token=OPERATOR)) as stub:
        yield stub


def create(stub: RefereeStub, **asked: Any) -> OpenTable:
    request = pb.CreateTableRequest(
        game="pontinho", seats=3, seed=0, deal=data_to_struct(DEAL), **asked
    )
    created = stub.CreateTable(request, metadata=AS_OPERATOR)
    tokens = {seat.seat: seat.token for seat in created.seats}
    return OpenTable(stub, created.table_id, tokens, created.commitment)


def lobby(stub: RefereeStub, **asked: Any) -> pb.ListTablesResponse:
    answer: pb.ListTablesResponse = stub.ListTables(
        pb.ListTablesRequest(**asked), metadata=AS_OPERATOR
    )
    return answer


def record(stub: RefereeStub, table_id: str, metadata: Any = AS_OPERATOR) -> dict[str, Any]:
    answer = stub.GetRecord(pb.GetRecordRequest(table_id=table_id), metadata=metadata)
    found: dict[str, Any] = json.loads(answer.record)
    return found


# -- display names -----------------------------------------------------------------------------


def test_names_are_in_every_view_and_record(stub: RefereeStub, games: dict[str, Game]) -> None:
    table = create(stub, names=NAMES)
    shown = {str(seat): name for seat, name in NAMES.items()}
    assert all(table.view(seat)["names"] == NAMES for seat in (0, 1, 2, None))  # seats as ints
    director = stub.GetView(pb.GetViewRequest(table_id=table.table_id), metadata=AS_OPERATOR)
    assert named_fields(director.view)["names"] == NAMES
    full = record(stub, table.table_id)
    assert full["names"] == shown
    assert record(stub, table.table_id, seat_metadata(table.tokens[2]))["names"] == shown
    text = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id), metadata=AS_OPERATOR)
    assert verify(text.record, games.values()).holds  # a record with names verifies
    assert dict(lobby(stub).tables[0].names) == NAMES


def test_a_table_without_names_shows_none(stub: RefereeStub) -> None:
    table = create(stub)
    assert all("names" not in table.view(seat) for seat in (1, None))
    assert "names" not in record(stub, table.table_id)
    assert dict(lobby(stub).tables[0].names) == {}


def test_a_name_is_only_a_label(stub: RefereeStub) -> None:
    """Seat 2 named "seat 1" (and seat 1 named as the operator) acts as seat 2, nothing more."""
    table = create(stub, names={1: OPERATOR, 2: "seat 1"})
    assert table.propose(2, "draw").outcome == pb.OUTCOME_REJECTED  # seat 1's turn, not 2's
    assert status_of(lambda: lobby_as(stub, (("x-create-token", "seat 1"),))) == DENIED


@pytest.mark.parametrize(
    ("names", "problem"),
    [
        ({0: "x" * 41}, "1 to 40 characters, not 41"),
        ({0: ""}, "1 to 40 characters, not 0"),
        ({0: "   "}, "not blank"),
        ({0: "Ana\nseat 1: wins"}, "no control"),
        ({0: "evil\u202eboB"}, "no control"),  # a right-to-left override: category Cf
        ({0: "a\u2028b"}, "no control"),  # a line separator: Zl
        ({0: "zero\u200bwidth"}, "no control"),  # Cf
        ({3: "Dee"}, "`3` is not a seat of this table"),
        ({-1: "Dee"}, "`-1` is not a seat of this table"),
    ],
)
def test_a_bad_name_is_refused_and_creates_nothing(
    stub: RefereeStub, names: dict[int, str], problem: str
) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        create(stub, names=names)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert problem in str(refused.value.details())
    assert list(lobby(stub).tables) == []  # nothing was created
    assert create(stub, names={0: "x" * 40}).table_id  # the control: 40 is a name


# -- ListTables --------------------------------------------------------------------------------


def lobby_as(stub: RefereeStub, metadata: Any) -> pb.ListTablesResponse:
    answer: pb.ListTablesResponse = stub.ListTables(pb.ListTablesRequest(), metadata=metadata)
    return answer


def test_the_lobby_is_the_operators_alone(stub: RefereeStub) -> None:
    table = create(stub)
    as_seat = seat_metadata(table.tokens[0])
    for metadata in ((), as_seat, (("x-create-token", table.tokens[0]),)):
        assert status_of(lambda m=metadata: lobby_as(stub, m)) == DENIED
    assert [t.table_id for t in lobby_as(stub, AS_OPERATOR).tables] == [table.table_id]


def test_without_an_operator_nobody_lists_tables(tmp_path: Path, games: dict[str, Game]) -> None:
    """At a server without `--create-token` nobody is the operator (as for GetRecord, Rule)."""
    service = RefereeService(SqliteStore(tmp_path / "t.db"), games)
    with stub_of(service, ServerConfig()) as stub:
        for metadata in ((), AS_OPERATOR, (("x-create-token", ""),)):
            assert status_of(lambda m=metadata: lobby_as(stub, m)) == DENIED


def test_a_table_s_summary_follows_its_disputes_and_rulings(stub: RefereeStub) -> None:
    table = create(stub, names={1: "Bea"})
    assert table.propose(1, "draw").version == 1
    assert table.propose(2, "dispute", version=1, reason="too fast").version == 2
    listed = lobby(stub).tables[0]
    assert (listed.version, list(listed.open_disputes), listed.over) == (2, [2], False)
    assert (listed.game, listed.seats, listed.created_at[:2]) == ("pontinho", 3, "20")
    assert listed.rules_version and not listed.HasField("clock_due_ms")
    assert [t.table_id for t in lobby(stub, open_disputes=True).tables] == [table.table_id]
    ruling = pb.RuleRequest(table_id=table.table_id, dispute=2, note="fine", uphold=pb.Uphold())
    stub.Rule(ruling, metadata=AS_OPERATOR)
    assert list(lobby(stub).tables[0].open_disputes) == []
    assert list(lobby(stub, open_disputes=True).tables) == []


def test_filters_by_game_state_and_clock(
    service: RefereeService, stub: RefereeStub, games: dict[str, Game]
) -> None:
    in_play = create(stub)
    clocked = create(stub, options=data_to_struct({"turn_seconds": 30}))
    game = games["tarocchi_piedicavallo"]
    setup, proposals = recorded_game(game, seed=4)
    over = service.create_table(game.name, options=setup.options, seats=setup.seats, seed=4)
    for seat, move in proposals:
        service.propose(over.table_id, over.tokens[seat], move)

    def ids(**asked: Any) -> list[str]:
        return [t.table_id for t in lobby(stub, **asked).tables]

    assert ids() == [over.table_id, clocked.table_id, in_play.table_id]
    assert ids(game="tarocchi_piedicavallo") == [over.table_id]
    assert ids(state=pb.TABLE_STATE_OVER) == [over.table_id]
    assert ids(state=pb.TABLE_STATE_IN_PLAY) == [clocked.table_id, in_play.table_id]
    assert ids(clock_running=True) == [clocked.table_id]
    assert ids(clock_running=False, game="pontinho") == [in_play.table_id]
    assert lobby(stub, clock_running=True).tables[0].clock_due_ms > 1_700_000_000_000
    assert ids(game="pontinho", state=pb.TABLE_STATE_OVER) == []
    unknown_state = pb.ListTablesRequest(state=7)  # type: ignore[arg-type]
    with pytest.raises(grpc.RpcError) as refused:
        stub.ListTables(unknown_state, metadata=AS_OPERATOR)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_pages_show_every_table_once(stub: RefereeStub) -> None:
    made = [create(stub).table_id for _ in range(7)]
    seen: list[str] = []
    token, pages = "", 0
    while True:
        page = lobby(stub, page_size=3, page_token=token)
        seen += [t.table_id for t in page.tables]
        pages, token = pages + 1, page.next_page_token
        if not token:
            break
    assert seen == made[::-1] and pages == 3
    assert [t.table_id for t in lobby(stub, page_size=500).tables] == made[::-1]  # cut to 200
    assert len(lobby(stub).tables) == 7  # 0: 50 a page


@pytest.mark.parametrize(
    "asked",
    [
        {"page_token": "not-a-token"},
        {"page_token": "dGFibGVzMTp4"},  # base64 of `tables1:x`
        {"page_token": "dGFibGVzMTot"},  # `tables1:-`
        {"page_token": "x" * 100},
        {"page_size": -1},
    ],
)
def test_a_bad_page_is_invalid(stub: RefereeStub, asked: dict[str, Any]) -> None:
    create(stub)
    with pytest.raises(grpc.RpcError) as refused:
        lobby(stub, **asked)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_tables_from_before_summaries_get_theirs_at_the_first_listing(
    tmp_path: Path, games: dict[str, Game]
) -> None:
    """A database migrated from before summaries (its tables' summary NULL): the first ListTables
    replays each such table once and lists it right, its open dispute filtered on."""
    first = RefereeService(SqliteStore(tmp_path / "old.db"), games, allow_stacked=True)
    table = first.create_table("pontinho", seats=3, seed=0, deal=DEAL)
    first.propose(table.table_id, table.tokens[1], move("draw"))
    first.propose(table.table_id, table.tokens[2], move("dispute", version=1, reason="why"))
    first.close()
    db = sqlite3.connect(tmp_path / "old.db")
    db.execute("UPDATE tables SET game_over = NULL, open_disputes = NULL")  # as migrated
    db.commit()
    db.close()
    again = RefereeService(SqliteStore(tmp_path / "old.db"), games)
    with stub_of(again, ServerConfig(create_token=OPERATOR)) as stub:
        listed = lobby(stub, open_disputes=True).tables
        assert [(t.table_id, list(t.open_disputes)) for t in listed] == [(table.table_id, [2])]


def move(kind: str, **fields: Any) -> Move:
    return Move(kind, fields)


# -- ReissueSeat -------------------------------------------------------------------------------


def reissue(stub: RefereeStub, table_id: str, seat: int, metadata: Any = AS_OPERATOR) -> str:
    answer = stub.ReissueSeat(
        pb.ReissueSeatRequest(table_id=table_id, seat=seat), metadata=metadata
    )
    assert answer.seat.seat == seat
    return str(answer.seat.token)


def test_a_reissued_seat_acts_with_its_new_token_alone(stub: RefereeStub) -> None:
    table = create(stub)
    old = table.tokens[1]
    new = reissue(stub, table.table_id, 1)
    assert new != old and len(new) == len(old)
    assert status_of(lambda: table.view(1)) == grpc.StatusCode.UNAUTHENTICATED
    refused = status_of(lambda: table.propose(1, "draw", token=old))
    assert refused == grpc.StatusCode.UNAUTHENTICATED
    assert table.propose(1, "draw", token=new).outcome == pb.OUTCOME_ACCEPTED
    table.tokens[1] = new
    assert "hand" in table.view(1) and table.view(2)["version"] == 2  # the others' still work
    assert table.propose(1, "discard", card="JH").version == 3


def test_a_reissue_is_logged_without_any_token(stub: RefereeStub, games: dict[str, Game]) -> None:
    table = create(stub)
    old = table.tokens[0]
    new = reissue(stub, table.table_id, 0)
    answer = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id), metadata=AS_OPERATOR)
    steps = json.loads(answer.record)["steps"]
    assert [(s["seat"], s["move"]) for s in steps] == [("director", {"type": "reissue", "seat": 0})]
    for secret in (old, new, digest(old), digest(new)):
        assert secret not in answer.record
    assert verify(answer.record, games.values()).holds
    seen = record(stub, table.table_id, seat_metadata(table.tokens[2]))["steps"][0]
    assert seen["events"] == [{"kind": "reissued", "seat": 0}]
    explained = stub.Explain(pb.ExplainRequest(table_id=table.table_id, version=1))
    assert (
        explained.text[0] == "the director's move (give a seat a new token) at version 0: accepted"
    )


def test_only_the_operator_reissues(stub: RefereeStub) -> None:
    table = create(stub)
    for metadata in ((), seat_metadata(table.tokens[1]), (("x-create-token", table.tokens[1]),)):
        assert status_of(lambda m=metadata: reissue(stub, table.table_id, 1, m)) == DENIED
    as_move = pb.ProposeRequest(
        table_id=table.table_id, move=pb.Move(type="reissue", fields=data_to_struct({"seat": 1}))
    )
    verdict = stub.Propose(as_move, metadata=seat_metadata(table.tokens[1])).verdict
    assert verdict.outcome == pb.OUTCOME_REJECTED  # nor by a move of its own
    assert verdict.violations[0].code == "director_only"
    assert table.version() == 0
    assert reissue(stub, table.table_id, 1)  # the control: the same call of the operator


@pytest.mark.parametrize(
    ("table_id", "seat", "code"),
    [
        ("", 0, grpc.StatusCode.INVALID_ARGUMENT),
        ("nope", 0, grpc.StatusCode.NOT_FOUND),
        (None, 3, grpc.StatusCode.INVALID_ARGUMENT),
        (None, -1, grpc.StatusCode.INVALID_ARGUMENT),
    ],
)
def test_a_reissue_asked_amiss_is_a_clear_status(
    stub: RefereeStub, table_id: str | None, seat: int, code: grpc.StatusCode
) -> None:
    table = create(stub)
    asked = table.table_id if table_id is None else table_id
    assert status_of(lambda: reissue(stub, asked, seat)) == code
    assert table.version() == 0 and "hand" in table.view(seat if 0 <= seat < 3 else 0)


def test_no_reissued_token_reaches_the_log(stub: RefereeStub) -> None:
    out = io.StringIO()
    structlog.configure(processors=processors(), logger_factory=structlog.PrintLoggerFactory(out))
    try:
        table = create(stub)
        given = [reissue(stub, table.table_id, 1), reissue(stub, table.table_id, 1)]
        table.propose(1, "draw", token=given[-1])
        status_of(lambda: table.propose(1, "draw", token=given[0]))  # refused: logged
    finally:
        structlog.reset_defaults()
    logged = out.getvalue()
    assert logged.count('"seat_reissued"') == 2  # the act is logged, with its table and seat
    secrets = [*table.tokens.values(), *given, *map(digest, given)]
    assert not [secret for secret in secrets if secret in logged]
