"""The fast proto3 JSON codec against ``google.protobuf.json_format``: the same bytes out, the same message
or the same refusal in, for random messages of every contract type, real mid-game calls and hostile JSON."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from splendor.v1 import engine_service_pb2 as pb

from engine_service.http import proto_json
from engine_service.http.codecs import CompactJsonCodec, Undecoded
from tests.http.proto_messages import (
    CONTRACT_TYPES,
    HOSTILE_VALUES,
    json_paths,
    messages,
    nested,
    real_apply_calls,
    replaced,
)

FAST = settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TYPE_IDS = [t.DESCRIPTOR.name for t in CONTRACT_TYPES]


def canonical(message: Message) -> bytes:
    return message.SerializeToString(deterministic=True)


def outcome(parse: Any) -> tuple[str, Any]:
    """A parse's result, comparable: the message's bytes, or the exception's type and text."""
    try:
        return "message", canonical(parse())
    except Exception as error:
        return type(error).__name__, str(error)


def same_outcome(value: Any, message_class: type[Message]) -> None:
    ours = outcome(lambda: proto_json.from_object(copy.deepcopy(value), message_class))
    theirs = outcome(lambda: json_format.ParseDict(copy.deepcopy(value), message_class()))
    assert ours == theirs


@pytest.fixture(scope="module")
def real_calls() -> list[tuple[pb.ApplyActionRequest, pb.ApplyActionResponse]]:
    return real_apply_calls()


@pytest.mark.parametrize("message_class", CONTRACT_TYPES, ids=TYPE_IDS)
@FAST
@given(data=st.data())
def test_encoding_writes_json_formats_bytes(message_class: type[Message], data: st.DataObject) -> None:
    message = data.draw(messages(message_class.DESCRIPTOR))
    assert CompactJsonCodec().encode(message) == json_format.MessageToJson(message, indent=None).encode()


@pytest.mark.parametrize("message_class", CONTRACT_TYPES, ids=TYPE_IDS)
@FAST
@given(data=st.data())
def test_decoding_reads_json_as_json_format_does(message_class: type[Message], data: st.DataObject) -> None:
    message = data.draw(messages(message_class.DESCRIPTOR))
    value = json_format.MessageToDict(message)
    same_outcome(value, message_class)
    # Proto field names are read too.
    same_outcome(json_format.MessageToDict(message, preserving_proto_field_name=True), message_class)


@pytest.mark.parametrize("message_class", CONTRACT_TYPES, ids=TYPE_IDS)
@FAST
@given(data=st.data())
def test_hostile_json_gets_json_formats_message_or_refusal(message_class: type[Message], data: st.DataObject) -> None:
    value = json_format.MessageToDict(data.draw(messages(message_class.DESCRIPTOR)))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(json_paths(value)))
        value = replaced(value, path, data.draw(st.sampled_from(HOSTILE_VALUES)))
    same_outcome(value, message_class)


@pytest.mark.parametrize("message_class", CONTRACT_TYPES, ids=TYPE_IDS)
@FAST
@given(data=st.data())
def test_a_field_named_by_both_names_or_unknown_keys_get_json_formats_outcome(
    message_class: type[Message], data: st.DataObject
) -> None:
    message = data.draw(messages(message_class.DESCRIPTOR))
    both = json_format.MessageToDict(message)
    both.update(
        json_format.MessageToDict(data.draw(messages(message_class.DESCRIPTOR)), preserving_proto_field_name=True)
    )
    same_outcome(both, message_class)
    same_outcome({**json_format.MessageToDict(message), data.draw(st.text(max_size=8)): 1}, message_class)


def test_two_members_of_one_oneof_are_refused_as_json_format_refuses_them() -> None:
    value = {"state": {}, "sealedState": "YWJj"}
    same_outcome(value, pb.ApplyActionRequest)
    with pytest.raises(json_format.ParseError, match="oneof"):
        proto_json.from_object(value, pb.ApplyActionRequest)


def test_an_empty_object_still_sets_a_message_field() -> None:
    message = proto_json.from_object({"state": {}}, pb.ApplyActionRequest)
    assert message.HasField("state")


def test_sixty_four_bit_integers_are_written_as_strings_and_read_from_strings_or_numbers() -> None:
    message = pb.ApplyActionRequest(expected_step=2**64 - 1, reply_seeds=[0, 7])
    written = json.loads(proto_json.to_json(message))
    assert written["expectedStep"] == str(2**64 - 1) and written["replySeeds"] == ["0", "7"]
    for spelling in (str(2**64 - 1), 2**64 - 1):
        assert proto_json.from_object({"expectedStep": spelling}, pb.ApplyActionRequest) == message.__class__(
            expected_step=2**64 - 1
        )


