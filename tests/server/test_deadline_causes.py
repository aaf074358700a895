"""Whose fault a DEADLINE_EXCEEDED is (engine_service/runtime/deadlines.py): the server's budget, a reasonable
deadline that passed while the call queued in the server, or else the caller's own short deadline."""

from __future__ import annotations

import time

from engine_service.api import Call
from engine_service.api.call import MIN_BLAMED_DEADLINE_SECONDS
from engine_service.runtime.deadlines import CALLER, SERVER_BUDGET, SERVER_QUEUE, queue_cause


def call_with_deadline(allowed: float, *, budget: float | None = None, elapsed: float) -> Call:
    """A call whose caller allowed ``allowed`` seconds, ``elapsed`` seconds ago."""
    created = time.monotonic() - elapsed
    ends = created + allowed
    return Call(
        "Simulate",
        is_active=lambda: time.monotonic() < ends,
        time_remaining=lambda: ends - time.monotonic(),
        budget_seconds=budget,
        budget_from=created,
    )


def test_a_short_deadline_that_passes_while_queued_is_the_callers() -> None:
    call = call_with_deadline(0.02, elapsed=0.05)
    assert call.deadline_cause() == CALLER


def test_a_reasonable_deadline_that_passes_while_queued_is_the_servers() -> None:
    call = call_with_deadline(MIN_BLAMED_DEADLINE_SECONDS + 0.1, elapsed=MIN_BLAMED_DEADLINE_SECONDS + 0.2)
    assert call.deadline_cause() == SERVER_QUEUE


def test_a_deadline_that_passes_while_the_handler_runs_is_the_callers_however_long() -> None:
    call = call_with_deadline(10.0, elapsed=10.5)
    call.running()
    assert call.deadline_cause() == CALLER


def test_the_servers_budget_ending_first_is_the_servers() -> None:
    call = call_with_deadline(10.0, budget=1.0, elapsed=1.5)
    call.running()
    assert call.deadline_cause() == SERVER_BUDGET
    no_deadline = Call("Simulate", budget_seconds=1.0, budget_from=time.monotonic() - 1.5)
    assert no_deadline.deadline_cause() == SERVER_BUDGET


def test_a_call_dropped_in_the_queue_is_blamed_by_how_long_its_caller_allowed() -> None:
    assert queue_cause(None) == CALLER
    assert queue_cause(0.1) == CALLER
    assert queue_cause(MIN_BLAMED_DEADLINE_SECONDS) == SERVER_QUEUE
