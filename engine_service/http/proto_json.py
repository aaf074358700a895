"""Proto3 JSON as ``google.protobuf.json_format`` writes and reads it, several times faster.

json_format walks every message in pure Python, rediscovering each field's kind per value: most of
a Connect JSON call's CPU. Here each message type gets a plan, built once from its descriptor, and
the work per value is one dictionary lookup and one small converter.

Encoding iterates ``message.ListFields()`` exactly as json_format does and ends in the same
``json.dumps`` call, so the bytes are identical. Decoding has a fast path for JSON whose every value
has the plain expected type (a number for an integer field within range, an enum by name, a dict
for a message, a list for a repeated field...), and builds the message with one constructor call
from the converted keyword arguments. Anything else (null, an enum by number, an integer as an
odd string, a field named twice by its two names, two members of one oneof, an unknown field) falls
back to ``json_format.ParseDict`` of the whole value into a fresh message, so every unusual input
gets json_format's result or json_format's refusal. Well-known types (``google.protobuf.*``) are
json_format's own: their submessages go through ``MessageToDict`` and ``ParseDict``.
"""

from __future__ import annotations

import base64
import json
import math
import re
import struct
from collections.abc import Callable
from typing import Any, cast

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

_MAX_DEPTH = 100  # json_format's default max_recursion_depth: the root message is depth 1
_FLOAT32_MAX = float.fromhex("0x1.fffffep+127")
# json_format refuses strings with an unpaired surrogate (json.loads lets "\ud800" through).
_UNPAIRED_SURROGATE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")
# A decimal integer json_format's int() reads the same way; anything else Python's int() accepts
# ("+1", "1_0", " 1", non-ASCII digits...) takes the fallback.
_PLAIN_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)", re.ASCII)

_INTEGER_RANGES = {
    FieldDescriptor.CPPTYPE_INT32: (-(1 << 31), (1 << 31) - 1),
    FieldDescriptor.CPPTYPE_UINT32: (0, (1 << 32) - 1),
    FieldDescriptor.CPPTYPE_INT64: (-(1 << 63), (1 << 63) - 1),
    FieldDescriptor.CPPTYPE_UINT64: (0, (1 << 64) - 1),
}
_INT64_TYPES = (FieldDescriptor.CPPTYPE_INT64, FieldDescriptor.CPPTYPE_UINT64)
_INT32_TYPES = (FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_UINT32)


class _Unusual(Exception):
    """The value is off the fast path: json_format decides."""


Decode = Callable[[Any, int], Any]
Encode = Callable[[Any], Any]


def to_json(message: Message) -> str:
    """``json_format.MessageToJson(message, indent=None)``, the same text."""
    try:
        js = _plan(cast(Descriptor, message.DESCRIPTOR)).to_object(message)
    except Exception:  # e.g. an unnamed number in a closed enum: json_format's own error
        return json_format.MessageToJson(message, indent=None)
    return json.dumps(js, indent=None, sort_keys=False, ensure_ascii=True)


def from_object(value: dict[str, Any], message_class: type[Message]) -> Message:
    """``json_format.ParseDict(value, message_class())``: the same message, or the same refusal."""
    plan = _plan(cast(Descriptor, message_class.DESCRIPTOR))
    try:
        built = plan.from_object(value, 1)
        return built if isinstance(built, Message) else message_class(**built)
    except Exception:  # _Unusual, or anything the fast path did not expect: json_format decides
        return json_format.ParseDict(value, message_class(), ignore_unknown_fields=False)


