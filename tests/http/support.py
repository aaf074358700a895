"""Raw HTTP clients for the three encodings, as a browser or ``curl`` would send them.

Nothing here uses a Connect client library: the requests are plain HTTP/1.1 POSTs built
by hand (``http.client``), so the tests check the wire format itself.
"""

from __future__ import annotations

import base64
import http.client
import json
import struct
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

ENGINE = "/splendor.v1.EngineService"
GRPC_WEB_TRAILERS = 0x80


@dataclass
class Reply:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Refusal:
    """An error as the client sees it: code, message, and the details' ErrorInfo and field paths."""

    code: str  # gRPC spelling: INVALID_ARGUMENT
    message: str
    reason: str | None = None
    domain: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    fields: list[str] = field(default_factory=list)


def post(port: int, path: str, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> Reply:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", path, body, {"Content-Type": content_type, **(headers or {})})
        response = conn.getresponse()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        conn.close()


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None) -> Reply:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        conn.close()


def refusal_from_status(status: Any) -> Refusal:
    """A ``google.rpc.Status`` (its code a number) as a ``Refusal``."""
    name = next(code.name for code in grpc.StatusCode if code.value[0] == status.code)
    refusal = Refusal(name, status.message)
    _read_details(refusal, [(any_.type_url.rsplit("/", 1)[-1], any_.value) for any_ in status.details])
    return refusal


def _read_details(refusal: Refusal, details: list[tuple[str, bytes]]) -> None:
    for type_name, value in details:
        if type_name == "google.rpc.ErrorInfo":
            info = error_details_pb2.ErrorInfo.FromString(value)
            refusal.reason, refusal.domain, refusal.metadata = info.reason, info.domain, dict(info.metadata)
        elif type_name == "google.rpc.BadRequest":
            refusal.fields = [v.field for v in error_details_pb2.BadRequest.FromString(value).field_violations]


def unpadded_b64decode(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


# Connect, JSON.


def connect_json(port: int, method: str, message: dict[str, Any], headers: dict[str, str] | None = None) -> Reply:
    return post(port, f"{ENGINE}/{method}", json.dumps(message).encode(), "application/json", headers)


def connect_refusal(reply: Reply) -> Refusal:
    """A Connect unary error (JSON body, whatever the request's codec)."""
    assert reply.status != 200 and reply.headers["content-type"] == "application/json", reply
    error = reply.json()
    refusal = Refusal(error["code"].upper().replace("CANCELED", "CANCELLED"), error.get("message", ""))
    _read_details(refusal, [(d["type"], unpadded_b64decode(d["value"])) for d in error.get("details", [])])
    return refusal


# Connect, binary.


def connect_proto(port: int, method: str, message: Message, response_type: type[Message]) -> Message | Refusal:
    reply = post(port, f"{ENGINE}/{method}", message.SerializeToString(), "application/proto")
    if reply.status == 200:
        assert reply.headers["content-type"] == "application/proto"
        return response_type.FromString(reply.body)
    return connect_refusal(reply)


# gRPC-Web.


def frame(payload: bytes, flags: int = 0) -> bytes:
    """A gRPC-Web (and gRPC) message frame: a flag byte, a 4-byte big-endian length, the payload."""
    return struct.pack(">BI", flags, len(payload)) + payload


def unframe(body: bytes) -> tuple[list[bytes], dict[str, str]]:
    """The messages and the trailers of a gRPC-Web response body."""
    messages: list[bytes] = []
    trailers: dict[str, str] = {}
    offset = 0
    while offset < len(body):
        flags, length = struct.unpack(">BI", body[offset : offset + 5])
        payload = body[offset + 5 : offset + 5 + length]
        assert len(payload) == length, "truncated frame"
        offset += 5 + length
        if flags & GRPC_WEB_TRAILERS:
            for line in payload.decode().split("\r\n"):
                if line:
                    name, _, value = line.partition(":")
                    trailers[name.strip().lower()] = value.strip()
        else:
            messages.append(payload)
    return messages, trailers


def grpc_web(port: int, method: str, message: Message, response_type: type[Message]) -> Message | Refusal:
    """A gRPC-Web call with binary messages; the status is in the trailers frame, or in the
    headers of a trailers-only response."""
    reply = post(port, f"{ENGINE}/{method}", frame(message.SerializeToString()), "application/grpc-web+proto")
    assert reply.status == 200, reply
    messages, trailers = unframe(reply.body)
    status = {**reply.headers, **trailers}
    if status["grpc-status"] == "0":
        (payload,) = messages
        return response_type.FromString(payload)
    details = status.get("grpc-status-details-bin")
    assert details is not None, status
    return refusal_from_status(status_pb2.Status.FromString(unpadded_b64decode(details)))
