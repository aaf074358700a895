"""One generic codec between a core record (NamedTuple) and its protobuf message, field by field, by name.

How a field converts follows from the message's field descriptor:

* scalars as they are; ``optional`` scalars read absent as None, and None is left unset;
* repeated scalars <-> tuples;
* ``Color`` enums <-> colour indices (proto value - 1), repeated or single;
* other enums by name (``END_REASON_<name>`` <-> ``EndReason.<name>``), decision kinds through the registry;
* ``TokenCounts``/``GemCounts`` <-> six/five counts (absent reads as None when the core field defaults to None);
* nested messages with a core record (``Standing``) convert the same way, repeated or single.

The exceptions, listed here and nowhere else:

* ``RENAMED``: core fields whose contract name differs;
* ``WRAPPED_LISTS``: messages that only wrap a list (``SpentCards``): present even when empty;
* ``OPTIONS_OR_COLORS``: records whose ``options`` travel in ``colors`` when their decision kind has colour options.

A record with a field the message lacks fails loudly when its codec is built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, NamedTuple

from google.protobuf.descriptor import Descriptor, FieldDescriptor, OneofDescriptor
from google.protobuf.message import Message

from engine_service.rules import CardSource, DecisionKind, EndReason, RuleViolation, Standing, registry, snake_case

from .common import (
    CORE_COLOR,
    DECISION_KINDS,
    color_to_proto,
    decision_value,
    fill_gems,
    fill_tokens,
    gems_from_proto,
    invalid_state,
    tokens_from_proto,
)

RENAMED: Final[dict[tuple[str, str], str]] = {("StrongholdsReturned", "returned"): "count"}
WRAPPED_LISTS: Final[dict[str, str]] = {"splendor.v1.SpentCards": "card_ids"}
OPTIONS_OR_COLORS: Final = frozenset({"DecisionRequired"})
ENUMS: Final[dict[str, tuple[type, str]]] = {
    "splendor.v1.EndReason": (EndReason, "END_REASON_"),
    "splendor.v1.CardSource": (CardSource, "CARD_SOURCE_"),
}
NESTED: Final[dict[str, type]] = {"splendor.v1.Standing": Standing}

# A colour that is not one: INVALID_COLOR in a request's action, INVALID_STATE in a state or an event.
BadColor = Callable[[int, str], RuleViolation]
Reader = Callable[[Any, str], Any]  # (the record's message, its field path) -> the core value
Writer = Callable[[Any, Any], None]  # (the record's message, the core value)


class FieldCodec(NamedTuple):
    core: str
    read: Reader
    write: Writer
    plain: str = ""  # the contract's name of a plain scalar, copied as it is (no conversion, never None)


class RecordCodec:
    """Reads and writes one kind of record; ``read(msg, path)`` raises ``RuleViolation`` naming ``path.field``."""

    def __init__(self, record: type, descriptor: Descriptor, bad_color: BadColor) -> None:
        self.record = record
        self.fields = tuple(_field_codec(record, name, descriptor, bad_color) for name in record._fields)  # type: ignore[attr-defined]
        self._options_or_colors = record.__name__ in OPTIONS_OR_COLORS
        if self._options_or_colors:
            self.fields = _options_or_colors(self.fields, bad_color)
        self._readers = tuple(field.read for field in self.fields)
        written = [
            (index, field)
            for index, field in enumerate(self.fields)
            if not (self._options_or_colors and field.core == "options")
        ]
        # Plain scalars are copied by index in one loop; the others go through their writers.
        self._plain = tuple((index, field.plain) for index, field in written if field.plain)
        self._writers = tuple((index, field.write) for index, field in written if not field.plain)
        self.empty = not self.fields  # a record without fields (Pass, Decline): its message must be marked present

    def read(self, msg: Any, path: str) -> Any:
        return self.record(*[read(msg, path) for read in self._readers])

    def write(self, out: Any, record: Any) -> None:
        for index, proto in self._plain:
            setattr(out, proto, record[index])
        for index, write in self._writers:
            write(out, record[index])
        if self.empty:
            out.SetInParent()
        elif self._options_or_colors:
            write_options(out, record.kind, record.options)


def _field_codec(record: type, name: str, descriptor: Descriptor, bad_color: BadColor) -> FieldCodec:
    proto = RENAMED.get((record.__name__, name), name)
    fd = descriptor.fields_by_name.get(proto)
    if fd is None:
        raise TypeError(f"{record.__name__}.{name}: the message {descriptor.full_name} has no field {proto}")
    optional = record._field_defaults.get(name, ...) is None  # type: ignore[attr-defined]
    repeated = fd.is_repeated
    if fd.type == FieldDescriptor.TYPE_ENUM:
        return FieldCodec(name, *_enum_field(proto, fd, repeated, bad_color))
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        return FieldCodec(name, *_message_field(proto, fd, repeated, optional, bad_color))
    if repeated:
        return FieldCodec(
            name, lambda msg, path: tuple(getattr(msg, proto)), lambda out, v: getattr(out, proto).extend(v)
        )
    if fd.has_presence:

        def read_optional(msg: Any, path: str) -> Any:
            return getattr(msg, proto) if msg.HasField(proto) else None

        def write_optional(out: Any, value: Any) -> None:
            if value is not None:
                setattr(out, proto, value)

        return FieldCodec(name, read_optional, write_optional)
    return FieldCodec(
        name, lambda msg, path: getattr(msg, proto), lambda out, value: setattr(out, proto, value), plain=proto
    )


def _enum_field(proto: str, fd: FieldDescriptor, repeated: bool, bad_color: BadColor) -> tuple[Reader, Writer]:
    enum_type = fd.enum_type
    assert enum_type is not None
    full_name = enum_type.full_name
    if full_name == "splendor.v1.Color":
        if repeated:

            def read_colors(msg: Any, path: str) -> Any:
                values = getattr(msg, proto)
                if not values or (min(values) >= 1 and max(values) <= len(CORE_COLOR)):  # every value a colour
                    return tuple([value - 1 for value in values])
                return tuple([_color(v, f"{path}{proto}[{i}]", bad_color) for i, v in enumerate(values)])

            return read_colors, lambda out, v: getattr(out, proto).extend([color_to_proto(c) for c in v])
        return (
            lambda msg, path: _color(getattr(msg, proto), path + proto, bad_color),
            lambda out, value: setattr(out, proto, color_to_proto(value)),
        )
    if full_name == "splendor.v1.DecisionKind":

        def read_kind(msg: Any, path: str) -> DecisionKind:
            kind = DECISION_KINDS.by_value.get(getattr(msg, proto))
            if kind is None:
                raise invalid_state(path + proto, f"unknown enum value {getattr(msg, proto)}")
            return kind

        return read_kind, lambda out, kind: setattr(out, proto, decision_value(kind))
    core_enum, prefix = ENUMS[full_name]
    by_value = {enum_type.values_by_name[f"{prefix}{member.name}"].number: member for member in core_enum}  # type: ignore[attr-defined]
    values = {member: number for number, member in by_value.items()}

    def read_enum(msg: Any, path: str) -> Any:
        member = by_value.get(getattr(msg, proto))
        if member is None:
            raise invalid_state(path + proto, f"unknown enum value {getattr(msg, proto)}")
        return member

    def write_enum(out: Any, member: Any) -> None:
        if member is not None:
            setattr(out, proto, values[member])

    return read_enum, write_enum


def _message_field(
    proto: str, fd: FieldDescriptor, repeated: bool, optional: bool, bad_color: BadColor
) -> tuple[Reader, Writer]:
    message_type = fd.message_type
    assert message_type is not None
    full_name = message_type.full_name
    if full_name in ("splendor.v1.TokenCounts", "splendor.v1.GemCounts"):
        counts = full_name == "splendor.v1.TokenCounts"
        reader: Callable[[Any], tuple[int, ...]] = tokens_from_proto if counts else gems_from_proto
        filler: Callable[[Any, Any], None] = fill_tokens if counts else fill_gems

        def read_counts(msg: Any, path: str) -> Any:
            return reader(getattr(msg, proto)) if not optional or msg.HasField(proto) else None

        def write_counts(out: Any, value: Any) -> None:
            if value is not None:
                filler(getattr(out, proto), value)

        return read_counts, write_counts
    if full_name in WRAPPED_LISTS:
        inner = WRAPPED_LISTS[full_name]

        def read_wrapped(msg: Any, path: str) -> Any:
            return tuple(getattr(getattr(msg, proto), inner)) if msg.HasField(proto) else None

        def write_wrapped(out: Any, value: Any) -> None:
            if value is not None:
                wrapper = getattr(out, proto)
                wrapper.SetInParent()  # present even when empty, so () reads back as ()
                getattr(wrapper, inner).extend(value)

        return read_wrapped, write_wrapped
    nested = RecordCodec(NESTED[full_name], message_type, bad_color)
    if repeated:

        def read_all(msg: Any, path: str) -> Any:
            return tuple([nested.read(item, f"{path}{proto}[{i}].") for i, item in enumerate(getattr(msg, proto))])

        def write_all(out: Any, values: Any) -> None:
            for value in values:
                nested.write(getattr(out, proto).add(), value)

        return read_all, write_all
    return lambda msg, path: nested.read(getattr(msg, proto), f"{path}{proto}."), lambda out, value: nested.write(
        getattr(out, proto), value
    )


def _options_or_colors(fields: tuple[FieldCodec, ...], bad_color: BadColor) -> tuple[FieldCodec, ...]:
    """``options`` read from and written to ``colors`` when the record's decision kind has colour options."""

    def read(msg: Any, path: str) -> Any:
        kind = DECISION_KINDS.by_value.get(msg.kind)
        if kind is not None and kind.colors:
            return tuple([_color(value, f"{path}colors[{index}]", bad_color) for index, value in enumerate(msg.colors)])
        return tuple(msg.options)

    return tuple(FieldCodec(f.core, read, f.write) if f.core == "options" else f for f in fields)


