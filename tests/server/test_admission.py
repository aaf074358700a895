"""Admission: the engine-call limit and the lanes of the server's thread pool."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future

from engine_service.runtime.admission import ADMITTED, EXPENSIVE, LIGHT, Admission, LaneExecutor, on_lane


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


# Expensive calls: slots of their own, shared by the transports.


def test_expensive_slots_refuse_at_once_without_a_wait_and_free_on_release() -> None:
    admission = Admission(10, expensive=1)
    assert admission.take_expensive_slot()
    assert not admission.take_expensive_slot()
    admission.release_expensive_slot()
    assert admission.take_expensive_slot()


def test_a_queued_expensive_call_takes_the_slot_as_soon_as_it_frees() -> None:
    admission = Admission(10, expensive=1)
    assert admission.take_expensive_slot()
    taken: list[bool] = []
    waiter = threading.Thread(target=lambda: taken.append(admission.take_expensive_slot(lambda: True)))
    waiter.start()
    waiter.join(timeout=0.2)
    assert waiter.is_alive(), "it waits while the slot is taken"
    admission.release_expensive_slot()
    waiter.join(timeout=5)
    assert taken == [True]


def test_a_queued_expensive_call_gives_up_when_its_caller_stops_waiting() -> None:
    admission = Admission(10, expensive=1)
    assert admission.take_expensive_slot()
    caller_waits = threading.Event()
    caller_waits.set()
    taken: list[bool] = []
    waiter = threading.Thread(target=lambda: taken.append(admission.take_expensive_slot(caller_waits.is_set)))
    waiter.start()
    caller_waits.clear()
    waiter.join(timeout=5)
    assert taken == [False] and admission.expensive_running == 1


def test_expensive_places_are_the_slots_and_the_queue_and_beyond_them_calls_are_refused() -> None:
    # Rule: at most --expensive-calls run and --expensive-queue more wait; the rest are refused at once.
    admission = Admission(10, expensive=1, expensive_queue=2)
    assert [admission.try_enter_expensive() for _ in range(4)] == [True, True, True, False]
    admission.leave_expensive()
    assert admission.try_enter_expensive()
    assert admission.active == 0, "expensive calls never take a cheap call's place"


def test_an_expensive_place_is_given_back_when_its_lane_work_ends_however_it_ends() -> None:
    admission = Admission(10, expensive=1, expensive_queue=0)
    executor = LaneExecutor(1, admission)
    try:
        assert admission.try_enter_expensive()

        def fail() -> None:
            raise RuntimeError("boom")

        future = _grpc_like_submit(executor, fail, on_lane(lambda: None, EXPENSIVE))
        assert future.exception(timeout=5) is not None
        executor.submit(lambda: None).result(timeout=5)
        assert admission.expensive_entered == 0 and admission.try_enter_expensive()
    finally:
        executor.shutdown()


def test_expensive_lane_work_runs_while_every_cheap_thread_is_busy() -> None:
    admission = Admission(10, expensive=1)
    executor = LaneExecutor(1, admission)
    release = threading.Event()
    try:
        busy = _grpc_like_submit(executor, lambda: release.wait(10), on_lane(lambda: None, ADMITTED))
        expensive = _grpc_like_submit(executor, lambda: "ran", on_lane(lambda: None, EXPENSIVE))
        assert expensive.result(timeout=5) == "ran"
        assert not busy.done()
    finally:
        release.set()
        executor.shutdown()


def test_work_grpc_dropped_before_it_ran_is_reported_with_its_deadline() -> None:
    admission = Admission(10)
    executor = LaneExecutor(1, admission)
    reported: list[float | None] = []
    try:
        behavior = on_lane(lambda: None, ADMITTED, unserved=reported.append)
        _grpc_like_submit(executor, lambda: None, behavior).result(timeout=5)
        executor.submit(lambda: None).result(timeout=5)  # callbacks ran before the next item
        assert reported == [None]  # no gRPC request event here: no deadline known
    finally:
        executor.shutdown()


# What the probes are told.


def test_saturation_is_reported_once_when_refusing_and_once_when_room_returns() -> None:
    reports: list[bool] = []
    admission = Admission(1, on_saturation=reports.append)
    assert admission.try_admit()
    assert not admission.try_admit() and not admission.try_admit()
    assert reports == [True]
    admission.release()
    assert reports == [True, False]


def test_stuck_only_when_calls_are_admitted_and_none_ended_for_the_period() -> None:
    admission = Admission(2)
    assert not admission.stuck(0.0), "idle is not stuck"
    assert admission.try_admit()
    assert admission.stuck(0.0) and not admission.stuck(60.0)
    admission.release()
    assert not admission.stuck(0.0)


def test_a_refusal_by_the_http_edge_reports_saturation_too() -> None:
    reports: list[bool] = []
    admission = Admission(1, on_saturation=reports.append)
    assert admission.try_admit()
    admission.refused()
    admission.refused()
    admission.release()
    assert reports == [True, False]
