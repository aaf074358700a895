"""The nonces' randomness (engine_service/sealing/random_bytes.py): the OS's bytes drawn a batch at a time.

Rule: every byte handed out is handed out once, whatever threads draw at once, and a forked
process never hands out a byte its parent drew.
"""

from __future__ import annotations

import os
import threading

from engine_service.sealing.random_bytes import BATCH_BYTES, RandomBytes

NONCE = 12


def test_draws_have_the_size_asked_and_never_repeat_across_batches() -> None:
    source = RandomBytes()
    draws = [source.take(NONCE) for _ in range(3 * BATCH_BYTES // NONCE)]  # three batches and more
    assert {len(draw) for draw in draws} == {NONCE}
    assert len(set(draws)) == len(draws)
    assert len(source.take(BATCH_BYTES + 1)) == BATCH_BYTES + 1  # larger than a batch: drawn at once


def test_threads_drawing_at_once_never_get_the_same_bytes() -> None:
    source = RandomBytes()
    drawn: list[list[bytes]] = [[] for _ in range(4)]

    def draw(into: list[bytes]) -> None:
        for _ in range(5_000):
            into.append(source.take(NONCE))

    threads = [threading.Thread(target=draw, args=(into,)) for into in drawn]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [draw for into in drawn for draw in into]
    assert len(every) == 20_000
    assert len(set(every)) == len(every)


def test_a_forked_child_draws_none_of_its_parents_batch() -> None:
    source = RandomBytes()
    source.take(NONCE)  # the parent holds a batch it has barely used
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its next draws, to the parent
        try:
            os.write(writer, b"".join(source.take(NONCE) for _ in range(8)))
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        from_child = pipe.read()
    os.waitpid(child, 0)
    child_draws = {from_child[index : index + NONCE] for index in range(0, len(from_child), NONCE)}
    parent_draws = {source.take(NONCE) for _ in range(BATCH_BYTES // NONCE)}  # the rest of the parent's batch
    assert len(child_draws) == 8
    assert not child_draws & parent_draws
