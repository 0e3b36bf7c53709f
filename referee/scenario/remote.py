"""A `Target` that runs scenarios against a running referee over gRPC (`referee.v1.Referee`).

The runner holds every seat's token (CreateTable returns one per seat), so it proposes each move
as its seat and builds the full view a `check` needs from the seats' own views: each seat's hand
from that seat's view, the public fields from any of them. No superuser view is needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import json_format, struct_pb2

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc as pb_grpc
from referee.engine import reissues
from referee.errors import InvalidArgument, NotFound, RefereeError
from referee.model import ADJUDICATOR, DIRECTOR, JSON, Move, Outcome, Verdict, Violation
from referee.scenario.fields import integral
from referee.scenario.format import Setup
from referee.scenario.target import CannotRun, scenario_seed
from referee_client.client import CHANNEL_OPTIONS  # the retry policy every client should use

TOKEN_KEY = "x-seat-token"  # the seat the call acts for
TABLE_KEY = "x-referee-table"  # the table the call is about: a proxy routes on it
# the operator's, when the server asks for one (`serve --create-token`)
CREATE_KEY = "x-create-token"
OUTCOMES = {
    pb.OUTCOME_ACCEPTED: Outcome.ACCEPTED,
    pb.OUTCOME_REJECTED: Outcome.REJECTED,
    pb.OUTCOME_PENDING: Outcome.PENDING,
}


class TargetError(RefereeError):
    """The server answered with a gRPC error status (not a verdict)."""

    code = "target_error"


@dataclass(frozen=True)
class RemoteTable:
    table_id: str
    tokens: dict[int, str]  # a reissued seat's is replaced


def _struct(data: Mapping[str, JSON]) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    message.update(_text_keys(data))
    return message


def _text_keys(data: Any) -> Any:
    """Struct keys are text: seat keys `{0: [...]}` become `{"0": [...]}`."""
    if isinstance(data, Mapping):
        return {str(k): _text_keys(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_text_keys(v) for v in data]
    return data


def _data(message: struct_pb2.Struct) -> dict[str, JSON]:
    data: dict[str, JSON] = integral(json_format.MessageToDict(message))
    return data


def _error(exc: grpc.RpcError) -> RefereeError:
    status, details = exc.code(), exc.details() or ""
    if status is grpc.StatusCode.INVALID_ARGUMENT:
        return InvalidArgument(details)
    if status is grpc.StatusCode.NOT_FOUND:
        return NotFound(details)
    return TargetError(f"{status.name.lower()}: {details}")


def create_request(setup: Setup) -> pb.CreateTableRequest:
    request = pb.CreateTableRequest(
        game=setup.game,
        seats=setup.seats,
        dealer=setup.dealer,
        options=_struct(setup.options),
        scores=dict(setup.scores or {}),
        balances=dict(setup.balances or {}),
        names=dict(setup.names or {}),
    )
    if setup.deal is not None:
        request.deal.CopyFrom(_struct(setup.deal))
    if setup.secret is not None:
        raise CannotRun(
            "a record of a fair table (`secret`) replays in process only: "
            "CreateTable takes no secret"
        )
    seed = scenario_seed(setup)
    if seed is not None:
        request.seed = seed
    if setup.entropy is not None:
        request.entropy = setup.entropy
    return request


def verdict_of(message: pb.Verdict) -> Verdict:
    violations = tuple(
        Violation(
            rule=v.rule,
            message=v.message,
            cites=tuple(v.cites),
            cards=tuple(v.cards),
            code=v.code or "rule_broken",
            fix=_data(v.fix),
        )
        for v in message.violations
    )
    outcome = OUTCOMES.get(message.outcome)
    if outcome is None:
        raise TargetError(f"a verdict without an outcome: `{message.outcome}`")
    return Verdict(outcome, violations, (), message.version)


class GrpcTarget:
    """Tables on a referee server; the handle holds the table id and every seat's token."""

    def __init__(
        self, channel: grpc.Channel, timeout: float = 10.0, *, create_token: str | None = None
    ) -> None:
        self.channel, self.timeout = channel, timeout
        self.stub = pb_grpc.RefereeStub(channel)
        self._create_token = create_token

    @classmethod
    def connect(
        cls,
        address: str,
        wait: float = 5.0,
        *,
        tls_ca: bytes | None = None,
        create_token: str | None = None,
    ) -> GrpcTarget:
        """A target at `address` (`host:port`), once its channel is ready (TargetError if not);
        over TLS when `tls_ca` (PEM) is given, the CA the server's certificate must chain to."""
        channel = (
            grpc.secure_channel(address, grpc.ssl_channel_credentials(tls_ca), CHANNEL_OPTIONS)
            if tls_ca
            else grpc.insecure_channel(address, CHANNEL_OPTIONS)
        )
        try:
            grpc.channel_ready_future(channel).result(timeout=wait)
        except grpc.FutureTimeoutError:
            channel.close()
            raise TargetError(f"cannot reach a referee at `{address}` within {wait:g} s") from None
        return cls(channel, create_token=create_token)

    def _call(
        self, method: Any, request: Any, token: str | None = None, header: str = TOKEN_KEY
    ) -> Any:
        metadata = _naming_its_table(request) + (((header, token),) if token else ())
        try:
            return method(request, metadata=metadata, timeout=self.timeout)
        except grpc.RpcError as exc:
            raise _error(exc) from exc

    def create_table(self, setup: Setup) -> RemoteTable:
        answer = self._call(
            self.stub.CreateTable, create_request(setup), self._create_token, CREATE_KEY
        )
        return RemoteTable(answer.table_id, {s.seat: s.token for s in answer.seats})

    def propose(self, handle: RemoteTable, seat: int, move: Move) -> Verdict:
        if seat == DIRECTOR:
            return self._rule(handle, move)
        request = pb.ProposeRequest(
            table_id=handle.table_id,
            seat=seat,
            move=pb.Move(type=move.type, fields=_struct(move.fields)),
        )
        answer = self._call(self.stub.Propose, request, handle.tokens[seat])
        return verdict_of(answer.verdict)

    def _rule(self, handle: RemoteTable, move: Move) -> Verdict:
        """The director's step: `Rule`, as the operator (its create token)."""
        if self._create_token is None:
            raise CannotRun("a director's step needs the target's create token (the operator's)")
        if move.type == reissues.REISSUE:
            return self._reissue(handle, move)
        request = rule_request(handle.table_id, move)
        answer = self._call(self.stub.Rule, request, self._create_token, CREATE_KEY)
        return verdict_of(answer.verdict)

    def _reissue(self, handle: RemoteTable, move: Move) -> Verdict:
        """The director's step `reissue`: `ReissueSeat`, the seat's new token kept to play on.
        A step the table would refuse (no such seat) is refused here as the table refuses it:
        ReissueSeat takes a seat number, not a move to judge."""
        seat = reissues.read_reissue(move, len(handle.tokens))
        if isinstance(seat, Violation):
            return Verdict.reject(seat, version=self._version(handle))
        request = pb.ReissueSeatRequest(table_id=handle.table_id, seat=seat)
        answer = self._call(self.stub.ReissueSeat, request, self._create_token, CREATE_KEY)
        handle.tokens[seat] = answer.seat.token
        return Verdict(Outcome.ACCEPTED, (), (reissues.reissued(seat),), self._version(handle))

    def _version(self, handle: RemoteTable) -> int:
        view = self._call(self.stub.GetView, pb.GetViewRequest(table_id=handle.table_id))
        return int(view.version)

    def view(self, handle: RemoteTable, seat: int = ADJUDICATOR) -> dict[str, JSON]:
        if seat != ADJUDICATOR:
            return self._seat_view(handle, seat)
        views = {s: self._seat_view(handle, s) for s in sorted(handle.tokens)}
        return merge_views(views)

    def _seat_view(self, handle: RemoteTable, seat: int) -> dict[str, JSON]:
        request = pb.GetViewRequest(table_id=handle.table_id, seat=seat)
        return _data(self._call(self.stub.GetView, request, handle.tokens[seat]).view)

    def close_window(self, handle: RemoteTable) -> None:
        raise CannotRun("`close_window` is not supported against a server: its clock decides")

    def close(self) -> None:
        self.channel.close()


