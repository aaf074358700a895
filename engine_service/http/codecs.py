"""The codecs: protobuf binary, and proto3 JSON written compactly (one line, no indentation), both deferred.

Binary is ``google.protobuf``'s, as on the gRPC side. JSON is ``google.protobuf.json_format``'s to the
byte and to the refusal, through ``proto_json``: a plan per message type instead of its generic walk,
falling back to json_format itself for any unusual input (several times less CPU a call). JSON input
accepts field names in lowerCamelCase or as in the proto, enums by name or number, 64-bit integers
as strings or numbers, and refuses unknown fields (a misspelt field must not pass silently); output uses
lowerCamelCase, enums by name, 64-bit integers as strings, and leaves out fields at their
zero value (proto3 JSON).

Deferred: the Connect runtime decodes a request and encodes its response on the event loop, and a
JSON message of a megabyte takes the pure-Python JSON mapping a large fraction of a second. So the runtime gets
``Undecoded`` requests and ``Encoded`` responses, and the endpoints (``endpoints.py``) do the work on
the call's own thread: the event loop only moves bytes, and never stops answering probes for a
large message.
"""

from __future__ import annotations

import json
from typing import Any, Final, Generic, TypeVar

from connectrpc.code import Code as ConnectCode
from connectrpc.codec import Codec
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError
from google.protobuf.message import Message

from engine_service.http import proto_json

M = TypeVar("M", bound=Message)
# The binary codec's name: its bytes are protobuf's wire bytes, those the API reads a state's key from and writes.
_BINARY: Final = google_protobuf_binary_codec().name()


class CompactJsonCodec(Codec[Message, Any]):
    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        return proto_json.to_json(message).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Any]) -> Any:
        value = json.loads(data)
        if not isinstance(value, dict):  # json_format would take [] or null for an empty message
            raise TypeError(f"a message is a JSON object, not {type(value).__name__}")
        return proto_json.from_object(value, message_class)


class Undecoded(Generic[M]):
    """A request's bytes as the runtime read them, with the codec that decodes them and the response."""

    __slots__ = ("codec", "data", "message_class")

    def __init__(self, data: bytes, message_class: type[M], codec: Codec[Any, Any]) -> None:
        self.data = data
        self.message_class = message_class
        self.codec = codec

    def decode(self) -> M:
        """The request, or the runtime's own refusal of bytes that are no such message (``invalid_argument``)."""
        try:
            return self.codec.decode(self.data, self.message_class)  # type: ignore[no-any-return]
        except Exception as error:
            raise ConnectError(ConnectCode.INVALID_ARGUMENT, f"unmarshal message: {error}") from error

    @property
    def wire_bytes(self) -> bytes:
        """The request's protobuf bytes when it came in binary (for ``Call.request_bytes``), else b""."""
        return self.data if self.codec.name() == _BINARY else b""

    def encode(self, response: Message, wire: bytes) -> Encoded:
        """``response`` in the call's codec; ``wire``: its protobuf bytes (``Method.encode``), sent as they are in
        binary."""
        return Encoded(wire if self.codec.name() == _BINARY else self.codec.encode(response))


class Encoded:
    """A response already encoded by its call's codec."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


class DeferredCodec(Codec[Any, Any]):
    """``codec`` for the runtime, its work left to the endpoint's thread."""

    def __init__(self, codec: Codec[Any, Any]) -> None:
        self._codec = codec

    def name(self) -> str:
        return self._codec.name()

    def encode(self, message: Any) -> bytes:
        return message.data if isinstance(message, Encoded) else self._codec.encode(message)

    def decode(self, data: bytes | bytearray, message_class: type[Any]) -> Any:
        return Undecoded(bytes(data), message_class, self._codec)


def codecs() -> list[Codec[Any, Any]]:
    return [DeferredCodec(google_protobuf_binary_codec()), DeferredCodec(CompactJsonCodec())]
