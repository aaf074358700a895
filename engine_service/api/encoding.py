"""A handler's finished response in wire bytes, serialized once: measured, its new plain states remembered, sent.

Protobuf measures a message by serializing it, a transport serializes it again to send it, and a
plain ApplyAction serialized its new state once more for the memo (``state_memo.py``), whose key is
the bytes the game's next call brings back. ``encoded`` serializes the response once: its size is
checked against the largest message the service sends, each new plain state it carries is
remembered under its own bytes read from the response's (``codec.wire``), and ``Method.encode``
hands the same bytes to the transport.
"""

from __future__ import annotations

from typing import Final

from google.protobuf.message import Message
from splendor.v1 import engine_service_pb2

from engine_service.codec.wire import field_spans, single_field

from .call import Call
from .limits import check_bytes


def _number(message: type[Message], field: str) -> int:
    return int(message.DESCRIPTOR.fields_by_name[field].number)


_ANSWER_STATE: Final = _number(engine_service_pb2.ApplyActionResponse, "state")
_RESULTS: Final = _number(engine_service_pb2.BatchApplyActionsResponse, "results")
_RESULT_RESPONSE: Final = _number(engine_service_pb2.BatchApplyActionsResult, "response")


def encoded(response: Message, call: Call, limit_field: str | None = None) -> None:
    """``response``, finished and returned as it is, in wire bytes, kept on ``call`` for the transport.

    ``limit_field``: RESPONSE_TOO_LARGE (pointing at that request field) when the bytes exceed the largest
    message the service sends, before anything is remembered. Then the plain states the call answered (its
    own, or its items') get their sizes, and are remembered when new."""
    data = response.SerializeToString()
    if limit_field is not None:
        check_bytes(len(data), call, limit_field)
    call.encoded_response = (response, data)
    if call.answered_state is not None:
        _answered(call, data, 0, len(data))
    items = call.item_calls
    if items:
        spans = field_spans(data, _RESULTS)
        if spans is not None and len(spans) == len(items):  # one result per item, in order (written so)
            for item, (start, end) in zip(items, spans):
                if item.answered_state is not None and item.refusal_code is None:
                    inner = single_field(data, _RESULT_RESPONSE, start, end)
                    if inner is not None:
                        _answered(item, data, inner[0], inner[1])


def _answered(call: Call, data: bytes, start: int, end: int) -> None:
    """The ApplyActionResponse in ``data[start:end]``: its state's size, and the state remembered under its bytes."""
    span = single_field(data, _ANSWER_STATE, start, end)
    if span is None:  # every plain answer carries its state once: nothing to measure or remember otherwise
        return
    key = data[span[0] : span[1]]
    call.state_bytes = len(key)
    state = call.answered_state
    if call.remember_answered and state is not None:
        call.settings.memo.plain.put(key, state, replacing=call.replaced_key)
