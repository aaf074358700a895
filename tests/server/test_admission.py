"""Admission: the engine-call limit and the lanes of the server's thread pool."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future

from engine_service.server.admission import ADMITTED, LIGHT, Admission, LaneExecutor, on_lane


def _behavior() -> None:
    pass


def _grpc_like_submit(executor: LaneExecutor, work: Callable[[], object], behavior: object) -> Future[object]:
    """The argument shape gRPC submits: (context.run, in_pool, event, state, behaviour, ...)."""
    return executor.submit(lambda _in_pool, _event, _state, _behavior: work(), None, None, None, behavior)


def test_admission_refuses_beyond_the_limit_until_a_place_is_released() -> None:
    admission = Admission(2)
    assert [admission.try_admit() for _ in range(3)] == [True, True, False]
    admission.release()
    assert admission.try_admit()
    assert Admission(None).try_admit()


def test_admitted_work_releases_its_place_when_it_ends_even_by_failing() -> None:
    admission = Admission(1)
    executor = LaneExecutor(1, admission)
    try:
        assert admission.try_admit()

        def fail() -> None:
            raise RuntimeError("boom")

        future = _grpc_like_submit(executor, fail, on_lane(lambda: None, ADMITTED))
        assert future.exception(timeout=5) is not None
        executor.submit(lambda: None).result(timeout=5)  # callbacks ran before the next item
        assert admission.active == 0
    finally:
        executor.shutdown()


def test_light_work_runs_while_every_handler_thread_is_busy() -> None:
    executor = LaneExecutor(1, Admission(1))
    release = threading.Event()
    try:
        busy = _grpc_like_submit(executor, lambda: release.wait(10), _behavior)
        probe = _grpc_like_submit(executor, lambda: "answered", on_lane(lambda: None, LIGHT))
        assert probe.result(timeout=5) == "answered"
        assert not busy.done()
    finally:
        release.set()
        executor.shutdown()