class _Plan:
    """How one message type goes to and from JSON."""

    __slots__ = ("decoders", "descriptor", "encoders", "message_class", "own")

    def __init__(self, descriptor: Descriptor) -> None:
        self.descriptor = descriptor
        self.message_class: type[Message] = GetMessageClass(descriptor)
        # Well-known types have their own JSON forms; a type with extensions may get fields by "[name]".
        self.own = descriptor.full_name.startswith("google.protobuf.") or bool(descriptor.extension_ranges)
        # JSON key -> (proto name, index of its oneof (real or synthetic) or None, converter, and for a
        # singular 32-bit integer, checked inline without a converter, its range)
        self.decoders: dict[str, tuple[str, int | None, Decode | None, int, int]] = {}
        # Keyed by the descriptor objects ListFields returns (the plan keeps them alive, so they are the same).
        self.encoders: dict[FieldDescriptor, tuple[str, Encode | None]] = {}

    def fill(self) -> None:
        """The fields' converters, once the plan is registered (a message type may contain itself)."""
        if self.own:
            return
        by_json_name = {}
        for field in self.descriptor.fields:
            decode, encode = _converters(field)
            oneof = None if field.containing_oneof is None else field.containing_oneof.index
            low, high = _INTEGER_RANGES.get(field.cpp_type, (0, 0))
            inline = field.cpp_type in _INT32_TYPES and not field.is_repeated
            self.decoders[field.name] = by_json_name[field.json_name] = (
                field.name,
                oneof,
                None if inline else decode,
                low,
                high,
            )
            self.encoders[field] = (field.json_name, None if encode is _identity else encode)
        self.decoders.update(by_json_name)  # json_format looks a key up by JSON name first, then by proto name

    def to_object(self, message: Message) -> Any:
        if self.own:
            return json_format.MessageToDict(message)
        encoders = self.encoders
        js: dict[str, Any] = {}
        for field, value in message.ListFields():
            name, encode = encoders[field]  # an extension is not there: fallback
            js[name] = value if encode is None else encode(value)
        return js

    def from_object(self, value: Any, depth: int) -> dict[str, Any] | Message:
        """The constructor's keyword arguments for ``value``, or a built message for a well-known type."""
        if type(value) is not dict or depth > _MAX_DEPTH:
            raise _Unusual
        if self.own:
            built = self.message_class()
            # The depth left is the one the whole message's parse would allow below this point.
            json_format.ParseDict(value, built, max_recursion_depth=_MAX_DEPTH + 1 - depth)
            return built
        decoders = self.decoders
        kwargs: dict[str, Any] = {}
        oneofs: list[int] = []
        for key, item in value.items():
            name, oneof, decode, low, high = decoders[key]  # KeyError for an unknown field: fallback
            if name in kwargs:
                raise _Unusual  # one field by both names: json_format's order of events decides
            if oneof is not None:
                if oneof in oneofs:
                    raise _Unusual  # json_format refuses a second member unless a null
                oneofs.append(oneof)
            if decode is None:  # a 32-bit integer, most of the contract's fields: checked here, without a call
                if type(item) is not int or not low <= item <= high:
                    raise _Unusual
                kwargs[name] = item
            else:
                kwargs[name] = decode(item, depth)
        return kwargs


_PLANS: dict[str, _Plan] = {}


def _plan(descriptor: Descriptor) -> _Plan:
    plan = _PLANS.get(descriptor.full_name)
    if plan is None or plan.descriptor is not descriptor:
        plan = _PLANS[descriptor.full_name] = _Plan(descriptor)
        plan.fill()
    return plan


def _converters(field: FieldDescriptor) -> tuple[Decode, Encode]:
    """A field's (decode, encode) pair: one JSON value to the constructor's argument, one field value to JSON."""
    message_type = field.message_type
    if message_type is not None and message_type.GetOptions().map_entry:
        return _map_converters(message_type)
    decode, encode = _single_converters(field)
    if not field.is_repeated:
        return decode, encode
    if encode is _identity:

        def encode_scalars(values: Any) -> list[Any]:
            return list(values)

        encode_list: Encode = encode_scalars
    else:

        def encode_items(values: Any) -> list[Any]:
            return [encode(item) for item in values]

        encode_list = encode_items

    def decode_list(value: Any, depth: int) -> list[Any]:
        if type(value) is not list:
            raise _Unusual
        return [decode(item, depth) for item in value]

    return decode_list, encode_list


def _map_converters(entry: Descriptor) -> tuple[Decode, Encode]:
    key_field = entry.fields_by_name["key"]
    decode_value, encode_value = _single_converters(entry.fields_by_name["value"])
    if key_field.cpp_type not in _INTEGER_RANGES:
        # String and bool keys are not in the contract: json_format reads them.
        return _decode_unusual, _encoder_of_map(encode_value)
    low, high = _INTEGER_RANGES[key_field.cpp_type]

    def decode_key(key: str) -> int:
        if not _PLAIN_INTEGER.fullmatch(key):
            raise _Unusual
        number = int(key)
        if not low <= number <= high:
            raise _Unusual
        return number

    def decode_map(value: Any, depth: int) -> dict[Any, Any]:
        if type(value) is not dict:
            raise _Unusual
        entries = {decode_key(key): decode_value(item, depth) for key, item in value.items()}
        if len(entries) != len(value):
            raise _Unusual  # two spellings of one key ("0" and "-0"): json_format merges them
        return entries

    return decode_map, _encoder_of_map(encode_value)


def _encoder_of_map(encode_value: Encode) -> Encode:
    def encode_map(entries: Any) -> dict[str, Any]:
        js: dict[str, Any] = {}
        for key in entries:
            if isinstance(key, bool):
                js["true" if key else "false"] = encode_value(entries[key])
            else:
                js[str(key)] = encode_value(entries[key])
        return js

    return encode_map


