"""Random bytes from the operating system, drawn a batch at a time.

``os.urandom`` releases the GIL around its system call. On a busy server every release lets
another thread take the GIL, and the caller must win it back: two thread switches for each
token sealed, which cost more CPU than the sealing itself. Drawing 4 KiB at a time makes that
one release per ~340 tokens. The bytes are the OS's own, each handed out once; a forked child
starts with an empty batch, so two processes never share any.
"""

from __future__ import annotations

import os
import threading
from typing import Final

BATCH_BYTES: Final = 4096


class RandomBytes:
    """``take(n)``: ``n`` fresh bytes of the OS's randomness; safe across threads and forks."""

    __slots__ = ("_batch", "_lock", "_used")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._batch = b""
        self._used = 0
        os.register_at_fork(after_in_child=self._forget)

    def take(self, size: int) -> bytes:
        if size > BATCH_BYTES:
            return os.urandom(size)
        with self._lock:
            start = self._used
            if start + size > len(self._batch):
                self._batch, start = os.urandom(BATCH_BYTES), 0
            self._used = start + size
            return self._batch[start : start + size]

    def _forget(self) -> None:
        self._lock = threading.Lock()  # a lock held by another thread at the fork would never be released here
        self._batch, self._used = b"", 0


random_bytes: Final = RandomBytes()
