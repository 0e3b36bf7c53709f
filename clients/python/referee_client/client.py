"""A small Python client over the referee's generated gRPC stubs.

    client = RefereeClient("127.0.0.1:50051")
    table = client.create_table("pontinho", seats=4, seed=7)
    verdict = client.propose(table.id, table.tokens[1], {"type": "draw"})
    view = client.view(table.id, table.tokens[1])

Moves, views and events are plain dicts (the move language of docs/scenarios.md); a verdict is a dict
with `accepted`, `outcome`, `violations` (rule, message, cites, cards, code, and `fix`: how to mend
the move, `{}` when the rules do not tell) and `events`. `watch` yields a table's accepted moves,
and opens its stream again from the last version it gave when the referee or the connection
goes away (docs/api.md): every version once, in order.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import json_format, struct_pb2

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc as pb_grpc

TOKEN_HEADER = "x-seat-token"
CREATE_HEADER = "x-create-token"
LANGUAGE_HEADER = "accept-language"
TABLE_HEADER = "x-referee-table"  # every call of a table names it: a proxy routes on it

# Over a quota the referee answers RESOURCE_EXHAUSTED with the wait in `grpc-retry-pushback-ms`;
# gRPC's own retry policy waits that long and tries again (a refused call never reached the
# referee, and Propose carries a move_id, so trying again is safe).
RETRY_POLICY = {
    "methodConfig": [
        {
            "name": [{"service": "referee.v1.Referee"}],
            "retryPolicy": {
                "maxAttempts": 5,
                "initialBackoff": "0.05s",
                "maxBackoff": "2s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["RESOURCE_EXHAUSTED"],
            },
        }
    ]
}
# A referee that went away is tried again at least every 2 s (gRPC's own wait grows to 120 s), so
# that a client, and a watch resuming, finds a restarted process within 2 s of its return.
RECONNECT_AT_MOST_MS = 2000
CHANNEL_OPTIONS = (
    ("grpc.enable_retries", 1),
    ("grpc.service_config", json.dumps(RETRY_POLICY)),
    ("grpc.max_reconnect_backoff_ms", RECONNECT_AT_MOST_MS),
)

# A Watch stream that ends with one of these went away with its process or its connection: a
# referee stopping, a connection reset (UNAVAILABLE), or a proxy's stream whose process died,
# ended with no status at all (UNKNOWN; the referee's own failures are INTERNAL). Opened again
# from the last version seen, it goes on where it was, there or on another process.
RESUMABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN})
RESUME_ATTEMPTS = 10  # breaks in a row, no move between them, before `watch` gives up: ~7-13 s
RESUME_WAIT_S = (0.1, 2.0)  # the first wait before opening it again, and the longest
RESUME_LIVED_S = 60.0  # a stream open this long before it broke starts the count of breaks anew


@dataclass(frozen=True)
class TableHandle:
    id: str
    tokens: dict[int, str]
    commitment: str
    deal_commitment: str = ""  # sha256 of the referee's secret seed (docs/fair-deal.md)


def _struct(data: Mapping[str, Any] | None) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    if data:
        message.update(dict(data))
    return message


def _plain(value: Any) -> Any:
    """Struct numbers come back as floats: integral ones become ints again."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _data(message: struct_pb2.Struct) -> dict[str, Any]:
    data: dict[str, Any] = _plain(json_format.MessageToDict(message))
    return data


def _event(event: pb.Event) -> dict[str, Any]:
    """An event's fields, its `kind`, and its `text` for people (in the language asked for)."""
    return {"kind": event.kind, **_data(event.data), "text": event.text}


_STATES = {
    None: pb.TABLE_STATE_UNSPECIFIED,
    False: pb.TABLE_STATE_IN_PLAY,
    True: pb.TABLE_STATE_OVER,
}


def _table_summary(table: pb.TableSummary) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "table_id": table.table_id,
        "game": table.game,
        "seats": table.seats,
        "names": dict(table.names),
        "version": table.version,
        "over": table.over,
        "open_disputes": list(table.open_disputes),
        "created_at": table.created_at,
        "rules_version": table.rules_version,
    }
    if table.HasField("clock_due_ms"):
        summary["clock_due_ms"] = table.clock_due_ms
    return summary


