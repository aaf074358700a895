"""Waiting in the tests: until a condition holds, with a deadline, never for a fixed time.

A fixed sleep is either too short on a loaded machine (the test fails, or passes without having checked
anything) or wasted time on an idle one. ``wait_until`` asks again every ``interval`` until the condition
holds, and fails naming what it waited for once ``timeout`` has passed. This module is the one place of the
tests that sleeps (``tests/architecture/test_test_hygiene.py`` checks it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

# The kernel's TCP states (include/net/tcp_states.h) of a connection a server still holds.
_ESTABLISHED = "01"
_CLOSE_WAIT = "08"


def wait_until(
    condition: Callable[[], T], *, timeout: float = 10.0, interval: float = 0.01, what: str = "the condition"
) -> T:
    """``condition()``'s first truthy value, asked every ``interval`` s; AssertionError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)


def pace(seconds: float) -> None:
    """Let ``seconds`` pass on purpose, as part of what a test models (a player's pace between moves, a proxy's
    timer no request can observe): never to wait for something to happen, which is ``wait_until``'s job."""
    time.sleep(seconds)


class MovableClock:
    """A ``time``-like clock (``monotonic``) a test moves on instead of waiting for time to pass: patched over a
    module's ``time`` (``monkeypatch.setattr(module, "time", clock)``), it makes that module's idea of elapsed
    time the test's to decide."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead


def tcp_connections(local_port: int, remote_port: int | None = None) -> int:
    """The loopback connections of this machine whose local end is ``local_port`` (a server's port: the server's
    side of its connections), to ``remote_port`` if given, that the server still holds: established, or closed by
    the client and not yet by the server (Linux, from /proc/net/tcp and tcp6)."""
    held = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if int(local.rsplit(":", 1)[1], 16) != local_port or state not in (_ESTABLISHED, _CLOSE_WAIT):
                continue
            if remote_port is None or int(remote.rsplit(":", 1)[1], 16) == remote_port:
                held += 1
    return held
