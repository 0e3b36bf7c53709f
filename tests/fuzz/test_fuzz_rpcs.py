"""No client input reaches INTERNAL or UNKNOWN (issue 10, point 5).

One real referee (`referee serve --port 0 --http 0 --memory`, a process of its own) takes hostile
requests to every RPC (`fuzz_strategies.py`), raw bytes to every method and JSON bodies to the
HTTP routes that take data; any answer or status is fine but INTERNAL and UNKNOWN (HTTP 500), and
the server logs no `internal_error`. Its resident memory is read
before and after: growth past a generous bound fails, and 3,000 garbage requests must leave it
as it was. `make test` runs a short pass (about 20 s); `make fuzz` runs it with FUZZ_SCALE=20.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1.referee_pb2_grpc import RefereeStub
from referee.calls.wire import SERVICE
from referee.engine.game import Game
from referee.plugins.transcript import Adapter, adapter_for
from referee.server.convert import data_to_struct
from referee_client.client import _data
from tests.support.named_fields import named_fields
from tests.web.web_support import Http

from fuzz_strategies import (
    INT32,
    INT64,
    adjudicate_requests,
    as_json,
    create_table_data,
    create_table_requests,
    mostly,
    moves,
    moves_as_data,
    names,
    raw_requests,
    records,
    seat_numbers,
    text,
    yaml_texts,
)
from fuzz_support import (
    AS_OPERATOR,
    BUGS,
    FUZZ_SCALE,
    OPERATOR,
    ServedReferee,
    outcome,
    raw_call,
    scaled,
    serve,
)
from garbage_rss import send

WATCH_S = 0.1  # a Watch stream's deadline: a live table's stream stays open until then
CALL_S = 10.0
RSS_BOUND_KB = int(96_000 + 8_000 * FUZZ_SCALE)  # generous: tables created by the fuzz stay
SEEN: Counter[tuple[str, str]] = Counter()  # (request type, status): what the fuzz reached


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=scaled(examples),
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )


@dataclass
class Open:
    """A table opened by the test module: its game, its seats' tokens, and the bot of its
    mechanic (`referee/plugins/transcript.py`) that plays it on between fuzzed moves."""

    table_id: str
    game: str
    tokens: list[str]
    adapter: Adapter
    options: dict[str, Any]


@dataclass
class Fuzzed:
    referee: ServedReferee
    stub: RefereeStub
    descriptions: dict[str, dict[str, Any]]
    tables: list[Open]
    rss_before_kb: int


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory, games: dict[str, Game]) -> Iterator[Fuzzed]:
    referee = serve(tmp_path_factory.mktemp("fuzz") / "referee.log")
    try:
        stub = RefereeStub(referee.channel)
        served = [g.name for g in stub.ListGames(pb.ListGamesRequest(), timeout=CALL_S).games]
        descriptions = {
            game: named_fields(
                stub.DescribeGame(pb.DescribeGameRequest(game=game), timeout=CALL_S).description
            )
            for game in served
        }
        tables = [
            open_table(stub, games[game], described)
            for game, described in descriptions.items()
            for _ in range(2)
        ]
        yield Fuzzed(referee, stub, descriptions, tables, referee.rss_kb)
    finally:
        referee.stop()


def open_table(stub: RefereeStub, game: Game, described: dict[str, Any]) -> Open:
    seats, adapter = described["seats"]["min"], adapter_for(game)
    balances = {seat: adapter.chips for seat in range(seats)} if adapter.chips else {}
    created = stub.CreateTable(
        pb.CreateTableRequest(game=game.name, seats=seats, balances=balances),
        timeout=CALL_S,
        metadata=AS_OPERATOR,
    )
    options = {o["name"]: o["default"] for o in described["options"]}
    return Open(created.table_id, game.name, [s.token for s in created.seats], adapter, options)


def advance(stub: RefereeStub, table: Open, rng: random.Random) -> None:
    """One turn of the table's bot, so that the fuzzed moves meet the game in many states."""
    public = _data(stub.GetView(pb.GetViewRequest(table_id=table.table_id), timeout=CALL_S).view)
    try:
        seat = table.adapter.next_seat(public)
    except (KeyError, TypeError, ValueError, IndexError):  # the game is over: nobody acts
        return
    token = metadata(table.tokens[seat])
    view = _data(
        stub.GetView(
            pb.GetViewRequest(table_id=table.table_id), timeout=CALL_S, metadata=token
        ).view
    )  # as the client library reads it
    for move in itertools.islice(table.adapter.candidates(table.options)(view, rng), 30):
        fields = {k: v for k, v in move.items() if k != "type"}
        proposal = pb.ProposeRequest(
            table_id=table.table_id,
            move=pb.Move(type=str(move["type"]), fields=data_to_struct(fields)),
        )
        answer = stub.Propose(proposal, timeout=CALL_S, metadata=token)
        if answer.verdict.outcome != pb.OUTCOME_REJECTED:
            SEEN["bot move", pb.Outcome.Name(answer.verdict.outcome)] += 1
            return


