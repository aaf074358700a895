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


# --- reading: where a message's fields lie in its bytes -----------------------------------------------------------

_VARINT: Final = 0
_FIXED64: Final = 1
_FIXED32: Final = 5
_MAX_VARINT_BYTES: Final = 10


def _read_varint(data: bytes, pos: int, end: int) -> tuple[int, int]:
    """The varint at ``pos`` and the position after it; (-1, -1) when it runs past ``end`` or over 10 bytes."""
    value = 0
    shift = 0
    stop = min(end, pos + _MAX_VARINT_BYTES)
    while pos < stop:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
    return -1, -1


def field_spans(data: bytes, number: int, start: int = 0, end: int = -1) -> list[tuple[int, int]] | None:
    """Where each occurrence of field ``number`` (a message, string or bytes: length-delimited) of the message
    in ``data[start:end]`` (``end`` -1: to the end) holds its payload, as (start, end) offsets into ``data``, in
    the order they come; None when the bytes are not a message this walk can read (malformed, or groups).

    A parser merges repeated occurrences of a singular message field, so only a field found exactly once is the
    message's value byte for byte (``single_field``)."""
    if end < 0:
        end = len(data)
    spans: list[tuple[int, int]] = []
    pos = start
    while pos < end:
        key, pos = _read_varint(data, pos, end)
        if key < 0:
            return None
        wire_type = key & 7
        if wire_type == _LENGTH_DELIMITED:
            length, pos = _read_varint(data, pos, end)
            if length < 0 or pos + length > end:
                return None
            if key >> 3 == number:
                spans.append((pos, pos + length))
            pos += length
        elif wire_type == _VARINT:
            _, pos = _read_varint(data, pos, end)
            if pos < 0:
                return None
        elif wire_type == _FIXED64:
            pos += 8
        elif wire_type == _FIXED32:
            pos += 4
        else:  # a group (3, 4: no message of this contract has one) or no wire type at all
            return None
    return spans if pos == end else None


def single_field(data: bytes, number: int, start: int = 0, end: int = -1) -> tuple[int, int] | None:
    """The (start, end) of field ``number``'s payload in the message in ``data[start:end]`` when the field occurs
    exactly once (the bytes of the message's value for a message field); None when absent, repeated or unreadable."""
    spans = field_spans(data, number, start, end)
    return spans[0] if spans is not None and len(spans) == 1 else None
