"""One server per module for the tests that only add calls (they compare metric deltas)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.ops.support import Server


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server("--threads", "4") as running:
        yield running
        assert running.stop() == 0
        assert running.not_json == [], "every stdout line must be a JSON object"