@pytest.fixture(autouse=True)
def no_bug_logged(fuzzed: Fuzzed) -> Iterator[None]:
    """The server logs no bug during the test (one a client never saw included)."""
    before = len(fuzzed.referee.internal_errors())
    yield
    assert fuzzed.referee.internal_errors()[before:] == []


def assert_no_bug(code: grpc.StatusCode, request: Any) -> None:
    SEEN[type(request).__name__, code.name] += 1
    assert code not in BUGS, f"{code.name} for {type(request).__name__}: {request!r:.2000}"


ascii_tokens = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80)


def tokens(fuzzed: Fuzzed, table: Open) -> st.SearchStrategy[str | None]:
    """No token, one of the table's, another table's, or a made-up one."""
    others = [t for other in fuzzed.tables for t in other.tokens]
    # `fuzz_strategies` is a folder's module pytest puts on sys.path: Any to mypy
    chosen: st.SearchStrategy[str | None] = mostly(
        st.sampled_from(table.tokens), st.one_of(st.none(), st.sampled_from(others), ascii_tokens)
    )
    return chosen


def metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    return () if token is None else (("x-seat-token", token),)


def table_ids(fuzzed: Fuzzed, table: Open) -> st.SearchStrategy[str]:
    """Mostly `table`'s, else another table's or a made-up one."""
    known = [t.table_id for t in fuzzed.tables]
    chosen: st.SearchStrategy[str] = mostly(
        st.just(table.table_id),
        st.one_of(st.sampled_from(known), st.sampled_from(["", " ", "../x", "t" * 300]), text),
    )
    return chosen


optional_int64 = mostly(
    st.none(), st.one_of(st.integers(-3, 40), st.sampled_from(INT64), st.integers(*INT64))
)
optional_seat = mostly(st.none(), st.one_of(st.integers(-2, 9), st.sampled_from(INT32)))
move_ids = mostly(
    st.just(""), st.one_of(st.sampled_from(["m-1", "m-2", "x" * 128, "x" * 129]), text)
)


def test_list_and_describe_games(fuzzed: Fuzzed) -> None:
    @fuzz(30)
    @given(game=st.one_of(st.sampled_from(sorted(fuzzed.descriptions)), names))
    def check(game: str) -> None:
        request = pb.DescribeGameRequest(game=game)
        assert_no_bug(outcome(lambda: fuzzed.stub.DescribeGame(request, timeout=CALL_S)), request)

    check()
    assert outcome(lambda: fuzzed.stub.ListGames(pb.ListGamesRequest(), timeout=CALL_S)) is (
        grpc.StatusCode.OK
    )


def test_create_table(fuzzed: Fuzzed) -> None:
    @fuzz(80)
    @given(request=create_table_requests(fuzzed.descriptions))
    def check(request: pb.CreateTableRequest) -> None:
        def call() -> Any:
            return fuzzed.stub.CreateTable(request, timeout=CALL_S, metadata=AS_OPERATOR)

        assert_no_bug(outcome(call), request)

    check()


