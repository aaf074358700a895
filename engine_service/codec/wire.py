"""Protobuf wire bytes written by hand, for the few fields a call fills with many values or many small messages.

A repeated field set value by value (``extend``) or message by message (``CopyFrom``) costs ~15 ns a value
and ~0.3 µs a message; its wire bytes, built here and merged in one parse (``MergeFromString``), cost one
pass. Merging bytes is how protobuf itself appends to a repeated field, so the message is the one the
field-by-field writes would build (the tests of each caller compare the two).
"""

from __future__ import annotations

from typing import Final

from google.protobuf.message import Message

_LENGTH_DELIMITED: Final = 2


def varint(value: int) -> bytes:
    """``value`` (not negative) as a base-128 varint."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def packed_varints(values: tuple[int, ...]) -> bytearray:
    """Packed varints of ``values``, written inline below 2^14 (every action id): one call, not one per value."""
    out = bytearray()
    for value in values:
        if value < 0x80:
            out.append(value)
        elif value < 0x4000:
            out.append(value & 0x7F | 0x80)
            out.append(value >> 7)
        else:
            out += varint(value)
    return out


def tag(message: type[Message], field: str) -> bytes:
    """The key of ``field`` of ``message`` written length-delimited: a message, a string or packed numbers."""
    return varint(message.DESCRIPTOR.fields_by_name[field].number << 3 | _LENGTH_DELIMITED)


def entry(key: bytes, payload: bytes | bytearray) -> bytes:
    """One length-delimited field: its key, the payload's length, the payload."""
    return key + varint(len(payload)) + payload
