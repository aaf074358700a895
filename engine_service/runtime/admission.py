"""Admission: the per-process limit on concurrent engine calls, and a lane of threads for probes.

gRPC's own ``maximum_concurrent_rpcs`` counts every call, health checks included, so under
saturation a liveness probe is refused and the orchestrator restarts a healthy process. The
server therefore leaves gRPC's limit off and applies its own, to the engine's calls only:

- the interceptor admits a call (``Admission.try_admit``) when it is dispatched, in gRPC's
  serving thread, or refuses it at once with RESOURCE_EXHAUSTED, before any request is read;
- health and reflection calls are never counted nor refused;
- ``LaneExecutor``, the server's thread pool, runs unary health checks and the refusals on a
  small lane of their own, so they never wait behind engine calls for a thread, and releases
  an admitted call's place when its work item ends, however it ends (a call cancelled before
  its handler ran included: the interceptor counts it, ``expired_in_queue``);
- expensive calls take one of ``expensive`` slots shared by every transport. Over gRPC, the
  methods expensive by name (Simulate, ReplayGame) queue on the EXPENSIVE lane, threads of their
  own, and wait there for a slot while their caller waits; over HTTP, where a call holds its
  connection's thread, an expensive call (by name or by content: a search move, a view of many
  events) finds a slot at once or is refused RESOURCE_EXHAUSTED. Either way cheap calls keep
  ``--threads`` threads that expensive ones never take.

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

from engine_service.api import Call, Method, invoke
from engine_service.api.errors import abandoned, busy
from engine_service.api.limits import EXPENSIVE_METHODS, is_expensive

from .settings import Settings

# Lanes: LIGHT runs on the probe threads; ADMITTED counts against the limit until it ends; EXPENSIVE
# too, on threads of its own.
LIGHT: Final = "light"
ADMITTED: Final = "admitted"
EXPENSIVE: Final = "expensive"
# How often a call waiting for an expensive slot checks that its caller still waits.
_SLOT_POLL_SECONDS: Final = 0.05
# The log reason of an expensive call refused for want of a slot.
EXPENSIVE_CALLS: Final = "MAX_EXPENSIVE_CALLS"
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
    """At most ``limit`` engine calls admitted at once (running or waiting for a thread); None: no limit.
    Of those, at most ``expensive`` expensive calls run at once (``try_expensive``), over every transport.

    It also tells the probes how the process is: ``on_saturation(True)`` when a call is refused for the
    limit, ``on_saturation(False)`` once a place is free again (readiness); ``stuck`` when calls are
    admitted and none has ended for a long time (liveness).
    """

    def __init__(
        self, limit: int | None, expensive: int = 1, on_saturation: Callable[[bool], None] | None = None
    ) -> None:
        self.limit = limit
        self.active = 0
        self.expensive = expensive
        self.expensive_running = 0
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
        return self.active > 0 and time.monotonic() - self._progress > after_seconds

    def try_expensive(self, wait: Callable[[], bool] | None = None) -> bool:
        """Take a slot for an expensive call: at once, or, with ``wait``, as soon as one frees while
        ``wait()`` holds (the caller still waits). False without a slot."""
        with self._slot_freed:
            while self.expensive_running >= self.expensive:
                if wait is None or not wait():
                    return False
                self._slot_freed.wait(_SLOT_POLL_SECONDS)
            self.expensive_running += 1
            return True

    def release_expensive(self) -> None:
        with self._slot_freed:
            self.expensive_running -= 1
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
    """The server's thread pool: ``max_workers`` threads for calls, ``LIGHT_THREADS`` for the light lane."""

    def __init__(self, max_workers: int, admission: Admission, thread_name_prefix: str = "engine") -> None:
        super().__init__(max_workers=max_workers, thread_name_prefix=thread_name_prefix)
        self._light = ThreadPoolExecutor(max_workers=LIGHT_THREADS, thread_name_prefix=f"{thread_name_prefix}-probe")
        self._expensive = ThreadPoolExecutor(
            max_workers=admission.expensive, thread_name_prefix=f"{thread_name_prefix}-expensive"
        )
        self._admission = admission

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        lane = _lane_of(args)
        if lane == LIGHT:
            return self._light.submit(fn, *args, **kwargs)
        if lane == EXPENSIVE:
            future = self._expensive.submit(fn, *args, **kwargs)
        else:
            future = super().submit(fn, *args, **kwargs)
        if lane in (ADMITTED, EXPENSIVE):
            future.add_done_callback(self._admission.release)
            unserved = _unserved_of(args)
            if unserved is not None:
                deadline = _deadline_of(args)
                future.add_done_callback(lambda _done: unserved(deadline))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._light.shutdown(wait, cancel_futures=cancel_futures)
        self._expensive.shutdown(wait, cancel_futures=cancel_futures)
        super().shutdown(wait, cancel_futures=cancel_futures)


def invoke_admitted(
    method: Method[Any, Response], request: Any, call: Call, admission: Admission, *, queue: bool
) -> Response:
    """``invoke``, an expensive call in one of ``admission``'s slots.

    ``queue`` (gRPC, on the EXPENSIVE lane): the methods expensive by name wait for a slot while their
    caller waits. Else (HTTP): a call expensive by name or content takes a free slot or is refused
    RESOURCE_EXHAUSTED at once (reason ``MAX_EXPENSIVE_CALLS`` in its log line), not holding a thread.
    """
    expensive = method.name in EXPENSIVE_METHODS if queue else is_expensive(method.name, request)
    if not expensive:
        return invoke(method, request, call)
    if not admission.try_expensive(call.is_active if queue else None):
        if queue:  # the caller stopped waiting first
            raise abandoned(call.deadline_passed())
        call.reason = EXPENSIVE_CALLS
        raise busy(f"the server runs {admission.expensive} expensive call(s) at once and they are taken: retry later")
    try:
        return invoke(method, request, call)
    finally:
        admission.release_expensive()


def process_admission(settings: Settings) -> Admission:
    """The limits of one process, for its gRPC and HTTP servers together: engine calls admitted, expensive slots."""
    return Admission(settings.max_concurrent_rpcs or None, settings.expensive_calls)