def test_propose(fuzzed: Fuzzed) -> None:
    by_game = {game: moves(described["moves"]) for game, described in fuzzed.descriptions.items()}

    def case(table: Open) -> st.SearchStrategy[tuple[pb.ProposeRequest, str | None]]:
        request = st.builds(
            pb.ProposeRequest,
            table_id=table_ids(fuzzed, table),
            move=by_game[table.game],
            move_id=move_ids,
            expected_version=optional_int64,
            seat=optional_seat,
        )
        return st.tuples(request, tokens(fuzzed, table))

    @fuzz(200)
    @given(asked=st.one_of(*[case(table) for table in fuzzed.tables]), seed=st.integers(0, 2**32))
    def check(asked: tuple[pb.ProposeRequest, str | None], seed: int) -> None:
        request, token = asked
        rng = random.Random(seed)  # not st.randoms(): the bot draws as the table's state asks
        for table in fuzzed.tables:
            if table.table_id == request.table_id:
                advance(fuzzed.stub, table, rng)

        def call() -> None:
            answer = fuzzed.stub.Propose(request, timeout=CALL_S, metadata=metadata(token))
            SEEN["Verdict", pb.Outcome.Name(answer.verdict.outcome)] += 1

        assert_no_bug(outcome(call), request)

    check()


def test_get_view(fuzzed: Fuzzed) -> None:
    def case(table: Open) -> st.SearchStrategy[tuple[pb.GetViewRequest, str | None]]:
        request = st.builds(
            pb.GetViewRequest, table_id=table_ids(fuzzed, table), seat=optional_seat
        )
        return st.tuples(request, tokens(fuzzed, table))

    @fuzz(40)
    @given(asked=st.one_of(*[case(table) for table in fuzzed.tables]))
    def check(asked: tuple[pb.GetViewRequest, str | None]) -> None:
        request, token = asked

        def call() -> Any:
            return fuzzed.stub.GetView(request, timeout=CALL_S, metadata=metadata(token))

        assert_no_bug(outcome(call), request)

    check()


def test_get_record(fuzzed: Fuzzed) -> None:
    def case(table: Open) -> st.SearchStrategy[tuple[pb.GetRecordRequest, str | None]]:
        request = st.builds(pb.GetRecordRequest, table_id=table_ids(fuzzed, table))
        return st.tuples(request, tokens(fuzzed, table))

    @fuzz(20)
    @given(asked=st.one_of(*[case(table) for table in fuzzed.tables]))
    def check(asked: tuple[pb.GetRecordRequest, str | None]) -> None:
        request, token = asked

        def call() -> Any:
            return fuzzed.stub.GetRecord(request, timeout=CALL_S, metadata=metadata(token))

        assert_no_bug(outcome(call), request)

    check()


def test_explain(fuzzed: Fuzzed) -> None:
    def case(table: Open) -> st.SearchStrategy[tuple[pb.ExplainRequest, str | None]]:
        version = st.builds(
            pb.ExplainRequest,
            table_id=table_ids(fuzzed, table),
            version=st.one_of(st.integers(-3, 40), st.sampled_from(INT64)),
        )
        move_id = st.builds(
            pb.ExplainRequest, table_id=table_ids(fuzzed, table), move_id=st.text(max_size=200)
        )
        neither = st.builds(pb.ExplainRequest, table_id=table_ids(fuzzed, table))
        return st.tuples(st.one_of(version, move_id, neither), tokens(fuzzed, table))

    @fuzz(20)
    @given(asked=st.one_of(*[case(table) for table in fuzzed.tables]))
    def check(asked: tuple[pb.ExplainRequest, str | None]) -> None:
        request, token = asked

        def call() -> Any:
            return fuzzed.stub.Explain(request, timeout=CALL_S, metadata=metadata(token))

        assert_no_bug(outcome(call), request)

    check()


def raise_disputes(fuzzed: Fuzzed, table: Open, rng: random.Random, count: int) -> list[int]:
    """`count` disputes on `table`, each of its latest move after a bot's: their numbers."""
    numbers = []
    for _ in range(count):
        advance(fuzzed.stub, table, rng)
        version = fuzzed.stub.GetView(pb.GetViewRequest(table_id=table.table_id)).version
        if not version:  # the bot found no move: there is nothing to dispute
            continue
        fields = data_to_struct({"version": version, "reason": "fuzzed"})
        answer = fuzzed.stub.Propose(
            pb.ProposeRequest(table_id=table.table_id, move=pb.Move(type="dispute", fields=fields)),
            timeout=CALL_S,
            metadata=metadata(table.tokens[0]),
        )
        if answer.verdict.outcome == pb.OUTCOME_ACCEPTED:
            numbers.append(answer.verdict.version)
    return numbers


