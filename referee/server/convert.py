"""Proto messages <-> domain data. No decisions here: only shapes.

`google.protobuf.Struct` carries JSON, so its numbers are doubles and its keys strings. Coming in,
integral numbers become ints (`meld: 1.0` is meld 1; beyond the 64-bit range they stay doubles,
`referee.bounds`) and decimal keys become seat numbers (`hands: {"1": [...]}`); going out, seat
keys become strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf import struct_pb2

from referee.api.v1 import referee_pb2 as pb
from referee.bounds import check_numbers, is_beyond_int64
from referee.errors import InvalidArgument
from referee.model import JSON, Move, Outcome, Violation
from referee.service import Ruling, SeatView, SeenMove
from referee.service.explanations import Explained
from referee.service.lobby import Page, TableEntry
from referee.store.base import TableFilter
from referee.store.codec import restore_key

OUTCOMES = {
    Outcome.ACCEPTED: pb.OUTCOME_ACCEPTED,
    Outcome.REJECTED: pb.OUTCOME_REJECTED,
    Outcome.PENDING: pb.OUTCOME_PENDING,
}

# -- Struct <-> data ---------------------------------------------------------------------------


def struct_to_data(struct: struct_pb2.Struct) -> dict[str | int, JSON]:
    return {restore_key(k): value_to_data(v) for k, v in struct.fields.items()}


def value_to_data(value: struct_pb2.Value) -> JSON:
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        return struct_to_data(value.struct_value)
    if kind == "list_value":
        return [value_to_data(v) for v in value.list_value.values]
    if kind == "number_value":
        number = value.number_value
        return int(number) if number.is_integer() and not is_beyond_int64(number) else number
    if kind in ("string_value", "bool_value"):
        return getattr(value, kind)
    return None  # null_value, or a Value with nothing set


def data_to_struct(data: Mapping[Any, JSON]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    for key, item in data.items():
        _set_value(struct.fields[str(key)], item)
    return struct


def _set_value(target: struct_pb2.Value, data: JSON) -> None:
    if data is None:
        target.null_value = struct_pb2.NULL_VALUE
    elif isinstance(data, bool):  # before int: a bool is an int in Python
        target.bool_value = data
    elif isinstance(data, (int, float)):
        target.number_value = data
    elif isinstance(data, str):
        target.string_value = data
    elif isinstance(data, Mapping):
        target.struct_value.CopyFrom(data_to_struct(data))
    elif isinstance(data, (list, tuple, set, frozenset)):
        items = sorted(data) if isinstance(data, (set, frozenset)) else data
        target.list_value.SetInParent()
        for item in items:
            _set_value(target.list_value.values.add(), item)
    else:
        raise TypeError(f"cannot send {type(data).__name__} as json")


# -- requests ----------------------------------------------------------------------------------


def move_from_proto(move: pb.Move) -> Move:
    """The move as the engine reads it. An unreadable move (no type, an unknown one, a missing
    field) is the engine's to judge: a rejected verdict, as in-process."""
    fields = struct_to_data(move.fields)
    if "type" in fields:  # it would overwrite the move's type in `Move.to_data()`
        raise InvalidArgument("`type` is not a move field: set `move.type`")
    return Move(move.type, {str(name): value for name, value in fields.items()})


def ruling_from_proto(request: pb.RuleRequest) -> Move:
    """A RuleRequest as the move `ruling` the table reads (`referee.engine.rulings`)."""
    decision = request.WhichOneof("decision")
    if decision is None:
        raise InvalidArgument("a ruling needs a decision: `uphold`, `rewind` or `adjust`")
    fields: dict[str, JSON] = {
        "dispute": request.dispute,
        "decision": decision,
        "note": request.note,
    }
    if decision == "rewind":
        fields["to"] = request.rewind.to
    elif decision == "adjust":
        adjust = request.adjust
        fields.update(seat=adjust.seat, amount=adjust.amount, tally=adjust.tally)
    return Move("ruling", fields)


def create_table_args(request: pb.CreateTableRequest) -> dict[str, Any]:
    options = struct_to_data(request.options)
    deal = struct_to_data(request.deal) if request.HasField("deal") else None
    check_numbers(options, "options")
    check_numbers(deal, "deal")
    return {
        "options": options,
        "seats": request.seats,
        "dealer": request.dealer,
        "seed": request.seed if request.HasField("seed") else None,
        "deal": deal,
        "scores": dict(request.scores) or None,
        "balances": dict(request.balances) or None,
        "entropy": request.entropy if request.HasField("entropy") else None,
        "names": dict(request.names) or None,
    }


STATES = {pb.TABLE_STATE_IN_PLAY: False, pb.TABLE_STATE_OVER: True}  # over?


def table_filter(request: pb.ListTablesRequest) -> TableFilter:
    """The lobby's filters as the store reads them (an unset one asks for nothing)."""
    if request.state != pb.TABLE_STATE_UNSPECIFIED and request.state not in STATES:
        raise InvalidArgument(f"unknown `state` `{request.state}`: `IN_PLAY` or `OVER`")
    return TableFilter(
        game=request.game or None,
        over=STATES.get(request.state),
        open_disputes=optional(request, "open_disputes"),
        clock_running=optional(request, "clock_running"),
    )