@pytest.mark.parametrize(
    "value",
    [
        {"expectedStep": "1_0"},
        {"expectedStep": " 10"},
        {"seat": "3"},
        {"seat": 3.0},
        {"seat": 2**32},
        {"seat": None},
        {"action": None},
        {"replyBots": {"01": {}, "1": {}}},
        {"replyBots": {"-0": {}}},
        {"replyBots": {"x": {}}},
        {"replyBots": []},
        {"sealedState": "not base64!"},
        {"sealedState": "YW-_"},
        {"seatKey": "\ud800"},
        {"seatKey": 5},
        {"validateOnly": "true"},
        {"action": []},
        {"action": "x"},
        {"audiences": {}},
        {"audiences": [None]},
        nested(150, "state"),
    ],
)
def test_unusual_spellings_get_json_formats_outcome(value: Any) -> None:
    same_outcome(value, pb.ApplyActionRequest)


def reachable_types() -> list[Descriptor]:
    found: dict[str, Descriptor] = {}
    pending = [t.DESCRIPTOR for t in CONTRACT_TYPES]
    while pending:
        descriptor = pending.pop()
        if descriptor.full_name not in found:
            found[descriptor.full_name] = descriptor
            pending += [f.message_type for f in descriptor.fields if f.message_type is not None]
    return list(found.values())


def test_enums_unknown_to_the_descriptor_are_written_as_numbers_and_numbers_are_read() -> None:
    enum_fields = [
        (GetMessageClass(d), f)
        for d in reachable_types()
        for f in d.fields
        if f.enum_type is not None and not f.is_repeated and f.containing_oneof is None
    ]
    assert enum_fields, "the contract has enum fields"
    for message_class, field in enum_fields:
        assert field.enum_type is not None
        unnamed = message_class(**{field.name: 99})
        assert proto_json.to_json(unnamed) == json_format.MessageToJson(unnamed, indent=None)
        same_outcome({field.json_name: 99}, message_class)
        same_outcome({field.json_name: field.enum_type.values[-1].name}, message_class)


def test_floats_are_written_in_json_formats_shortest_form() -> None:
    observation = pb.ApplyActionResponse().observation.__class__(values=[0.1, 1 / 3, 3e38, -0.0, 1e-45, float("inf")])
    assert proto_json.to_json(observation) == json_format.MessageToJson(observation, indent=None)


def test_real_mid_game_calls_encode_and_decode_as_json_format_does(
    real_calls: list[tuple[pb.ApplyActionRequest, pb.ApplyActionResponse]],
) -> None:
    codec = CompactJsonCodec()
    for request, response in real_calls:
        for message in (request, response):
            data = codec.encode(message)
            assert data == json_format.MessageToJson(message, indent=None).encode()
            assert canonical(codec.decode(data, type(message))) == canonical(message)


def test_real_mid_game_calls_take_the_fast_path(
    real_calls: list[tuple[pb.ApplyActionRequest, pb.ApplyActionResponse]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("json_format was asked")

    codec = CompactJsonCodec()
    encoded = [(codec.encode(message), type(message)) for call in real_calls for message in call]
    monkeypatch.setattr(json_format, "ParseDict", refused)
    monkeypatch.setattr(json_format, "MessageToJson", refused)
    for call in real_calls:
        for message in call:
            codec.encode(message)
    for data, message_class in encoded:
        codec.decode(data, message_class)


def test_a_refusal_is_the_runtimes_invalid_argument_with_json_formats_words() -> None:
    data = b'{"seat": "three"}'
    with pytest.raises(ConnectError) as refused:
        Undecoded(data, pb.ApplyActionRequest, CompactJsonCodec()).decode()
    with pytest.raises(json_format.ParseError) as theirs:
        json_format.ParseDict(json.loads(data), pb.ApplyActionRequest())
    assert refused.value.code == Code.INVALID_ARGUMENT
    assert refused.value.message == f"unmarshal message: {theirs.value}"


@pytest.mark.parametrize("data", [b"[]", b"null", b"3", b'"x"'])
def test_a_root_that_is_not_an_object_is_refused(data: bytes) -> None:
    with pytest.raises(ConnectError) as refused:
        Undecoded(data, pb.ApplyActionRequest, CompactJsonCodec()).decode()
    assert refused.value.code == Code.INVALID_ARGUMENT
