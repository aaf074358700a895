"""Messages for the JSON codec's differential tests: random messages of any contract type (hypothesis,
from the descriptors), real mid-game ApplyAction requests and responses, and hostile edits of JSON."""

from __future__ import annotations

import random
from typing import Any

from google.protobuf import any_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from hypothesis import strategies as st
from splendor.v1 import actions_pb2
from splendor.v1 import engine_service_pb2 as pb

from engine_service.api import METHODS, METHODS_BY_NAME, Call, invoke
from engine_service.codec import action_to_proto, state_to_proto
from engine_service.rules import GameConfig, apply, legal_actions, new_game

CONTRACT_TYPES: list[type[Message]] = sorted(
    {t for method in METHODS for t in (method.request_type, method.response_type)}, key=lambda t: t.DESCRIPTOR.full_name
)
_RANGES = {
    FieldDescriptor.CPPTYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.CPPTYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.CPPTYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.CPPTYPE_UINT64: (0, 2**64 - 1),
}
_MAX_DEPTH = 7  # deep enough for every contract type's nesting, small enough to stay fast


def _scalars(field: FieldDescriptor) -> st.SearchStrategy[Any]:
    cpp = field.cpp_type
    if cpp in _RANGES:
        low, high = _RANGES[cpp]
        return st.integers(low, high) | st.sampled_from((low, high, 0, 1))
    if cpp == FieldDescriptor.CPPTYPE_BOOL:
        return st.booleans()
    if field.enum_type is not None:
        named = [value.number for value in field.enum_type.values]
        return st.sampled_from(named) | st.integers(-5, 200)  # open enums keep numbers they do not name
    if cpp == FieldDescriptor.CPPTYPE_DOUBLE:
        return st.floats()
    if cpp == FieldDescriptor.CPPTYPE_FLOAT:
        return st.floats(width=32)
    if field.type == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=24)
    return st.text(max_size=12)


@st.composite
def messages(draw: st.DrawFn, descriptor: Descriptor, depth: int = 0) -> Message:
    """A random message of ``descriptor``'s type: any subset of its fields, any values of their kinds."""
    if descriptor.full_name == "google.protobuf.Any":
        packed = any_pb2.Any()
        if depth < _MAX_DEPTH and draw(st.booleans()):
            packed.Pack(draw(messages(actions_pb2.Action.DESCRIPTOR, depth)))
        return packed
    message = GetMessageClass(descriptor)()
    for field in descriptor.fields:
        entry = field.message_type
        if (entry is not None and depth >= _MAX_DEPTH) or not draw(st.booleans()):
            continue
        target = getattr(message, field.name)
        if entry is not None and entry.GetOptions().map_entry:
            key_field, value_field = entry.fields_by_name["key"], entry.fields_by_name["value"]
            for key in draw(st.lists(_scalars(key_field), max_size=3, unique=True)):
                if value_field.message_type is not None:
                    target[key].CopyFrom(draw(messages(value_field.message_type, depth + 1)))
                else:
                    target[key] = draw(_scalars(value_field))
        elif field.is_repeated:
            if entry is not None:
                for item in draw(st.lists(messages(entry, depth + 1), max_size=3)):
                    target.add().CopyFrom(item)
            else:
                target.extend(draw(st.lists(_scalars(field), max_size=4)))
        elif entry is not None:
            target.SetInParent()  # an empty submessage is still set
            target.CopyFrom(draw(messages(entry, depth + 1)))
        else:
            setattr(message, field.name, draw(_scalars(field)))
    return message


def real_apply_calls(count: int = 6, seed: int = 5) -> list[tuple[pb.ApplyActionRequest, pb.ApplyActionResponse]]:
    """Mid-game ApplyAction requests of random 2-4 player games, asking for everything a response can
    carry, with the API's responses to them."""
    rng = random.Random(seed)
    method = METHODS_BY_NAME["ApplyAction"]
    calls: list[tuple[pb.ApplyActionRequest, pb.ApplyActionResponse]] = []
    while len(calls) < count:
        state, _ = new_game(GameConfig(2 + len(calls) % 3, rng.randrange(1 << 32)))
        stop = rng.randrange(10, 40)
        for turn in range(stop + 1):
            actions = legal_actions(state)
            if not actions:
                break
            action = rng.choice(actions)
            if turn == stop and state.pending is None:
                request = pb.ApplyActionRequest(
                    state=state_to_proto(state),
                    action=action_to_proto(action),
                    include_legal_actions=True,
                    include_observation=True,
                    include_legal_action_ids=True,
                )
                response = invoke(method, request, Call("ApplyAction"))
                calls.append((request, response))
            state, _ = apply(state, action)
    return calls


def json_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: object members and list items, the root first."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*path, index))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the item at ``path`` replaced by ``new``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {key: (replaced(item, rest, new) if key == head else item) for key, item in value.items()}
    return [replaced(item, rest, new) if index == head else item for index, item in enumerate(value)]


def nested(depth: int, key: str) -> Any:
    value: Any = {}
    for _ in range(depth):
        value = {key: value}
    return value


# Values of the wrong kind for most fields, or the right kind in an unusual spelling.
HOSTILE_VALUES: tuple[Any, ...] = (
    None,
    "12",
    " 12",
    "+12",
    "1_2",
    "012",
    "-0",
    "1e2",
    "12.0",
    "١٢",  # Arabic-Indic digits: Python's int() reads them
    "18446744073709551616",
    1.0,
    1.5,
    -1,
    2**32,
    2**64,
    True,
    False,
    [],
    [None],
    [1, "x"],
    {},
    {"unknown": 1},
    "NaN",
    "Infinity",
    float("nan"),
    float("inf"),
    1e39,
    "ACTION_KIND_UNSPECIFIED",
    "not base64!",
    "YWJj",
    "YWJj=",
    "a-_b",
    "\ud800",
    "x",
    nested(120, "x"),
)
