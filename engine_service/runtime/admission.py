"""Admission: the per-process limits on engine calls, cheap and expensive, and a lane of threads for probes.

gRPC's own ``maximum_concurrent_rpcs`` counts every call, health checks included, so under
saturation a liveness probe is refused and the orchestrator restarts a healthy process. The
server therefore leaves gRPC's limit off and applies its own, to the engine's calls only:

- cheap calls: at most ``--max-concurrent-rpcs`` admitted at once (running or waiting for one of
  the ``--threads`` threads); the gRPC interceptor admits a call when it is dispatched, in gRPC's
  serving thread, or refuses it at once with RESOURCE_EXHAUSTED, before any request is read;
- expensive calls (Simulate, ReplayGame, a server-side search move, a view of many events) have
  an admission of their own, shared by every transport and never taking a cheap call's place:
  at most ``--expensive-calls`` run at once and at most ``--expensive-queue`` more wait for a
  slot, the rest are refused at once (RESOURCE_EXHAUSTED, reason ``MAX_EXPENSIVE_CALLS``). A
  call's wait for a slot counts in its deadline and in the server's budget (``--max-call-seconds``);
- health and reflection calls are never counted nor refused;
- ``LaneExecutor``, the gRPC server's thread pool, runs unary health checks on a small lane of their
  own and the refusals on another, so health checks never wait behind engine calls, nor behind a
  flood of calls refused at once; the methods
  expensive by name on the EXPENSIVE lane, threads of their own (one per place, so a queued call
  waits for its slot on its own thread); and gives an admitted call's place back when its work
  item ends, however it ends (a call cancelled before its handler ran included: the interceptor
  counts it, ``expired_in_queue``). A gRPC call found expensive only by its content (a search
  move, a large view) is already on a cheap thread: it takes a free slot at once or is refused,
  never waiting there. The HTTP listener runs every expensive call on threads of its own.

The interceptor marks each handler's behaviour with its lane (``on_lane``); the executor
finds the behaviour among the arguments gRPC submits.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final, TypeVar

from google.protobuf.message import Message

from engine_service.api import ApiError, Call, Method, invoke
from engine_service.api.errors import abandoned, busy
from engine_service.api.limits import is_expensive

from .settings import DEFAULT_EXPENSIVE_QUEUE, Settings

# Lanes: LIGHT runs on the probe threads; ADMITTED counts against the limit until it ends; EXPENSIVE
# too, on threads of its own.
LIGHT: Final = "light"
# Refusals run on threads of their own: a flood of refused calls (callers re-sending at once) must never
# queue the health checks behind it.
REFUSED: Final = "refused"
ADMITTED: Final = "admitted"
EXPENSIVE: Final = "expensive"
# How often a call waiting for an expensive slot checks that its caller still waits.
_SLOT_POLL_SECONDS: Final = 0.05
# The log reason of an expensive call refused for want of a slot.
EXPENSIVE_CALLS: Final = "MAX_EXPENSIVE_CALLS"
EXPENSIVE_BUSY_MESSAGE: Final = (
    "the server runs {slots} expensive call(s) at once, {queue} more may wait, and every place is taken: retry later"
)
# Threads for the light lane: health checks and refusals take microseconds.
LIGHT_THREADS: Final = 2
REFUSAL_MESSAGE: Final = "Concurrent RPC limit exceeded!"  # gRPC's own words for the same refusal
_LANE: Final = "_splendor_lane"
_UNSERVED: Final = "_splendor_unserved"
# Where gRPC puts the behaviour in ``thread_pool.submit(context.run, in_pool, event, state, behaviour, ...)``.
_BEHAVIOR_INDEX: Final = 3

Behavior = TypeVar("Behavior", bound=Callable[..., Any])
Response = TypeVar("Response", bound=Message)


class Admission:
    """At most ``limit`` cheap engine calls admitted at once (running or waiting for a thread); None: no limit.

    Expensive calls have their own admission, shared by every transport (they never take a cheap place):
    at most ``expensive`` run at once and at most ``expensive_queue`` more wait for a slot; any beyond are
    refused at once (``try_enter_expensive``). A call that entered takes a slot (``take_expensive_slot``),
    gives it back (``release_expensive_slot``) and leaves (``leave_expensive``) once it ends, however.

    It also tells the probes how the process is: ``on_saturation(True)`` when a call is refused for the
    limit, ``on_saturation(False)`` once a place is free again (readiness); ``stuck`` when calls are
    admitted and none has ended for a long time (liveness).
    """

    def __init__(
        self,
        limit: int | None,
        expensive: int = 1,
        on_saturation: Callable[[bool], None] | None = None,
        *,
        expensive_queue: int = DEFAULT_EXPENSIVE_QUEUE,
    ) -> None:
        self.limit = limit
        self.active = 0
        self.expensive = expensive
        self.expensive_queue = expensive_queue
        self.expensive_running = 0
        self.expensive_entered = 0  # running or waiting for a slot
        self.on_saturation = on_saturation
        self.saturated = False
        self._progress = time.monotonic()  # when a call last ended, or the first was admitted
        self._lock = threading.Lock()
        self._slot_freed = threading.Condition(self._lock)

    def try_admit(self) -> bool:
        if self.limit is None:
            return True
        with self._lock:
            if self.active < self.limit:
                if not self.active:
                    self._progress = time.monotonic()
                self.active += 1
                return True
        self.refused()
        return False

    def full(self) -> bool:
        """Would a cheap call be refused now? (For refusing before a request's body is read.)"""
        return self.limit is not None and self.active >= self.limit

    def refused(self) -> None:
        """A call was refused for the limit (here, or by the HTTP edge before its body): saturated."""
        with self._lock:
            changed = not self.saturated
            self.saturated = True
        if changed and self.on_saturation is not None:
            self.on_saturation(True)

    def release(self, _done: object = None) -> None:
        if self.limit is None:  # try_admit counted nothing
            return
        with self._lock:
            self.active -= 1
            self._progress = time.monotonic()
            changed = self.saturated and self.active < self.limit
            if changed:
                self.saturated = False
        if changed and self.on_saturation is not None:
            self.on_saturation(False)

    def stuck(self, after_seconds: float) -> bool:
        """Calls are admitted and none has ended for ``after_seconds``: the process makes no progress."""
        busy = self.active > 0 or self.expensive_running > 0
        return busy and time.monotonic() - self._progress > after_seconds

    # Expensive calls.

    def try_enter_expensive(self) -> bool:
        """A place among the expensive calls (running or queued), or False when every place is taken."""
        with self._lock:
            if self.expensive_entered >= self.expensive + self.expensive_queue:
                return False
            self.expensive_entered += 1
            return True

    def leave_expensive(self, _done: object = None) -> None:
        with self._lock:
            self.expensive_entered -= 1

    def take_expensive_slot(self, wait: Callable[[], bool] | None = None) -> bool:
        """One of the ``expensive`` slots: at once, or, with ``wait``, as soon as one frees while ``wait()``
        holds (the caller still waits and the call's budget is not spent). False without a slot."""
        with self._slot_freed:
            while self.expensive_running >= self.expensive:
                if wait is None or not wait():
                    return False
                self._slot_freed.wait(_SLOT_POLL_SECONDS)
            if not self.expensive_running:
                self._progress = time.monotonic()
            self.expensive_running += 1
            return True

    def release_expensive_slot(self) -> None:
        with self._slot_freed:
            self.expensive_running -= 1
            self._progress = time.monotonic()
            self._slot_freed.notify()


def on_lane(behavior: Behavior, lane: str, *, unserved: Callable[[float | None], None] | None = None) -> Behavior:
    """Mark a handler's behaviour with its lane; ``unserved`` runs once its work item ends, with the call's
    deadline (``time.time()`` seconds; None: none), so that the interceptor can count a call gRPC dropped
    before running it (its caller gone while it queued)."""
    setattr(behavior, _LANE, lane)
    if unserved is not None:
        setattr(behavior, _UNSERVED, unserved)
    return behavior


def _unserved_of(args: tuple[Any, ...]) -> Callable[[float | None], None] | None:
    for arg in args:
        unserved = getattr(arg, _UNSERVED, None)
        if unserved is not None:
            return unserved  # type: ignore[no-any-return]
    return None


def _lane_of(args: tuple[Any, ...]) -> str | None:
    if len(args) > _BEHAVIOR_INDEX:
        lane = getattr(args[_BEHAVIOR_INDEX], _LANE, None)
        if lane is not None:
            return str(lane)
    for arg in args:  # another gRPC version may order the arguments differently
        lane = getattr(arg, _LANE, None)
        if lane is not None:
            return str(lane)
    return None


def _deadline_of(args: tuple[Any, ...]) -> float | None:
    """The call's deadline from gRPC's request event (``args[1]``), if this gRPC version exposes it."""
    details = getattr(args[1], "call_details", None) if len(args) > 1 else None
    deadline = getattr(details, "deadline", None)
    if not isinstance(deadline, float) or math.isinf(deadline):
        return None
    return deadline


class LaneExecutor(ThreadPoolExecutor):
    """The server's thread pool: ``max_workers`` threads for cheap calls, ``LIGHT_THREADS`` for the light lane,
    one per expensive place (running or queued) for the EXPENSIVE lane."""

    def __init__(self, max_workers: int, admission: Admission, thread_name_prefix: str = "engine") -> None:
        super().__init__(max_workers=max_workers, thread_name_prefix=thread_name_prefix)
        self._light = ThreadPoolExecutor(max_workers=LIGHT_THREADS, thread_name_prefix=f"{thread_name_prefix}-probe")
        self._refused = ThreadPoolExecutor(max_workers=LIGHT_THREADS, thread_name_prefix=f"{thread_name_prefix}-refuse")
        self._expensive = ThreadPoolExecutor(
            max_workers=admission.expensive + admission.expensive_queue,
            thread_name_prefix=f"{thread_name_prefix}-expensive",
        )
        self._admission = admission

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        lane = _lane_of(args)
        if lane == LIGHT:
            return self._light.submit(fn, *args, **kwargs)
        if lane == REFUSED:
            return self._refused.submit(fn, *args, **kwargs)
        if lane == EXPENSIVE:
            future = self._expensive.submit(fn, *args, **kwargs)
        else:
            future = super().submit(fn, *args, **kwargs)
        if lane in (ADMITTED, EXPENSIVE):
            future.add_done_callback(self._admission.release if lane == ADMITTED else self._admission.leave_expensive)
            unserved = _unserved_of(args)
            if unserved is not None:
                deadline = _deadline_of(args)
                future.add_done_callback(lambda _done: unserved(deadline))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._light.shutdown(wait, cancel_futures=cancel_futures)
        self._refused.shutdown(wait, cancel_futures=cancel_futures)
        self._expensive.shutdown(wait, cancel_futures=cancel_futures)
        super().shutdown(wait, cancel_futures=cancel_futures)


def invoke_admitted(
    method: Method[Any, Response], request: Any, call: Call, admission: Admission, *, entered: bool
) -> Response:
    """``invoke``; an expensive call (by name or content) in one of ``admission``'s expensive slots.

    ``entered``: the call already holds an expensive place (gRPC's EXPENSIVE lane, the HTTP listener's
    expensive threads): it waits for a slot while its caller waits and its budget lasts. Else a call
    found expensive by its content takes a place and a free slot at once, or is refused RESOURCE_EXHAUSTED
    (reason ``MAX_EXPENSIVE_CALLS`` in its log line) without waiting on the cheap call's thread.
    """
    if not (entered or is_expensive(method.name, request)):
        call.running()
        return invoke(method, request, call)
    if entered:
        if not admission.take_expensive_slot(call.is_active):
            raise abandoned(call.deadline_passed())  # the caller stopped waiting, or the budget ran out, first
        call.running()
        try:
            return invoke(method, request, call)
        finally:
            admission.release_expensive_slot()
    if not admission.try_enter_expensive():
        raise expensive_busy(admission, call)
    try:
        if not admission.take_expensive_slot():
            raise expensive_busy(admission, call)
        call.running()
        try:
            return invoke(method, request, call)
        finally:
            admission.release_expensive_slot()
    finally:
        admission.leave_expensive()


def expensive_busy(admission: Admission, call: Call) -> ApiError:
    """The refusal of an expensive call for which no place (or no slot, for one that may not wait) is free."""
    call.reason = EXPENSIVE_CALLS
    return busy(EXPENSIVE_BUSY_MESSAGE.format(slots=admission.expensive, queue=admission.expensive_queue))


def process_admission(settings: Settings) -> Admission:
    """The limits of one process, for its gRPC and HTTP servers together: cheap calls admitted, expensive places."""
    return Admission(
        settings.max_concurrent_rpcs or None, settings.expensive_calls, expensive_queue=settings.expensive_queue
    )
