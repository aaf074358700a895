"""The ``Call`` a handler consults in its loops: the caller's deadline, the server's budget and a
transport's cancellation, whichever comes first."""

from __future__ import annotations

import time

from engine_service.api import Call


def test_a_call_without_deadline_or_budget_goes_on() -> None:
    call = Call("Simulate")
    assert call.is_active() and call.time_remaining() is None and not call.deadline_passed()


def test_the_servers_budget_bounds_a_call_without_a_deadline() -> None:
    call = Call("Simulate", budget_seconds=0.05)
    remaining = call.time_remaining()
    assert remaining is not None and 0 < remaining <= 0.05 and call.is_active()
    spent = Call("Simulate", budget_seconds=0.05, budget_from=time.monotonic() - 0.06)  # started 60 ms ago
    assert not spent.is_active() and spent.deadline_passed()


def test_the_earlier_of_the_callers_deadline_and_the_budget_wins() -> None:
    sooner = Call("ApplyAction", time_remaining=lambda: 0.5, budget_seconds=10)
    assert sooner.time_remaining() == 0.5
    later = Call("ApplyAction", time_remaining=lambda: 30.0, budget_seconds=1)
    remaining = later.time_remaining()
    assert remaining is not None and remaining <= 1


def test_a_cancelled_call_stops_and_is_not_a_deadline() -> None:
    call = Call("Simulate", time_remaining=lambda: -1.0, budget_seconds=10)
    call.cancel()
    assert not call.is_active() and not call.deadline_passed()


def test_a_caller_that_left_stops_the_call() -> None:
    call = Call("ReplayGame", is_active=lambda: False, time_remaining=lambda: 5.0)
    assert not call.is_active() and not call.deadline_passed()
