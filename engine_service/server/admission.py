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
  its handler ran included).

The interceptor marks each handler's behaviour with its lane (``on_lane``); the executor
finds the behaviour among the arguments gRPC submits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final, TypeVar

# Lanes: LIGHT runs on the probe threads; ADMITTED counts against the limit until it ends.
LIGHT: Final = "light"
ADMITTED: Final = "admitted"
# Threads for the light lane: health checks and refusals take microseconds.
LIGHT_THREADS: Final = 2
REFUSAL_MESSAGE: Final = "Concurrent RPC limit exceeded!"  # gRPC's own words for the same refusal
_LANE: Final = "_splendor_lane"
# Where gRPC puts the behaviour in ``thread_pool.submit(context.run, in_pool, event, state, behaviour, ...)``.
_BEHAVIOR_INDEX: Final = 3

Behavior = TypeVar("Behavior", bound=Callable[..., Any])


class Admission:
    """At most ``limit`` engine calls admitted at once (running or waiting for a thread); None: no limit."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.active = 0
        self._lock = threading.Lock()

    def try_admit(self) -> bool:
        if self.limit is None:
            return True
        with self._lock:
            if self.active >= self.limit:
                return False
            self.active += 1
            return True

    def release(self, _done: object = None) -> None:
        with self._lock:
            self.active -= 1


def on_lane(behavior: Behavior, lane: str) -> Behavior:
    """Mark a handler's behaviour with its lane."""
    setattr(behavior, _LANE, lane)
    return behavior


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


class LaneExecutor(ThreadPoolExecutor):
    """The server's thread pool: ``max_workers`` threads for calls, ``LIGHT_THREADS`` for the light lane."""

    def __init__(self, max_workers: int, admission: Admission, thread_name_prefix: str = "engine") -> None:
        super().__init__(max_workers=max_workers, thread_name_prefix=thread_name_prefix)
        self._light = ThreadPoolExecutor(max_workers=LIGHT_THREADS, thread_name_prefix=f"{thread_name_prefix}-probe")
        self._admission = admission

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        lane = _lane_of(args)
        if lane == LIGHT:
            return self._light.submit(fn, *args, **kwargs)
        future = super().submit(fn, *args, **kwargs)
        if lane == ADMITTED:
            future.add_done_callback(self._admission.release)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._light.shutdown(wait, cancel_futures=cancel_futures)
        super().shutdown(wait, cancel_futures=cancel_futures)