def verdict_data(verdict: pb.Verdict) -> dict[str, Any]:
    outcome = pb.Outcome.Name(verdict.outcome).removeprefix("OUTCOME_").lower()
    return {
        "accepted": outcome == "accepted",
        "outcome": outcome,
        "version": verdict.version,
        "violations": [
            {
                "rule": v.rule,
                "message": v.message,
                "cites": list(v.cites),
                "cards": list(v.cards),
                "code": v.code,
                "fix": _data(v.fix),
                "hint": v.hint,
            }
            for v in verdict.violations
        ],
        "events": [_event(e) for e in verdict.events],
    }


class RefereeClient:
    """`tls_ca`: the server speaks TLS, its certificate chains to this CA (PEM bytes); with
    `tls_cert` and `tls_key` the client shows its own (mutual TLS). `create_token`: the
    operator's, when the server requires one to create tables. `language`: the languages to be
    answered in, as an `accept-language` value (`pt`, `tl, en;q=0.5`): verdicts and descriptions
    come in the first of them the game is written in, else in English."""

    def __init__(
        self,
        target: str,
        channel: grpc.Channel | None = None,
        *,
        tls_ca: bytes | None = None,
        tls_cert: bytes | None = None,
        tls_key: bytes | None = None,
        create_token: str | None = None,
        language: str | None = None,
    ) -> None:
        if channel is None and tls_ca is not None:
            credentials = grpc.ssl_channel_credentials(tls_ca, tls_key, tls_cert)
            channel = grpc.secure_channel(target, credentials, CHANNEL_OPTIONS)
        self.channel = channel or grpc.insecure_channel(target, CHANNEL_OPTIONS)
        self.stub = pb_grpc.RefereeStub(self.channel)
        self._language = ((LANGUAGE_HEADER, language),) if language else ()
        self._create_token = create_token
        self._create_metadata = self._with(CREATE_HEADER, create_token)
        self._closed = False  # a watch waiting to resume gives up

    def _with(self, key: str, value: str | None) -> tuple[tuple[str, str], ...]:
        """A call's metadata: the language asked for, and `key` when it has a value."""
        return self._language + (((key, value),) if value else ())

    def _of(
        self, table_id: str, metadata: tuple[tuple[str, str], ...]
    ) -> tuple[tuple[str, str], ...]:
        """`metadata` for a call about `table_id`, naming the table (the referee checks it is
        the request's; a proxy sends every call of a table to one process)."""
        return (((TABLE_HEADER, table_id),) if table_id else ()) + metadata

    def close(self) -> None:
        self._closed = True
        self.channel.close()

    def __enter__(self) -> RefereeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def games(self) -> list[str]:
        return [
            g.name
            for g in self.stub.ListGames(pb.ListGamesRequest(), metadata=self._language).games
        ]

    def describe(self, game: str) -> dict[str, Any]:
        reply = self.stub.DescribeGame(pb.DescribeGameRequest(game=game), metadata=self._language)
        return _data(reply.description)

    def create_table(
        self,
        game: str,
        seats: int,
        *,
        seed: int | None = None,
        deal: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        dealer: int = 0,
        scores: Mapping[int, int] | None = None,
        balances: Mapping[int, int] | None = None,
        entropy: str | None = None,
        names: Mapping[int, str] | None = None,
    ) -> TableHandle:
        """A new table; `names`: display names by seat (labels shown in views and records,
        at most 40 printable characters each: never an identity, the tokens are)."""
        request = pb.CreateTableRequest(
            game=game,
            seats=seats,
            dealer=dealer,
            options=_struct(options),
            scores=dict(scores or {}),
            balances=dict(balances or {}),
            names=dict(names or {}),
        )
        if seed is not None:
            request.seed = seed
        if deal is not None:
            request.deal.CopyFrom(_struct(deal))
        if entropy is not None:
            request.entropy = entropy
        reply = self.stub.CreateTable(request, metadata=self._create_metadata)
        return TableHandle(
            reply.table_id,
            {s.seat: s.token for s in reply.seats},
            reply.commitment,
            reply.deal_commitment,
        )

    def propose(
        self,
        table_id: str,
        token: str,
        move: Mapping[str, Any],
        *,
        move_id: str | None = None,
        expected_version: int | None = None,
    ) -> dict[str, Any]:
        body = dict(move)
        request = pb.ProposeRequest(
            table_id=table_id,
            move_id=move_id or uuid.uuid4().hex,
            move=pb.Move(type=str(body.pop("type", "")), fields=_struct(body)),
        )
        if expected_version is not None:
            request.expected_version = expected_version
        reply = self.stub.Propose(
            request, metadata=self._of(table_id, self._with(TOKEN_HEADER, token))
        )
        return verdict_data(reply.verdict)

    def view(
        self, table_id: str, token: str | None = None, *, director: bool = False
    ) -> dict[str, Any]:
        """`token`'s seat view, the public one without a token; with `director`, the director's
        (every card: it needs the operator's create token)."""
        metadata = self._with(TOKEN_HEADER, token) + (self._operator() if director else ())
        reply = self.stub.GetView(
            pb.GetViewRequest(table_id=table_id), metadata=self._of(table_id, metadata)
        )
        return {**_data(reply.view), "version": reply.version, "rules_version": reply.rules_version}

    def rule(
        self,
        table_id: str,
        dispute: int,
        decision: str,
        note: str,
        *,
        to: int | None = None,
        seat: int | None = None,
        amount: int | None = None,
        tally: str | None = None,
        ruling_id: str | None = None,
    ) -> dict[str, Any]:
        """The director's ruling on dispute `dispute` (docs/disputes.md): `uphold`, `rewind`
        (`to` a version before the move disputed) or `adjust` (`seat`'s `tally`, `score` or
        `chips`, by `amount`); `note` is shown to every seat. Needs the operator's create token."""
        request = pb.RuleRequest(
            table_id=table_id, dispute=dispute, note=note, ruling_id=ruling_id or uuid.uuid4().hex
        )
        if decision == "uphold":
            request.uphold.SetInParent()
        elif decision == "rewind":
            request.rewind.to = int(to or 0)
        elif decision == "adjust":
            request.adjust.CopyFrom(
                pb.Adjust(seat=seat or 0, amount=amount or 0, tally=tally or "")
            )
        else:
            raise ValueError(f"a decision is `uphold`, `rewind` or `adjust`, not `{decision}`")
        reply = self.stub.Rule(
            request, metadata=self._of(table_id, self._language + self._operator())
        )
        return verdict_data(reply.verdict)

    def list_tables(
        self,
        *,
        game: str = "",
        over: bool | None = None,
        open_disputes: bool | None = None,
        clock_running: bool | None = None,
        page_size: int = 0,
        page_token: str = "",
    ) -> tuple[list[dict[str, Any]], str]:
        """One page of the lobby, newest first (the operator's: needs the create token): the
        tables for which every filter given holds, each a dict (`table_id`, `game`, `seats`,
        `names`, `version`, `over`, `open_disputes`, `clock_due_ms` when a clock runs,
        `created_at`, `rules_version`), and the next page's token ("": the last page)."""
        request = pb.ListTablesRequest(
            game=game, page_size=page_size, page_token=page_token, state=_STATES[over]
        )
        if open_disputes is not None:
            request.open_disputes = open_disputes
        if clock_running is not None:
            request.clock_running = clock_running
        reply = self.stub.ListTables(request, metadata=self._operator())
        return [_table_summary(t) for t in reply.tables], reply.next_page_token

    def all_tables(self, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every table `list_tables` gives with `filters`, page after page."""
        token = ""
        while True:
            page, token = self.list_tables(**filters, page_token=token)
            yield from page
            if not token:
                return

    def reissue_seat(self, table_id: str, seat: int) -> str:
        """A new secret token for `seat` (a player lost theirs): the old one is refused from
        now on. The operator's: needs the create token."""
        request = pb.ReissueSeatRequest(table_id=table_id, seat=seat)
        reply = self.stub.ReissueSeat(request, metadata=self._of(table_id, self._operator()))
        return str(reply.seat.token)

    def _operator(self) -> tuple[tuple[str, str], ...]:
        """The operator's create token, which makes a call the director's."""
        return ((CREATE_HEADER, self._create_token),) if self._create_token else ()

    def record(self, table_id: str, token: str | None = None) -> str:
        """The table's signed game record, as its text (docs/records.md): the full one once the
        table is over (or for the operator's create token), else what `token`'s seat may see."""
        metadata = self._with(TOKEN_HEADER, token) + self._operator()
        reply = self.stub.GetRecord(
            pb.GetRecordRequest(table_id=table_id), metadata=self._of(table_id, metadata)
        )
        return str(reply.record)

    def explain(
        self,
        table_id: str,
        token: str | None = None,
        *,
        version: int | None = None,
        move_id: str | None = None,
    ) -> dict[str, Any]:
        """Why a past proposal got its verdict (docs/explain.md): the accepted move that made
        `version`, or the proposal sent with `move_id`. `token`'s seat sees its own proposals'
        values, cut to what it saw; anyone else an accepted move's outcomes; the operator's
        create token, everything. `text` is the explanation in the client's language."""
        request = pb.ExplainRequest(table_id=table_id)
        if version is not None:
            request.version = version
        if move_id is not None:
            request.move_id = move_id
        reply = self.stub.Explain(
            request, metadata=self._of(table_id, self._with(TOKEN_HEADER, token) + self._operator())
        )
        return {
            "seat": reply.seat,
            "verdict": verdict_data(reply.verdict),
            "judged_at": reply.judged_at,
            "shown": reply.shown,
            "judged": [
                {
                    "checkpoint": j.checkpoint,
                    "at": j.at,
                    "role": j.role,
                    "rules": [
                        {"rule": r.rule, "outcome": r.outcome, "reads": _data(r.reads)}
                        for r in j.rules
                    ],
                }
                for j in reply.judged
            ],
            "text": list(reply.text),
        }

    def signing_key(self) -> str:
        """The referee's public key (Ed25519, hex): what its records are signed with."""
        reply = self.stub.GetSigningKey(pb.GetSigningKeyRequest(), metadata=self._language)
        return str(reply.public_key)

    def watch(
        self,
        table_id: str,
        token: str | None = None,
        from_version: int = 0,
        *,
        director: bool = False,
        resume: int = RESUME_ATTEMPTS,
        on_resume: Callable[[grpc.RpcError], None] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Each accepted move's events after `from_version`, as `token`'s seat sees them (a
        spectator without one; every event whole with `director`). `seat` is -2 for the table's
        own moves (a deadline passed), -1 for the director's rulings. It ends when the table is
        over. A stream broken by its process or connection going away (UNAVAILABLE, or UNKNOWN:
        a proxy's stream whose process died) is opened again from the last version given, after
        a short wait (0.1 s doubling to 2 s, jittered), `on_resume` told first: every version
        comes once, in order. `resume` breaks in a row with no move between them are borne (0:
        none; a stream that was open a minute before it broke starts the count again: a quiet
        table's stream cut by a proxy's timeout), the next one raised, as is a break while the
        client closes; any other status is raised at once."""
        metadata = self._of(
            table_id, self._with(TOKEN_HEADER, token) + (self._operator() if director else ())
        )
        version, breaks = from_version, 0
        while True:
            stream = self.stub.Watch(
                pb.WatchRequest(table_id=table_id, from_version=version), metadata=metadata
            )
            opened = time.monotonic()
            try:
                for update in stream:
                    version, breaks = update.version, 0
                    yield _update(update)
                return
            except grpc.RpcError as error:
                if time.monotonic() - opened >= RESUME_LIVED_S:
                    breaks = 0
                if error.code() not in RESUMABLE or breaks >= resume or self._closed:
                    raise
                breaks += 1
                if on_resume is not None:
                    on_resume(error)
                time.sleep(_resume_wait(breaks))
                if self._closed:  # while it waited
                    raise
            finally:  # the caller left early: the referee stops queueing for it
                stream.cancel()


def _update(update: pb.WatchResponse) -> dict[str, Any]:
    return {
        "version": update.version,
        "seat": update.seat,
        "events": [_event(e) for e in update.events],
    }


def _resume_wait(breaks: int) -> float:
    """Seconds to wait before opening a stream again after `breaks` breaks in a row: doubling
    from the first wait to the longest, each between its half and itself (watchers of one
    process do not all come back at once)."""
    longest = min(RESUME_WAIT_S[1], RESUME_WAIT_S[0] * 2 ** (breaks - 1))
    return random.uniform(longest / 2, longest)
