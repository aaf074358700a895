"""The deploy tests check the deployment files against what a real server exports."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.deploy.exported_metrics import ExportedMetrics, exercise, read_exported_metrics
from tests.ops.support import Server


@pytest.fixture(scope="session")
def exported() -> Iterator[ExportedMetrics]:
    with Server() as server:
        exercise(server)
        yield read_exported_metrics(server)
        assert server.stop() == 0
