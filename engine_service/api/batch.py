"""BatchApplyActions: many ApplyAction requests in one call, each answered as ApplyAction would answer it alone.

An item is an ``ApplyActionRequest`` and runs through ApplyAction's own function (``apply.answer``)
with a ``Call`` of its own (``Call.item``): the same checks, seat keys, memo and bots, nothing shared
with the other items but the server's config and the caller's deadline. Its result is that function's
response, written straight into the batch's response, or its refusal as the ``google.rpc.Status``
ApplyAction would have failed with (``error_status``), so one bad item never fails the others.

The call itself is refused only for what no item causes alone: more items than the server takes
(BATCH_TOO_LARGE, before any is read), an answer over the largest message the server sends
(RESPONSE_TOO_LARGE), a caller that stopped waiting (checked before the first item and every
``CHECK_CALLER_EVERY`` items after it).
"""

from __future__ import annotations

from typing import Final

import structlog
from splendor.v1 import engine_service_pb2

from engine_service.codec.wire import field_spans

from .apply import answer
from .call import Call
from .encoding import encoded
from .error_status import status_message
from .errors import ApiError, abandoned, internal_error
from .limits import check_items

log = structlog.get_logger(__name__)

ITEM_METHOD = "ApplyAction"
_REQUESTS: Final = engine_service_pb2.BatchApplyActionsRequest.DESCRIPTOR.fields_by_name["requests"].number
# Items between two checks that the caller still waits: a check asks gRPC (a lock) and the clock, ~1 % of a
# bot's item; 8 items are a few milliseconds at most, against seconds of a search (which checks on its own).
CHECK_CALLER_EVERY = 8


def batch_apply_actions(
    request: engine_service_pb2.BatchApplyActionsRequest, call: Call
) -> engine_service_pb2.BatchApplyActionsResponse:
    check_items(request, call)
    items = request.requests
    call.items = len(items)
    # Each item's bytes as received, for its plain state's memo key (``source.received_state``), when the transport
    # kept the call's.
    received = call.request_bytes
    spans = field_spans(received, _REQUESTS) if received else None
    if spans is not None and len(spans) != len(items):  # cannot be: the parser read one item an occurrence
        spans = None
    response = engine_service_pb2.BatchApplyActionsResponse()
    results = response.results
    item_calls = []
    refused = 0
    for index, item in enumerate(items):
        if not index % CHECK_CALLER_EVERY and not call.is_active():
            raise abandoned(call.deadline_passed())
        item_call = call.item(ITEM_METHOD)
        if spans is not None:
            start, end = spans[index]
            item_call.request_bytes = received[start:end]
        result = results.add()
        try:
            answer(item, item_call, result.response)
            result.response.SetInParent()  # set even if it were empty: the item was answered
        except Exception as raised:
            if isinstance(raised, ApiError):
                error = raised
            else:  # a bug: logged in full, this item alone gets a bare INTERNAL
                log.exception("handler_failed", handler="apply_action", item=index)
                error = internal_error()
            item_call.reason, item_call.refusal_code = error.reason, error.code.name
            result.error.CopyFrom(status_message(error))  # the response part written, if any, goes with the oneof
            refused += 1
        item_calls.append(item_call)
    call.items_refused = refused
    call.item_calls = tuple(item_calls)
    encoded(response, call, limit_field="requests")
    return response
