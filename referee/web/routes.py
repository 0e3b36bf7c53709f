"""The HTTP routes of the API, read from the proto: each method's `google.api.http` option.

A method annotated with `option (google.api.http) = {post: "/v1/tables/{table_id}/moves" body:
"*"}` is served at that verb and path with no code of its own: the path's variables, the body
and the query string fill its request message (`messages.py`). Path templates take literal
segments and `{field}` or `{field.sub}` variables, one segment each: a template this gateway
cannot serve is refused when the routes are read, not at a request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from google.api import annotations_pb2, http_pb2
from google.protobuf import descriptor

from referee.calls.wire import SERVICE

VERBS = ("get", "put", "post", "delete", "patch")
_VARIABLE = re.compile(r"^\{([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\}$")
_LITERAL = re.compile(r"^[A-Za-z0-9_.~-]+$")


class UnsupportedRoute(ValueError):
    pass


@dataclass(frozen=True)
class Route:
    method: descriptor.MethodDescriptor
    verb: str  # upper case: `POST`
    path: str  # as aiohttp routes it: `/v1/tables/{p0}/moves`
    variables: tuple[str, ...]  # the field path of each `{pN}`: `("table_id",)`
    body: str  # "*": the whole message; a field's name: that field; "": no body, the query

    @property
    def rpc(self) -> str:
        return self.method.name

    @property
    def streaming(self) -> bool:
        return self.method.server_streaming


def routes(service: descriptor.ServiceDescriptor = SERVICE) -> list[Route]:
    """Every route of `service`'s annotated methods (with their additional bindings)."""
    found = []
    for method in service.methods:
        options = method.GetOptions()
        if not options.HasExtension(annotations_pb2.http):
            continue
        rule = options.Extensions[annotations_pb2.http]
        for binding in [rule, *rule.additional_bindings]:
            found.append(_route(method, binding))
    return found


def _route(method: descriptor.MethodDescriptor, rule: http_pb2.HttpRule) -> Route:
    pattern = rule.WhichOneof("pattern")
    if pattern not in VERBS:
        raise UnsupportedRoute(f"`{method.full_name}`: no route for a `{pattern}` pattern")
    template = getattr(rule, pattern)
    if not template.startswith("/") or ":" in template:
        raise UnsupportedRoute(f"`{method.full_name}`: cannot serve the path `{template}`")
    segments: list[str] = []
    variables: list[str] = []
    for segment in template.strip("/").split("/"):
        variable = _VARIABLE.match(segment)
        if variable:
            segments.append(f"{{p{len(variables)}}}")
            variables.append(variable.group(1))
        elif _LITERAL.match(segment):
            segments.append(segment)
        else:
            raise UnsupportedRoute(f"`{method.full_name}`: cannot serve the segment `{segment}`")
    if rule.body and pattern == "get":
        raise UnsupportedRoute(f"`{method.full_name}`: a GET route takes no body")
    path = "/" + "/".join(segments)
    return Route(method, pattern.upper(), path, tuple(variables), rule.body)
