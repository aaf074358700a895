"""Progress lines for the long silent steps of a first ``make serve`` or ``make install``.

A cold compile of the core (mypyc, then the C compiler) and a first ``pip install`` each take
minutes and print nothing while they work, which reads as a hang. ``Progress`` prints what a
step is doing at least every ``PROGRESS_SECONDS``: its label, the latest status the step
reported (a module compiled, a package collected) and the time so far.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Final

# At most this long without a line (the promise is 15 s; a line may come a little late on a busy machine).
PROGRESS_SECONDS: Final = 10.0


def _print(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Progress:
    """A step that says what it is doing at least every ``every`` seconds while it runs (a context manager).

    ``update(status)`` records the latest status; ``say(status)`` also prints it at once. A background
    thread prints ``label: status (N s)`` whenever ``every`` seconds passed without a line.
    """

    def __init__(self, label: str, *, every: float = PROGRESS_SECONDS, write: Callable[[str], None] = _print) -> None:
        self.label = label
        self.every = every
        self._write = write
        self._status = "starting"
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._started = time.monotonic()
        self._last_line = self._started
        self._thread = threading.Thread(target=self._beat, name="progress", daemon=True)

    def elapsed(self) -> float:
        return time.monotonic() - self._started

    @property
    def status(self) -> str:
        with self._lock:
            return self._status

    def quiet_for(self) -> float:
        """Seconds since the last line."""
        with self._lock:
            return time.monotonic() - self._last_line

    def update(self, status: str) -> None:
        with self._lock:
            self._status = status

    def say(self, status: str) -> None:
        with self._lock:
            self._status = status
            self._line()

    def _line(self) -> None:
        self._last_line = time.monotonic()
        self._write(f"{self.label}: {self._status} ({self.elapsed():.0f} s)")

    def _beat(self) -> None:
        while True:
            with self._lock:
                wait = self._last_line + self.every - time.monotonic()
            if self._stopped.wait(max(wait, 0.0)):
                return
            with self._lock:
                if time.monotonic() - self._last_line >= self.every:
                    self._line()

    def __enter__(self) -> Progress:
        self._started = self._last_line = time.monotonic()
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._stopped.set()
        self._thread.join()
