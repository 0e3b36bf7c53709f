"""An HTTP request as the method's request message, and an answer as JSON, by the proto3 JSON
mapping (`json_format`): field names as in the proto (`table_id`; the lowerCamelCase names are
read too), int64 numbers as numbers (the API keeps every number within 2^53).

Where a field comes from follows `google.api.http`: the path's variables first; then with
`body: "*"` the JSON body is the whole message, with `body: "field"` that field, and with no body
the query string fills the fields (`?from_version=3`, repeated fields by repeating the key, a
nested field by its dotted path). Anything that does not fit the message, an unknown field or a
value of the wrong type, a number beyond the 64-bit range (`referee.bounds`), is an
`InvalidArgument`, as bytes that are not the message are over gRPC.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf import descriptor, json_format, message, message_factory

from referee.bounds import check_numbers
from referee.errors import InvalidArgument, shortened
from referee.web.routes import Route

MAX_QUOTED = 200  # characters of a parse error quoted back


def request_message(
    route: Route, variables: Mapping[str, str], query: Iterable[tuple[str, str]], body: bytes
) -> message.Message:
    """The request message of `route`'s method for this request."""
    kind = route.method.input_type
    data: dict[str, Any] = {}
    if route.body == "*":
        data = _json_object(body)
    elif route.body:
        data = {route.body: _json(body)} if body.strip() else {}
    elif body.strip():
        raise InvalidArgument(f"`{route.verb} {route.path}` takes no body")
    else:
        for name, value in query:
            _set(data, kind, name, value, from_query=True)
    for index, path in enumerate(route.variables):
        _set(data, kind, path, variables[f"p{index}"], from_query=False)
    check_numbers(data)  # a Struct's double would not hold them, nor an int64 field
    request = message_factory.GetMessageClass(kind)()
    try:
        json_format.ParseDict(data, request)
    except (json_format.ParseError, TypeError, ValueError, RecursionError) as problem:
        raise InvalidArgument(
            f"the request is not a valid `{kind.name}`: {shortened(str(problem), MAX_QUOTED)}"
        ) from None
    return request


def answer_data(answer: message.Message) -> dict[str, Any]:
    """An answer message as JSON data: every field, defaults included (`over: false`)."""
    data = json_format.MessageToDict(
        answer,
        always_print_fields_with_no_presence=True,
        preserving_proto_field_name=True,
        unquote_int64_if_possible=True,
    )
    return _integral(data)  # type: ignore[no-any-return]


def _integral(value: Any) -> Any:
    """Struct numbers are doubles: `3.0` reads `3`, as the referee reads them (the proto says)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integral(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral(item) for item in value]
    return value


def _json(body: bytes) -> Any:
    try:
        return json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as problem:  # UnicodeDecodeError is a ValueError
        raise InvalidArgument(
            f"the body is not JSON: {shortened(str(problem), MAX_QUOTED)}"
        ) from None


def _json_object(body: bytes) -> dict[str, Any]:
    if not body.strip():
        return {}
    data = _json(body)
    if not isinstance(data, dict):
        raise InvalidArgument("the body is not a JSON object")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"`{name}` is not a JSON number")


def _set(
    data: dict[str, Any], kind: descriptor.Descriptor, path: str, value: str, *, from_query: bool
) -> None:
    """`data[path] = value` for a dotted field path of `kind`, typed by the field."""
    *parents, last = path.split(".")
    for name in parents:
        field = _field(kind, name, path)
        if field.message_type is None or _is_repeated(field):
            raise InvalidArgument(f"`{path}` is not a field of `{kind.name}`")
        kind = field.message_type
        inner = data.setdefault(field.name, {})
        if not isinstance(inner, dict):
            raise InvalidArgument(f"`{path}` is given twice")
        data = inner
    field = _field(kind, last, path)
    typed = _typed(field, value)
    if _is_repeated(field) and from_query:
        data.setdefault(field.name, []).append(typed)
    elif field.name in data and from_query:
        raise InvalidArgument(f"`{path}` is given twice")
    else:
        data[field.name] = typed


def _field(kind: descriptor.Descriptor, name: str, path: str) -> descriptor.FieldDescriptor:
    field = kind.fields_by_name.get(name) or kind.fields_by_camelcase_name.get(name)
    if field is None:
        raise InvalidArgument(f"`{shortened(path, MAX_QUOTED)}` is not a field of `{kind.name}`")
    return field


def _is_repeated(field: descriptor.FieldDescriptor) -> bool:
    return bool(field.is_repeated)


def _typed(field: descriptor.FieldDescriptor, value: str) -> Any:
    """A query or path value as JSON would give it: `true` for a bool, the text for the rest
    (json_format reads numbers from their text, and checks them)."""
    if field.type == descriptor.FieldDescriptor.TYPE_BOOL:
        if value not in ("true", "false"):
            raise InvalidArgument(f"`{field.name}` is true or false, not `{shortened(value, 40)}`")
        return value == "true"
    if field.message_type is not None:
        raise InvalidArgument(f"`{field.name}` cannot be given in the query or path")
    return value
