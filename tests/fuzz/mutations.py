"""Mutations of valid requests: at the protobuf level (extreme values, wrong enums, huge or emptied
repeated fields, swapped ids, other oneof members) and at the byte level (bit flips, truncation,
random bytes, duplicated fields, spliced garbage). Each returns (name, request bytes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

INT_EXTREMES = (0, 1, -1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1, -(2**31), -(2**63))
ENUM_VALUES = (-1, 0, 1, 7, 99, 2**31 - 1, -(2**31))
_RANGES = {
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
}

Mutation = tuple[str, bytes]
HUGE_BYTES = 3 << 19  # 1.5 MiB


def is_repeated(field: FieldDescriptor) -> bool:
    return bool(field.is_repeated)


def is_map(field: FieldDescriptor) -> bool:
    """A ``map<K, V>`` field: repeated entries on the wire, a dict-like container in Python."""
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def clamp(field: FieldDescriptor, value: int) -> int:
    low, high = _RANGES[field.type]
    return min(max(value, low), high)


def leaves(message: Message, path: str = "") -> Iterator[tuple[Message, FieldDescriptor, int | None, str]]:
    """Every (parent, field, index, path) below ``message``: set fields and unset singular ones."""
    for field in message.DESCRIPTOR.fields:
        name = f"{path}.{field.name}" if path else field.name
        if is_map(field):
            values = getattr(message, field.name)
            yield message, field, None, name  # the map as a whole
            if field.message_type.fields_by_name["value"].type == FieldDescriptor.TYPE_MESSAGE:
                for key in list(values):
                    yield from leaves(values[key], f"{name}[{key}]")
        elif is_repeated(field):
            values = getattr(message, field.name)
            yield message, field, None, name  # the repeated field as a whole
            for index in range(len(values)):
                if field.type == FieldDescriptor.TYPE_MESSAGE:
                    yield from leaves(values[index], f"{name}[{index}]")
                else:
                    yield message, field, index, f"{name}[{index}]"
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            yield message, field, None, name
            if message.HasField(field.name):
                yield from leaves(getattr(message, field.name), name)
        else:
            yield message, field, None, name


def int_leaves(message: Message) -> list[tuple[Message, FieldDescriptor, int | None, str]]:
    return [
        leaf
        for leaf in leaves(message)
        if leaf[1].type in _RANGES and (leaf[2] is not None or not is_repeated(leaf[1]))
    ]


def set_scalar(parent: Message, field: FieldDescriptor, index: int | None, value: Any) -> None:
    if index is None:
        setattr(parent, field.name, value)
    else:
        getattr(parent, field.name)[index] = value


def get_scalar(parent: Message, field: FieldDescriptor, index: int | None) -> Any:
    return getattr(parent, field.name) if index is None else getattr(parent, field.name)[index]


def extreme_value(rng: random.Random, field: FieldDescriptor) -> Any:
    if field.type in _RANGES:
        return clamp(field, rng.choice(INT_EXTREMES))
    if field.type == FieldDescriptor.TYPE_ENUM:
        return rng.choice(ENUM_VALUES)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == FieldDescriptor.TYPE_STRING:
        return rng.choice(["", "\u0000", "x" * rng.choice((1, 1000, 100_000)), "\U0001f4a3"])
    if field.type == FieldDescriptor.TYPE_BYTES:
        return rng.randbytes(rng.choice((0, 1, 16, 100, 20_000)))
    return rng.choice((0.0, -1.0, float("inf"), float("nan"), 1e308))


def mutate_scalar(rng: random.Random, request: Message) -> str:
    candidates = [leaf for leaf in leaves(request) if leaf[1].type != FieldDescriptor.TYPE_MESSAGE]
    candidates = [leaf for leaf in candidates if leaf[2] is not None or not is_repeated(leaf[1])]
    if not candidates:
        return "none"
    parent, field, index, path = rng.choice(candidates)
    set_scalar(parent, field, index, extreme_value(rng, field))
    return f"extreme {_shape(path)}"


def mutate_repeated(rng: random.Random, request: Message) -> str:
    candidates = [leaf for leaf in leaves(request) if is_repeated(leaf[1]) and leaf[2] is None]
    if not candidates:
        return "none"
    parent, field, _, path = rng.choice(candidates)
    if is_map(field):
        return mutate_map(rng, parent, field, path)
    values = getattr(parent, field.name)
    kind = rng.choice(("huge", "empty", "duplicate", "shuffle", "double"))
    if kind == "empty":
        del values[:]
    elif kind == "shuffle" and len(values) > 1 and field.type != FieldDescriptor.TYPE_MESSAGE:
        items = list(values)
        rng.shuffle(items)
        values[:] = items
    elif kind == "huge":
        count = rng.choice((1000, 10_000, 100_000))
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            template = values[0] if len(values) else None
            # Up to ~1.5 MiB: past the server's 1 MiB request limit sometimes, without seconds of copying.
            count = min(count, HUGE_BYTES // max(1, template.ByteSize() if template is not None else 1))
            if template is None:
                for _ in range(count):
                    values.add()
            else:
                values.extend([template] * count)
        else:
            values.extend([values[0] if len(values) else extreme_value(rng, field)] * count)
    elif len(values):  # duplicate one element, or every one
        chosen = list(values) if kind == "double" else [rng.choice(list(values))]
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            for item in chosen:
                values.add().CopyFrom(item)
        else:
            values.extend(chosen)
    return f"repeated {kind} {_shape(path)}"


def mutate_map(rng: random.Random, parent: Message, field: FieldDescriptor, path: str) -> str:
    """A map emptied, given a huge number of entries, or an entry under an extreme key."""
    entries = getattr(parent, field.name)
    key_field, value_field = field.message_type.fields_by_name["key"], field.message_type.fields_by_name["value"]
    kind = rng.choice(("huge", "empty", "extreme key"))
    if kind == "empty":
        entries.clear()
        return f"map empty {_shape(path)}"
    template = next(iter(entries.values()), None)
    size = template.ByteSize() if isinstance(template, Message) else 8
    count = 1 if kind == "extreme key" else min(rng.choice((1000, 10_000, 100_000)), HUGE_BYTES // max(1, size))
    for offset in range(count):
        key = extreme_value(rng, key_field) if kind == "extreme key" else offset
        if value_field.type == FieldDescriptor.TYPE_MESSAGE:
            value = entries[key]
            if template is not None:
                value.CopyFrom(template)
            else:
                value.SetInParent()
        else:
            entries[key] = extreme_value(rng, value_field)
    return f"map {kind} {_shape(path)}"


def swap_ids(rng: random.Random, request: Message) -> str:
    ints = int_leaves(request)
    if len(ints) < 2:
        return "none"
    (pa, fa, ia, path_a), (pb, fb, ib, path_b) = rng.sample(ints, 2)
    a, b = get_scalar(pa, fa, ia), get_scalar(pb, fb, ib)
    set_scalar(pa, fa, ia, clamp(fa, b))
    set_scalar(pb, fb, ib, clamp(fb, a))
    return f"swap {_shape(path_a)} <-> {_shape(path_b)}"


def clear_message(rng: random.Random, request: Message) -> str:
    candidates = [leaf for leaf in leaves(request) if leaf[1].type == FieldDescriptor.TYPE_MESSAGE and leaf[2] is None]
    candidates = [leaf for leaf in candidates if not is_repeated(leaf[1])]
    if not candidates:
        return "none"
    parent, field, _, path = rng.choice(candidates)
    if parent.HasField(field.name) and rng.random() < 0.5:
        parent.ClearField(field.name)
        return f"clear {_shape(path)}"
    parent.ClearField(field.name)
    getattr(parent, field.name).SetInParent()
    return f"empty {_shape(path)}"


def other_oneof_member(rng: random.Random, request: Message) -> str:
    candidates = [
        (parent, oneof)
        for parent, _, _, _ in leaves(request)
        for oneof in parent.DESCRIPTOR.oneofs
        if parent.WhichOneof(oneof.name) is not None
    ]
    if not candidates:
        return "none"
    parent, oneof = rng.choice(candidates)
    field = rng.choice(oneof.fields)
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        getattr(parent, field.name).SetInParent()
    else:
        setattr(parent, field.name, extreme_value(rng, field))
    return f"oneof {oneof.name}={field.name}"


PROTO_MUTATIONS: tuple[Callable[[random.Random, Message], str], ...] = (
    mutate_scalar,
    mutate_scalar,
    mutate_repeated,
    swap_ids,
    clear_message,
    other_oneof_member,
)


def proto_mutation(rng: random.Random, seed: Message) -> Mutation:
    request = type(seed)()
    request.CopyFrom(seed)
    names = [rng.choice(PROTO_MUTATIONS)(rng, request) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
    return " + ".join(names), request.SerializeToString()


def byte_mutation(rng: random.Random, seed: Message) -> Mutation:
    data = bytearray(seed.SerializeToString())
    kind = rng.choice(("bitflip", "truncate", "random", "duplicate_field", "splice", "wire_type"))
    if kind == "bitflip" and data:
        for _ in range(rng.choice((1, 1, 2, 8))):
            bit = rng.randrange(len(data) * 8)
            data[bit // 8] ^= 1 << (bit % 8)
    elif kind == "truncate" and data:
        del data[rng.randrange(len(data)) :]
    elif kind == "random":
        data = bytearray(rng.randbytes(rng.choice((1, 7, 64, 1000))))
    elif kind == "duplicate_field":
        fields = [field for field, _ in seed.ListFields()]
        if fields:
            only = type(seed)()
            field = rng.choice(fields)
            value = getattr(seed, field.name)
            if is_repeated(field):
                getattr(only, field.name).extend(value)
            elif field.type == FieldDescriptor.TYPE_MESSAGE:
                getattr(only, field.name).CopyFrom(value)
            else:
                setattr(only, field.name, value)
            data += only.SerializeToString() * rng.choice((1, 2, 50))
            kind = f"duplicate_field {field.name}"
    elif kind == "splice":
        at = rng.randrange(len(data) + 1)
        data[at:at] = rng.randbytes(rng.choice((1, 3, 16)))
    elif kind == "wire_type" and data:
        data[0] = (data[0] & ~0x07) | rng.choice((3, 4, 6, 7))  # group and reserved wire types
    return f"bytes {kind}", bytes(data)


def systematic_mutations(seed: Message, depth: int = 2) -> Iterator[Mutation]:
    """Every integer and enum field down to ``depth`` levels, set to each extreme: finds the
    boundary crashes a random walk over hundreds of fields would rarely hit."""
    probe = type(seed)()
    probe.CopyFrom(seed)
    paths = [
        path
        for _, field, index, path in leaves(probe)
        if (field.type in _RANGES or field.type == FieldDescriptor.TYPE_ENUM)
        and index is None
        and not is_repeated(field)
        and path.count(".") < depth
        and "[" not in path
    ]
    seen: set[tuple[str, int]] = set()
    for path in paths:
        for value in INT_EXTREMES + ENUM_VALUES:
            request = type(seed)()
            request.CopyFrom(seed)
            for parent, field, index, leaf_path in leaves(request):
                if leaf_path == path:
                    fitted = clamp(field, value) if field.type in _RANGES else value
                    if not (field.type in _RANGES or -(2**31) <= value < 2**31) or (path, fitted) in seen:
                        break
                    seen.add((path, fitted))
                    set_scalar(parent, field, index, fitted)
                    yield f"systematic {path}={fitted}", request.SerializeToString()
                    break


def without_optional_scalars(seed: Message) -> Message:
    """A copy of ``seed`` without its top-level optional scalars (seat, expected_turn...)."""
    request = type(seed)()
    request.CopyFrom(seed)
    for field in request.DESCRIPTOR.fields:
        if field.has_presence and field.type != FieldDescriptor.TYPE_MESSAGE and field.containing_oneof is None:
            request.ClearField(field.name)
        elif field.containing_oneof is not None and field.containing_oneof.name.startswith("_"):
            request.ClearField(field.name)  # proto3 `optional` is a synthetic oneof
    return request


def _shape(path: str) -> str:
    """A path without its indices, so one finding is one kind, whatever element it hit."""
    out, depth = [], 0
    for char in path:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)
