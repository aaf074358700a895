"""The bounds of the calls whose work and answer grow with their input: ReplayGame, GetPlayerView and
BatchApplyActions, and which calls are expensive (``is_expensive``): those the transports run in their own
few slots.

Every other request is bounded by the largest request the transport accepts and by the state's
own bounds (``engine_service.codec.bounds``), and its answer by the state and one move's events.
"""

from __future__ import annotations

from typing import Any, Final

from google.protobuf.message import Message
from splendor.v1 import engine_service_pb2

from engine_service.bots import is_search_policy

from .call import Call
from .errors import BATCH_TOO_LARGE, REPLAY_TOO_LONG, RESPONSE_TOO_LARGE, refusal


def check_length(request: engine_service_pb2.ReplayGameRequest, call: Call) -> None:
    """REPLAY_TOO_LONG for more actions than the service replays, before any of them is read."""
    bound = call.settings.max_replay_actions
    count = len(request.actions)
    if count > bound:
        message = f"{count} actions: the service replays at most {bound} (far more than any game lasts)"
        raise refusal(REPLAY_TOO_LONG, message, field="actions", metadata={"actions": str(count), "limit": str(bound)})


def check_items(request: engine_service_pb2.BatchApplyActionsRequest, call: Call) -> None:
    """BATCH_TOO_LARGE for more items than the service takes in one call, before any of them is read."""
    bound = call.settings.max_batch_items
    count = len(request.requests)
    if count > bound:
        message = f"{count} items: the service takes at most {bound} a call (Catalog.limits): split the batch"
        raise refusal(BATCH_TOO_LARGE, message, field="requests", metadata={"items": str(count), "limit": str(bound)})


def check_size(response: Message, call: Call, field: str) -> None:
    """RESPONSE_TOO_LARGE once ``response`` (still being written) exceeds the largest message the service sends;
    a finished response is measured by ``encoding.encoded``, which keeps the bytes it measured."""
    check_bytes(response.ByteSize(), call, field)


def check_bytes(size: int, call: Call, field: str) -> None:
    """RESPONSE_TOO_LARGE (the request field at fault: ``field``) for a response of ``size`` bytes over the limit."""
    limit = call.settings.max_response_bytes
    if size > limit:
        message = f"the response would exceed {limit} bytes, the largest message the service sends"
        raise refusal(RESPONSE_TOO_LARGE, message, field=field, metadata={"limit": str(limit)})


# Calls whose cost grows with a count the caller picks (playouts, actions): always expensive.
EXPENSIVE_METHODS: Final = frozenset({"Simulate", "ReplayGame"})
# A view redacting more events than this takes tens of milliseconds or more (1 MiB of events: seconds).
EXPENSIVE_VIEW_EVENTS: Final = 5_000


def is_expensive(method: str, request: Any) -> bool:
    """Can this call take far more than a move's worth of CPU: Simulate, ReplayGame, a server-side search
    move, a view of many events, a batch with any search move? (A request that is not a
    message, e.g. undecodable bytes, is cheap.)"""
    if method in EXPENSIVE_METHODS:
        return True
    if not isinstance(request, Message):
        return False
    if method == "ApplyAction":
        return searches(request)  # type: ignore[arg-type]
    if method == "GetPlayerView":
        return len(request.events) > EXPENSIVE_VIEW_EVENTS  # type: ignore[attr-defined]
    if method == "BatchApplyActions":
        # Its moves cost ~100-200 µs each: even --max-batch-items of them are tens of milliseconds, the cost of a
        # large view, not the seconds of a search (an expensive place taken by a learner's batch would refuse the
        # next one, and two vector environments would refuse each other).
        return any(map(searches, request.requests))  # type: ignore[attr-defined]
    return False


def searches(request: engine_service_pb2.ApplyActionRequest) -> bool:
    """Does this ApplyAction request ask for a server-side search move?"""
    return request.HasField("bot") and is_search_policy(request.bot.policy)