def test_rule(fuzzed: Fuzzed) -> None:
    """Rulings on real disputes (raised here, on each table) and made-up ones, mostly as the
    operator: any decision, any numbers, any note."""
    rng = random.Random(16)
    raised = {table.table_id: raise_disputes(fuzzed, table, rng, 3) for table in fuzzed.tables}
    assert any(raised.values())
    decisions: st.SearchStrategy[dict[str, Any]] = st.one_of(
        st.builds(dict, uphold=st.builds(pb.Uphold)),
        st.builds(
            dict,
            rewind=st.builds(pb.Rewind, to=st.one_of(st.integers(-3, 40), st.sampled_from(INT64))),
        ),
        st.builds(
            dict,
            adjust=st.builds(
                pb.Adjust,
                seat=st.one_of(st.integers(-2, 9), st.sampled_from(INT32)),
                amount=st.one_of(st.integers(-1000, 1000), st.sampled_from(INT64)),
                tally=st.one_of(st.sampled_from(["score", "chips", ""]), text),
            ),
        ),
        st.just({}),
    )

    def case(table: Open) -> st.SearchStrategy[tuple[pb.RuleRequest, str | None]]:
        request = st.builds(
            lambda table_id, dispute, note, decision, ruling_id, expected: pb.RuleRequest(
                table_id=table_id,
                dispute=dispute,
                note=note,
                ruling_id=ruling_id,
                expected_version=expected,
                **decision,
            ),
            table_ids(fuzzed, table),
            mostly(
                st.sampled_from(raised[table.table_id] or [1]),
                st.one_of(st.integers(-3, 60), st.sampled_from(INT64)),
            ),
            st.one_of(st.just("ruled"), text),
            decisions,
            move_ids,
            optional_int64,
        )
        operator = mostly(st.just(OPERATOR), st.one_of(st.none(), ascii_tokens))
        return st.tuples(request, operator)

    @fuzz(40)
    @given(asked=st.one_of(*[case(table) for table in fuzzed.tables]))
    def check(asked: tuple[pb.RuleRequest, str | None]) -> None:
        request, token = asked
        operator = () if token is None else (("x-create-token", token),)

        def call() -> Any:
            answer = fuzzed.stub.Rule(request, timeout=CALL_S, metadata=operator)
            SEEN["Ruling", pb.Outcome.Name(answer.verdict.outcome)] += 1

        assert_no_bug(outcome(call), request)

    check()


def test_list_tables(fuzzed: Fuzzed) -> None:
    """The lobby: any filters, page sizes and page tokens (a real one among them), mostly as
    the operator."""
    first = fuzzed.stub.ListTables(pb.ListTablesRequest(page_size=1), metadata=AS_OPERATOR)
    real_tokens = st.sampled_from([first.next_page_token, first.next_page_token[:-2] + "=="])
    request = st.builds(
        pb.ListTablesRequest,
        game=st.one_of(st.just(""), st.sampled_from(sorted(fuzzed.descriptions)), names),
        state=st.one_of(st.integers(0, 3), st.sampled_from(INT32)),
        open_disputes=st.one_of(st.none(), st.booleans()),
        clock_running=st.one_of(st.none(), st.booleans()),
        page_size=st.one_of(st.integers(-3, 300), st.sampled_from(INT32)),
        page_token=st.one_of(st.just(""), real_tokens, ascii_tokens, text),
    )
    operator = mostly(st.just(OPERATOR), st.one_of(st.none(), ascii_tokens))

    @fuzz(40)
    @given(asked=request, token=operator)
    def check(asked: pb.ListTablesRequest, token: str | None) -> None:
        metadata = () if token is None else (("x-create-token", token),)

        def call() -> Any:
            return fuzzed.stub.ListTables(asked, timeout=CALL_S, metadata=metadata)

        assert_no_bug(outcome(call), asked)

    check()


