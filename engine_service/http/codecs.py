"""The codecs: protobuf binary, and proto3 JSON written compactly (one line, no indentation).

Both are ``google.protobuf``'s, as on the gRPC side. JSON input accepts field names in
lowerCamelCase or as in the proto, enums by name or number, 64-bit integers as strings or
numbers, and refuses unknown fields (a misspelt field must not pass silently); output uses
lowerCamelCase, enums by name, 64-bit integers as strings, and leaves out fields at their
zero value (proto3 JSON).
"""

from __future__ import annotations

import json
from typing import Any

from connectrpc.codec import Codec
from connectrpc.compat import google_protobuf_binary_codec
from google.protobuf import json_format
from google.protobuf.message import Message


class CompactJsonCodec(Codec[Message, Any]):
    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        return json_format.MessageToJson(message, indent=None).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Any]) -> Any:
        value = json.loads(data)
        if not isinstance(value, dict):  # json_format would take [] or null for an empty message
            raise TypeError(f"a message is a JSON object, not {type(value).__name__}")
        message = message_class()
        json_format.ParseDict(value, message, ignore_unknown_fields=False)
        return message


def codecs() -> list[Codec[Any, Any]]:
    return [google_protobuf_binary_codec(), CompactJsonCodec()]
