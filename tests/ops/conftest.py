"""One server per module for the tests that only add calls (they compare metric deltas); structlog left as found."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog

from tests.ops.support import Server


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server("--threads", "4") as running:
        yield running
        assert running.stop() == 0
        assert running.not_json == [], "every stdout line must be a JSON object"


@pytest.fixture(autouse=True)
def structlog_left_as_found() -> Iterator[None]:
    """A test that configures structlog (``capture_logs`` does, even as it restores the processors) must not leave
    it configured: a server built later in this process would then log every call to stdout (``build_server``
    logs only once structlog is configured), which the client's doc tests would read as their examples' output."""
    configured = structlog.is_configured()
    yield
    if not configured and structlog.is_configured():
        structlog.reset_defaults()