def test_reissue_seat(fuzzed: Fuzzed) -> None:
    """New tokens for any seat of any table, mostly as the operator: a seat given a new token
    keeps it in `Open.tokens`, so the other tests play on."""
    by_id = {table.table_id: table for table in fuzzed.tables}

    def case(table: Open) -> st.SearchStrategy[tuple[pb.ReissueSeatRequest, str | None]]:
        request = st.builds(
            pb.ReissueSeatRequest, table_id=table_ids(fuzzed, table), seat=seat_numbers(4)
        )
        return st.tuples(request, mostly(st.just(OPERATOR), st.one_of(st.none(), ascii_tokens)))

    @fuzz(20)
    @given(asked=st.one_of(*[case(table) for table in fuzzed.tables]))
    def check(asked: tuple[pb.ReissueSeatRequest, str | None]) -> None:
        request, token = asked
        metadata = () if token is None else (("x-create-token", token),)

        def call() -> None:
            answer = fuzzed.stub.ReissueSeat(request, timeout=CALL_S, metadata=metadata)
            by_id[request.table_id].tokens[request.seat] = answer.seat.token

        assert_no_bug(outcome(call), request)

    check()


def test_watch(fuzzed: Fuzzed) -> None:
    def case(table: Open) -> st.SearchStrategy[tuple[pb.WatchRequest, str | None]]:
        request = st.builds(
            pb.WatchRequest,
            table_id=table_ids(fuzzed, table),
            from_version=st.one_of(st.integers(-3, 40), st.sampled_from(INT64)),
        )
        return st.tuples(request, tokens(fuzzed, table))

    @fuzz(20)
    @given(asked=st.one_of(*[case(table) for table in fuzzed.tables]))
    def check(asked: tuple[pb.WatchRequest, str | None]) -> None:
        request, token = asked

        def call() -> Any:
            return list(fuzzed.stub.Watch(request, timeout=WATCH_S, metadata=metadata(token)))

        assert_no_bug(outcome(call), request)

    check()


def test_adjudicate(fuzzed: Fuzzed) -> None:
    @fuzz(80)
    @given(request=adjudicate_requests(fuzzed.descriptions))
    def check(request: pb.AdjudicateRequest) -> None:
        assert_no_bug(outcome(lambda: fuzzed.stub.Adjudicate(request, timeout=CALL_S)), request)

    check()


def test_json_bodies(fuzzed: Fuzzed) -> None:
    """CreateTable, Propose and Adjudicate through the HTTP gateway: JSON bodies, whose numbers
    may have any size (a 400-digit amount once answered 500)."""
    http = Http(fuzzed.referee.http_port)
    operator = dict(AS_OPERATOR)
    by_game = {game: moves_as_data(d["moves"]) for game, d in fuzzed.descriptions.items()}

    def proposal(table: Open) -> st.SearchStrategy[tuple[str, Any, dict[str, str]]]:
        path = f"/v1/tables/{table.table_id}/moves"
        return st.tuples(
            st.just(path),
            by_game[table.game].map(lambda move: {"move": as_json(_move_message(move))}),
            st.sampled_from(table.tokens).map(lambda token: {"x-seat-token": token}),
        )

    bodies = st.one_of(
        create_table_data(fuzzed.descriptions).map(
            lambda data: ("/v1/tables", as_json(data), operator)
        ),
        st.one_of(*[proposal(table) for table in fuzzed.tables]),
        records(fuzzed.descriptions).map(
            lambda record: ("/v1/adjudicate", {"record_data": as_json(record)}, {})
        ),
        yaml_texts(fuzzed.descriptions).map(
            lambda text: ("/v1/adjudicate", {"record_yaml": text}, {})
        ),
    )

    @fuzz(80)
    @given(asked=bodies)
    def check(asked: tuple[str, Any, dict[str, str]]) -> None:
        path, body, headers = asked
        answer = http.call("POST", path, body, headers=headers)
        SEEN[f"POST {path.split('/')[-1]}", str(answer.status)] += 1
        assert answer.status < 500, f"{answer.status} for {path}: {body!r:.2000}: {answer.data}"

    check()