def _naming_its_table(request: Any) -> tuple[tuple[str, str], ...]:
    """The header naming the table `request` is about (the referee checks it is the same)."""
    table_id = getattr(request, "table_id", "")
    return ((TABLE_KEY, table_id),) if table_id else ()


def rule_request(table_id: str, move: Move) -> pb.RuleRequest:
    """A ruling move as the typed request `Rule` takes (a field of the wrong type is sent as
    its neutral value: the server judges what it is given)."""
    fields = move.fields

    def number(name: str) -> int:
        value = fields.get(name)
        return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0

    request = pb.RuleRequest(
        table_id=table_id, dispute=number("dispute"), note=str(fields.get("note", ""))
    )
    decision = fields.get("decision")
    if decision == "uphold":
        request.uphold.SetInParent()
    elif decision == "rewind":
        request.rewind.to = number("to")
    elif decision == "adjust":
        adjust = pb.Adjust(
            seat=number("seat"), amount=number("amount"), tally=str(fields.get("tally", ""))
        )
        request.adjust.CopyFrom(adjust)
    return request


def merge_views(views: Mapping[int, dict[str, JSON]]) -> dict[str, JSON]:
    """A full view from every seat's own: public fields from the first, each hand from its seat."""
    first = dict(views[min(views)])
    first.pop("hand", None)
    first["hands"] = {str(seat): view.get("hand") for seat, view in views.items()}
    return first