def _single_converters(field: FieldDescriptor) -> tuple[Decode, Encode]:
    cpp_type = field.cpp_type
    if field.message_type is not None:
        return _message_converters(field.message_type)
    if field.enum_type is not None:
        return _enum_converters(field.enum_type)
    if cpp_type in _INTEGER_RANGES:
        return _integer_converters(cpp_type)
    if cpp_type == FieldDescriptor.CPPTYPE_BOOL:
        return _decode_bool, _identity
    if cpp_type == FieldDescriptor.CPPTYPE_STRING:
        if field.type == FieldDescriptor.TYPE_BYTES:
            return _decode_bytes, _encode_bytes
        return _decode_string, _identity
    if cpp_type == FieldDescriptor.CPPTYPE_DOUBLE:
        return _decode_double, _encode_double
    return _decode_float, _encode_float


def _message_converters(descriptor: Descriptor) -> tuple[Decode, Encode]:
    from_object = _plan(descriptor).from_object

    def decode(value: Any, depth: int) -> Any:
        return from_object(value, depth + 1)

    return decode, _plan(descriptor).to_object


def _enum_converters(enum_type: EnumDescriptor) -> tuple[Decode, Encode]:
    if enum_type.full_name == "google.protobuf.NullValue":
        return _decode_unusual, _encode_unusual
    numbers = {value.name: value.number for value in enum_type.values}
    names = {value.number: value.name for value in enum_type.values}
    closed = enum_type.is_closed

    def decode(value: Any, depth: int) -> int:
        if type(value) is not str:
            raise _Unusual  # a number, or anything else: json_format reads numbers and refuses the rest
        return numbers[value]  # KeyError for an unknown name: json_format's refusal

    def encode(number: int) -> Any:
        name = names.get(number)
        if name is not None:
            return name
        if closed:
            raise _Unusual  # json_format refuses it
        return number  # a number the descriptor does not name is written as the number

    return decode, encode


def _integer_converters(cpp_type: int) -> tuple[Decode, Encode]:
    low, high = _INTEGER_RANGES[cpp_type]
    as_string = cpp_type in _INT64_TYPES

    def decode(value: Any, depth: int) -> int:
        if type(value) is int:
            number = value
        elif as_string and type(value) is str and _PLAIN_INTEGER.fullmatch(value):
            number = int(value)  # 64-bit integers are written as strings, so they come back as strings
        else:
            raise _Unusual
        if not low <= number <= high:
            raise _Unusual
        return number

    return decode, (str if as_string else _identity)


def _identity(value: Any) -> Any:
    return value


def _decode_unusual(value: Any, depth: int) -> Any:
    raise _Unusual


def _encode_unusual(value: Any) -> Any:
    raise _Unusual


def _decode_bool(value: Any, depth: int) -> bool:
    if type(value) is not bool:
        raise _Unusual
    return value


def _decode_string(value: Any, depth: int) -> str:
    if type(value) is not str or _UNPAIRED_SURROGATE.search(value):
        raise _Unusual
    return value


def _decode_bytes(value: Any, depth: int) -> bytes:
    if type(value) is not str:
        raise _Unusual
    encoded = value.encode()
    # json_format's reading: URL-safe or standard alphabet, padding optional.
    return base64.urlsafe_b64decode(encoded + b"=" * (4 - len(encoded) % 4))


def _encode_bytes(value: bytes) -> str:
    return base64.b64encode(value).decode()


def _decode_double(value: Any, depth: int) -> float:
    if type(value) is float and math.isfinite(value):
        return value
    if type(value) is int:
        return float(value)
    raise _Unusual  # "NaN", "Infinity", strings of numbers: json_format reads or refuses them


def _decode_float(value: Any, depth: int) -> float:
    if type(value) is float and math.isfinite(value) and -_FLOAT32_MAX <= value <= _FLOAT32_MAX:
        return value
    raise _Unusual


def _non_finite(value: float) -> str | None:
    if math.isinf(value):
        return "-Infinity" if value < 0 else "Infinity"
    if math.isnan(value):
        return "NaN"
    return None


def _encode_double(value: float) -> Any:
    return _non_finite(value) or value


def _encode_float(value: float) -> Any:
    special = _non_finite(value)
    if special is not None:
        return special
    # The shortest decimal (at least 6 significant digits) that reads back as the same 32-bit float.
    precision = 6
    rounded = float(f"{value:.{precision}g}")
    while struct.unpack("<f", struct.pack("<f", rounded))[0] != value:
        precision += 1
        rounded = float(f"{value:.{precision}g}")
    return rounded