def _move_message(move: Any) -> Any:
    """A move's data (`{type, ...fields}`) as the `Move` message has it: `{type, fields}`."""
    if not isinstance(move, dict):
        return move  # junk in place of a move: refused
    fields = {k: v for k, v in move.items() if k != "type"}
    return {"type": move.get("type"), "fields": fields}


def samples(fuzzed: Fuzzed) -> dict[str, list[bytes]]:
    """A well-formed request of each method, as bytes, to flip bytes in."""
    table = fuzzed.tables[0]
    move = pb.Move(type="draw")
    requests: dict[str, list[Any]] = {
        "ListGames": [pb.ListGamesRequest()],
        "DescribeGame": [pb.DescribeGameRequest(game=table.game)],
        "CreateTable": [pb.CreateTableRequest(game=table.game, seats=3, seed=7)],
        "Propose": [
            pb.ProposeRequest(
                table_id=table.table_id, move=move, move_id="m", expected_version=1, seat=1
            )
        ],
        "GetView": [pb.GetViewRequest(table_id=table.table_id, seat=1)],
        "Watch": [pb.WatchRequest(table_id=table.table_id, from_version=1)],
        "Adjudicate": [pb.AdjudicateRequest(record_yaml="game: pontinho\nseats: 3\nsteps: []")],
        "GetRecord": [pb.GetRecordRequest(table_id=table.table_id)],
        "Explain": [
            pb.ExplainRequest(table_id=table.table_id, version=1),
            pb.ExplainRequest(table_id=table.table_id, move_id="m"),
        ],
        "GetSigningKey": [pb.GetSigningKeyRequest()],
        "ListTables": [
            pb.ListTablesRequest(
                game=table.game, state=pb.TABLE_STATE_IN_PLAY, open_disputes=True, page_size=3
            )
        ],
        "ReissueSeat": [pb.ReissueSeatRequest(table_id=table.table_id, seat=1)],
        "Rule": [
            pb.RuleRequest(table_id=table.table_id, dispute=2, note="n", rewind=pb.Rewind(to=1)),
            pb.RuleRequest(
                table_id=table.table_id,
                dispute=2,
                note="n",
                adjust=pb.Adjust(seat=1, amount=5, tally="score"),
            ),
        ],
    }
    return {name: [r.SerializeToString() for r in listed] for name, listed in requests.items()}


@pytest.mark.parametrize("method", [m.name for m in SERVICE.methods])
def test_raw_bytes(fuzzed: Fuzzed, method: str) -> None:
    timeout = WATCH_S if SERVICE.methods_by_name[method].server_streaming else CALL_S

    @fuzz(15)
    @given(data=raw_requests(samples(fuzzed)[method]))
    def check(data: bytes) -> None:
        code = outcome(raw_call(fuzzed.referee.channel, method, data, timeout))
        assert code not in BUGS, f"{code.name} for {method} bytes {data!r}"

    check()


def test_garbage_requests_keep_no_memory(fuzzed: Fuzzed) -> None:
    """3,000 requests no message parses: a sync grpcio server keeps about 20 KB of each (+58 MB;
    `garbage_rss.py --bare-sync`), this one nothing measurable."""
    before, seen = fuzzed.referee.rss_kb, Counter[str]()
    send(fuzzed.referee.channel, 3_000, random.Random(3), seen)
    growth = fuzzed.referee.rss_kb - before
    print(f"3,000 garbage requests: RSS +{growth} kB, {dict(seen)}")
    assert seen == {"INVALID_ARGUMENT": 3_000}
    assert growth < 8_000


def test_the_server_memory_stays_bounded(fuzzed: Fuzzed) -> None:
    """Last in the module: the fuzz above ran on this server."""
    after = fuzzed.referee.rss_kb
    growth = after - fuzzed.rss_before_kb
    print(
        f"referee RSS {fuzzed.rss_before_kb} kB before the fuzz, {after} kB after "
        f"(+{growth} kB; bound +{RSS_BOUND_KB} kB; FUZZ_SCALE={FUZZ_SCALE:g})"
    )
    for (kind, code), count in sorted(SEEN.items()):
        print(f"  {kind:22} {code:20} {count}")
    assert growth < RSS_BOUND_KB
