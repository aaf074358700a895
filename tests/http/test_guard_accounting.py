"""The edge's count of body bytes in flight, under any interleaving of bodies arriving, being dropped to make
room and ending (hypothesis): it always equals what the bodies being read hold beyond their first
SMALL_BODY_BYTES, stays within BODY_BYTES_IN_FLIGHT once room is made, and returns to zero."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_service.http import guard as guard_module
from engine_service.http.guard import SMALL_BODY_BYTES, Guard, _Dropped
from engine_service.runtime.admission import Admission
from tests.polling import MovableClock

BUDGET = 3 * SMALL_BODY_BYTES
LIMIT = 20 * SMALL_BODY_BYTES

# A body: its chunks' sizes, each delivered after a number of event-loop turns.
chunk = st.tuples(st.integers(0, 3), st.integers(1, 2 * SMALL_BODY_BYTES))
body = st.lists(chunk, min_size=1, max_size=6)


def invariant(guard: Guard) -> None:
    readers: Any = guard._readers
    assert guard.reading_bytes == sum(reader.counted() for reader in readers)
    assert guard.reading_bytes >= 0


async def feed(guard: Guard, chunks: list[tuple[int, int]]) -> bytes | str:
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def produce() -> None:
        for index, (turns, size) in enumerate(chunks):
            for _ in range(turns):
                await asyncio.sleep(0)
            await queue.put({"type": "http.request", "body": b"x" * size, "more_body": index < len(chunks) - 1})

    producer = asyncio.create_task(produce())
    try:
        return await guard._read(queue.get, LIMIT, None)
    except _Dropped as dropped:
        return dropped.reason
    finally:
        producer.cancel()
        invariant(guard)


@settings(max_examples=200, deadline=None)
@given(st.lists(body, min_size=1, max_size=8), st.integers(1, 4))
def test_the_bytes_in_flight_always_match_the_bodies_being_read(
    bodies: list[list[tuple[int, int]]], readers: int
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(guard_module, "BODY_BYTES_IN_FLIGHT", BUDGET)
        patch.setattr(guard_module, "MAX_READERS", readers)
        guard = Guard(Admission(None), max_request_bytes=LIMIT, listener=None)

        async def run() -> list[bytes | str]:
            tasks = [asyncio.create_task(feed(guard, chunks)) for chunks in bodies]
            outcomes = []
            for task in tasks:
                outcomes.append(await task)
                invariant(guard)
            return outcomes

        outcomes = asyncio.run(run())
    assert guard.reading_bytes == 0 and not guard._readers
    for chunks, outcome in zip(bodies, outcomes, strict=True):
        total = sum(size for _, size in chunks)
        if isinstance(outcome, bytes):
            assert len(outcome) == total
        elif total > LIMIT:
            assert outcome in {"request_too_large", "bodies_in_flight", "readers_limit"}
        else:
            assert outcome in {"bodies_in_flight", "readers_limit"}


def test_a_body_dropped_while_its_next_chunk_is_on_its_way_does_not_count_that_chunk() -> None:
    # The race hypothesis may miss: B's chunk drops A (the slower) in the same event-loop turn in which A's own next
    # chunk arrives; A must stop there, its chunk uncounted, or the count drifts for good.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(guard_module, "BODY_BYTES_IN_FLIGHT", BUDGET)
        clock = MovableClock()
        patch.setattr(guard_module, "time", clock)
        guard = Guard(Admission(None), max_request_bytes=LIMIT, listener=None)
        big = 2 * SMALL_BODY_BYTES

        async def run() -> list[bytes | str]:
            a: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            b: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            chunk = {"type": "http.request", "body": b"x" * big, "more_body": True}
            a.put_nowait(chunk)
            first = asyncio.create_task(read(guard, a))
            await turns_until(lambda: guard.reading_bytes > 0)  # A holds its first chunk...
            clock.ahead += 1.0  # ...and a second later its rate has fallen
            b.put_nowait(chunk)
            second = asyncio.create_task(read(guard, b))
            await asyncio.sleep(0)
            b.put_nowait(chunk)  # B runs first in the next turn and drops A...
            a.put_nowait(chunk)  # ...while A's next chunk is ready in the same turn
            await turns_until(first.done)
            b.put_nowait({"type": "http.request", "body": b"", "more_body": False})
            return [await first, await second]

        outcomes = asyncio.run(run())
    assert outcomes[0] == "bodies_in_flight"
    assert isinstance(outcomes[1], bytes)
    assert guard.reading_bytes == 0 and not guard._readers


async def turns_until(condition: Callable[[], bool], turns: int = 1_000) -> None:
    """Let the event loop run until ``condition()`` holds, for at most ``turns`` turns (the test's deadline)."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"not within {turns} turns of the event loop")


async def read(guard: Guard, queue: asyncio.Queue[dict[str, Any]]) -> bytes | str:
    try:
        return await guard._read(queue.get, LIMIT, None)
    except _Dropped as dropped:
        return dropped.reason