def optional(message: Any, name: str) -> Any:
    """The value of a proto3 `optional` field, None when unset."""
    return getattr(message, name) if message.HasField(name) else None


# -- responses ---------------------------------------------------------------------------------


def lobby_to_proto(page: Page) -> pb.ListTablesResponse:
    return pb.ListTablesResponse(
        tables=[table_summary(entry) for entry in page.tables],
        next_page_token=page.next_page_token,
    )


def table_summary(entry: TableEntry) -> pb.TableSummary:
    return pb.TableSummary(
        table_id=entry.table_id,
        game=entry.game,
        seats=entry.seats,
        names=dict(entry.names),
        version=entry.version,
        over=entry.over,
        open_disputes=list(entry.open_disputes),
        clock_due_ms=entry.clock_due_ms,
        created_at=entry.created_at,
        rules_version=entry.rules_version,
    )


def game_summary(description: Mapping[str, JSON]) -> pb.GameSummary:
    seats = description.get("seats") or {}
    return pb.GameSummary(
        name=description["name"],
        title=str(description["title_sentence"]),
        min_seats=int(seats.get("min", 0)),
        max_seats=int(seats.get("max", 0)),
    )


def event_to_proto(event: Mapping[str, JSON], text: str = "") -> pb.Event:
    """An event as `Event.seen_by` gives it: its `kind` and the fields the receiver may see."""
    data = {k: v for k, v in event.items() if k != "kind"}
    return pb.Event(kind=str(event["kind"]), data=data_to_struct(data), text=text)


def events_to_proto(events: list[dict[str, JSON]], texts: list[str]) -> list[pb.Event]:
    told = texts or [""] * len(events)
    return [event_to_proto(event, text) for event, text in zip(events, told, strict=True)]


def violation_to_proto(violation: Violation | Mapping[str, JSON]) -> pb.Violation:
    if not isinstance(violation, Violation):
        violation = Violation.from_data(violation)
    message = pb.Violation(
        rule=violation.rule,
        message=violation.message,
        cites=violation.cites,
        cards=violation.cards,
        code=violation.code,
        hint=violation.hint,
    )
    if violation.fix:
        message.fix.CopyFrom(data_to_struct(violation.fix))
    return message


def verdict_to_proto(ruling: Ruling) -> pb.Verdict:
    verdict = ruling.verdict
    return pb.Verdict(
        outcome=OUTCOMES[verdict.outcome],
        violations=[violation_to_proto(v) for v in verdict.violations],
        events=events_to_proto(ruling.events, ruling.texts),
        version=verdict.version,
        move_id=ruling.move_id,
        seat=ruling.seat,
    )


def explanation_to_proto(explained: Explained) -> pb.ExplainResponse:
    verdict = explained.verdict
    return pb.ExplainResponse(
        seat=explained.seat,
        move=move_to_proto(explained.move),
        verdict=pb.Verdict(
            outcome=OUTCOMES[verdict.outcome],
            violations=[violation_to_proto(v) for v in verdict.violations],
            version=verdict.version,
            seat=explained.seat,
        ),
        judged_at=explained.judged_at,
        judged=[
            pb.Judged(
                checkpoint=j.checkpoint,
                at=j.at,
                role=j.role,
                rules=[
                    pb.RuleOutcome(rule=r.rule, outcome=r.outcome, reads=data_to_struct(r.reads))
                    for r in j.rules
                ],
            )
            for j in explained.judgements
        ],
        shown=explained.shown.value,
        text=explained.text,
    )


def view_to_proto(view: SeatView) -> pb.GetViewResponse:
    return pb.GetViewResponse(
        view=data_to_struct(view.view),
        version=view.version,
        seat=view.seat,
        commitment=view.commitment,
        over=view.over,
        rules_version=view.rules_version,
    )


def seen_move_to_proto(seen: SeenMove) -> pb.WatchResponse:
    return pb.WatchResponse(
        version=seen.version, seat=seen.seat, events=events_to_proto(seen.events, seen.texts)
    )


def move_to_proto(move: Move | Mapping[str, JSON]) -> pb.Move:
    if not isinstance(move, Move):
        move = Move.from_data(move)
    return pb.Move(type=move.type, fields=data_to_struct(move.fields))


def adjudication_to_proto(report: Mapping[str, JSON]) -> pb.AdjudicateResponse:
    """`referee.adjudication.replay.adjudicate`'s report: legal, step, seat, move, violations, moves,
    result."""
    response = pb.AdjudicateResponse(
        legal=bool(report["legal"]),
        step=report.get("step"),
        seat=report.get("seat"),
        moves=int(report.get("moves", 0)),
        violations=[violation_to_proto(v) for v in report.get("violations") or ()],
        result=data_to_struct(report.get("result") or {}),
    )
    if report.get("move") is not None:
        response.move.CopyFrom(move_to_proto(report["move"]))
    return response