def write_options(out: Any, kind: DecisionKind, options: tuple[int, ...]) -> None:
    """A decision's options: colour values in ``colors`` for a colour decision, else ids in ``options``."""
    if kind.colors:
        out.colors.extend([color_to_proto(color) for color in options])
    else:
        out.options.extend(options)


def _color(value: int, field: str, bad_color: BadColor) -> int:
    color = CORE_COLOR.get(value)
    if color is None:
        raise bad_color(value, field)
    return color


def message_descriptor(message: type[Message]) -> Descriptor:
    """A message class's descriptor (the upb and pure-Python descriptor classes differ in their stubs)."""
    descriptor: Descriptor = message.DESCRIPTOR  # type: ignore[assignment]
    return descriptor


def field_message(field: FieldDescriptor) -> Descriptor:
    """The message type of a message field (a oneof's fields are all messages here)."""
    assert field.message_type is not None, field.name
    return field.message_type


class OneofTable:
    """The codecs of one oneof (``Action.kind``, ``Event.kind``): per field and per record type.

    ``records()`` lists the record types in play (the base ones and the registered modules'); the
    table is rebuilt whenever a module registers or leaves. A record whose snake-case name is no
    field of the oneof belongs to a module outside the contract (a test's): in-process only.
    """

    def __init__(self, oneof: OneofDescriptor, records: Callable[[], Iterable[type]], bad_color: BadColor) -> None:
        self._oneof = oneof
        self._records = records
        self._bad_color = bad_color
        self.by_field: dict[str, tuple[RecordCodec, str]] = {}
        self.by_type: dict[type, tuple[str, RecordCodec]] = {}
        self.rebuild()
        registry.on_change(self.rebuild)

    def rebuild(self) -> None:
        fields = {field.name: field for field in self._oneof.fields}
        by_field: dict[str, tuple[RecordCodec, str]] = {}
        by_type: dict[type, tuple[str, RecordCodec]] = {}
        for record in self._records():
            name = snake_case(record.__name__)
            field = fields.get(name)
            if field is None:
                continue
            codec = RecordCodec(record, field_message(field), self._bad_color)
            by_field[name] = (codec, name + ".")  # the prefix of its fields in error paths
            by_type[record] = (name, codec)
        self.by_field = by_field
        self.by_type = by_type
