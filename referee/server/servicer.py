"""The gRPC servicer: convert the request, call the service, convert the answer. Nothing else.

Seats authenticate with the token CreateTable gave them, sent as request metadata `x-seat-token`.
"""

from __future__ import annotations

import time
from typing import Iterator

import grpc

from referee.api.v1 import referee_pb2 as pb
from referee.api.v1 import referee_pb2_grpc
from referee.server import convert
from referee.server.logging import log_verdict
from referee.server.status import guarded
from referee.service import RefereeService

TOKEN_HEADER = "x-seat-token"


def seat_token(context: grpc.ServicerContext) -> str | None:
    for key, value in context.invocation_metadata():
        if key == TOKEN_HEADER:
            return str(value)
    return None


class RefereeServicer(referee_pb2_grpc.RefereeServicer):
    def __init__(self, service: RefereeService) -> None:
        self._service = service

    @guarded
    def ListGames(self, request: pb.ListGamesRequest,
                  context: grpc.ServicerContext) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(games=[convert.game_summary(d)
                                           for d in self._service.list_games()])

    @guarded
    def DescribeGame(self, request: pb.DescribeGameRequest,
                     context: grpc.ServicerContext) -> pb.DescribeGameResponse:
        description = self._service.describe_game(request.game)
        return pb.DescribeGameResponse(name=description["name"],
                                       description=convert.data_to_struct(description))

    @guarded
    def CreateTable(self, request: pb.CreateTableRequest,
                    context: grpc.ServicerContext) -> pb.CreateTableResponse:
        created = self._service.create_table(request.game, **convert.create_table_args(request))
        return pb.CreateTableResponse(
            table_id=created.table_id, commitment=created.commitment, version=created.version,
            seats=[pb.SeatToken(seat=s, token=t) for s, t in sorted(created.tokens.items())])

    @guarded
    def Propose(self, request: pb.ProposeRequest,
                context: grpc.ServicerContext) -> pb.ProposeResponse:
        started = time.perf_counter()
        move = convert.move_from_proto(request.move)
        ruling = self._service.propose(
            request.table_id, seat_token(context), move, move_id=request.move_id,
            expected_version=convert.optional(request, "expected_version"),
            seat=convert.optional(request, "seat"))
        log_verdict(request.table_id, move.type, ruling, time.perf_counter() - started)
        return pb.ProposeResponse(verdict=convert.verdict_to_proto(ruling))

    @guarded
    def GetView(self, request: pb.GetViewRequest,
                context: grpc.ServicerContext) -> pb.GetViewResponse:
        view = self._service.view(request.table_id, seat_token(context),
                                  seat=convert.optional(request, "seat"))
        return convert.view_to_proto(view)

    @guarded
    def Watch(self, request: pb.WatchRequest,
              context: grpc.ServicerContext) -> Iterator[pb.WatchResponse]:
        subscription = self._service.watch(request.table_id, seat_token(context),
                                           from_version=request.from_version)
        # a client that goes away must not leave this worker thread waiting for the next move
        if not context.add_callback(subscription.cancel):
            subscription.cancel()
        for seen in subscription:
            yield convert.seen_move_to_proto(seen)

    @guarded
    def Adjudicate(self, request: pb.AdjudicateRequest,
                   context: grpc.ServicerContext) -> pb.AdjudicateResponse:
        if request.WhichOneof("record") == "record_yaml":
            report = self._service.adjudicate_yaml(request.record_yaml)
        else:
            report = self._service.adjudicate(convert.struct_to_data(request.record_data))
        return convert.adjudication_to_proto(report)
