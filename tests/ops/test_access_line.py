"""The per-call line rendered without structlog is the line structlog renders, key for key."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator

import pytest
import structlog
from structlog.testing import capture_logs

from engine_service.runtime import logs


@pytest.fixture(autouse=True)
def _grpc_verbosity_restored() -> Iterator[None]:
    """configure_logging sets GRPC_VERBOSITY for the process; servers later tests start must not inherit it."""
    saved = os.environ.get(logs.GRPC_VERBOSITY)
    yield
    if saved is None:
        os.environ.pop(logs.GRPC_VERBOSITY, None)
    else:
        os.environ[logs.GRPC_VERBOSITY] = saved


FIELDS = {"pid": 7, "method": "ApplyAction", "code": "OK", "duration_ms": 1.25, "request_id": "r1", "seat": 1}


def rendered(stream: io.StringIO) -> list[dict[str, object]]:
    logs.flush_logs()
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_the_direct_line_has_structlogs_keys_in_its_order_and_values() -> None:
    stream = io.StringIO()
    try:
        logs.configure_logging("info", "json", stream=stream)
        write = logs.access_line()
        assert write is not None
        structlog.get_logger(logs.ACCESS_LOGGER).bind().warning("rpc", **FIELDS)
        write("warning", dict(FIELDS))
        by_structlog, direct = rendered(stream)
    finally:
        structlog.reset_defaults()
    assert list(direct) == list(by_structlog) == [*FIELDS, "event", "level", "timestamp"]
    assert {**direct, "timestamp": None} == {**by_structlog, "timestamp": None}
    assert direct["level"] == "warning" and str(direct["timestamp"]).endswith("Z")


def test_other_outputs_log_through_structlog() -> None:
    try:
        logs.configure_logging("info", "console", stream=io.StringIO())
        assert logs.access_line() is None  # console lines: structlog's renderer
        logs.configure_logging("info", "json", stream=io.StringIO())
        with capture_logs():  # a test's capture replaces the processors: the line must reach it
            assert logs.access_line() is None
        assert logs.access_line() is not None
    finally:
        structlog.reset_defaults()


def test_the_direct_line_keeps_the_configured_level() -> None:
    stream = io.StringIO()
    try:
        logs.configure_logging("warning", "json", stream=stream)
        write = logs.access_line()
        assert write is not None
        write("info", dict(FIELDS))
        write("error", dict(FIELDS))
        lines = rendered(stream)
    finally:
        structlog.reset_defaults()
    assert [line["level"] for line in lines] == ["error"]
