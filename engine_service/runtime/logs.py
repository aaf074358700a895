"""Logging: structlog, one JSON object per line on stdout (or readable lines on a terminal).

The per-call lines come from ``engine_service/server/interceptors.py`` and
``engine_service/http/observe.py``; this module sets the output up (``configure_logging``)
and parses the request-correlation headers.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any, Final, TextIO

import structlog

REQUEST_ID_KEY: Final = "x-request-id"
TRACEPARENT_KEY: Final = "traceparent"
# A client's request id is kept when it is short printable ASCII; otherwise a new one is made.
_REQUEST_ID: Final = re.compile(r"[\x21-\x7e]{1,128}")
# W3C Trace Context: version-traceid-parentid-flags, lower-case hex; all-zero ids are invalid.
_TRACEPARENT: Final = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})")
_ZERO_TRACE: Final = "0" * 32
_random_bits: Final = random.getrandbits


ACCESS_LOGGER: Final = "splendor_engine.access"
# Per-call lines wait at most this long in memory before they are written, in batches.
FLUSH_SECONDS: Final = 0.1
_BATCH_BYTES: Final = 32 * 1024
# Writes up to this size to a pipe are atomic (POSIX PIPE_BUF on Linux): a chunk of whole
# lines no larger than this never interleaves with another process's output.
_ATOMIC_WRITE: Final = 4096


class LineWriter:
    """Writes log lines to a stream: some at once, per-call lines in batches.

    A write per call costs a system call and a GIL hand-over on the hot path; per-call
    lines are kept in memory instead and written together every ``FLUSH_SECONDS`` (or
    sooner when many are waiting) by a background thread, in chunks of whole lines of at
    most 4 KiB so that processes sharing stdout never cut each other's lines. Any other
    line is written at once, after the lines waiting, so the output keeps its order.
    Lines still waiting when a process is killed with SIGKILL are lost.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Lock()  # guards _pending
        self._write_lock = threading.Lock()  # keeps batches in order
        self._pending: list[str] = []
        self._pending_bytes = 0
        self._flusher: threading.Thread | None = None

    def add(self, line: str) -> None:
        """Queue a per-call line."""
        with self._lock:
            self._pending.append(line)
            self._pending_bytes += len(line)
            if self._flusher is None:
                self._flusher = threading.Thread(target=self._flush_regularly, name="log-writer", daemon=True)
                self._flusher.start()
            if self._pending_bytes < _BATCH_BYTES:
                return
        self.flush()

    def write(self, line: str) -> None:
        """Write a line now, after those waiting."""
        self.flush((line,))

    def flush(self, extra: Iterable[str] = ()) -> None:
        with self._write_lock:
            with self._lock:
                lines, self._pending, self._pending_bytes = self._pending, [], 0
            lines.extend(extra)
            if not lines:
                return
            chunk: list[str] = []
            size = 0
            for line in lines:
                if chunk and size + len(line) + 1 > _ATOMIC_WRITE:
                    self._emit(chunk)
                    chunk, size = [], 0
                chunk.append(line)
                size += len(line) + 1
            self._emit(chunk)

    def _emit(self, lines: list[str]) -> None:
        with contextlib.suppress(OSError, ValueError):  # a closed stdout must not fail calls
            self._stream.write("\n".join(lines) + "\n")
            self._stream.flush()

    def _flush_regularly(self) -> None:
        while True:
            time.sleep(FLUSH_SECONDS)
            self.flush()


class _Logger:
    """structlog's output: the rendered line to the writer, batched for the per-call logger."""

    def __init__(self, writer: LineWriter, batched: bool) -> None:
        self._send = writer.add if batched else writer.write

    def msg(self, message: str) -> None:
        self._send(message)

    debug = info = warning = warn = error = critical = exception = fatal = failure = err = log = msg


_writer: LineWriter | None = None
_second: list[Any] = [-1, ""]  # the current second and its ISO text, shared by all threads


def utc_timestamp(logger: object, method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """Add ``timestamp``, ISO 8601 UTC with microseconds (``2026-11-30T00:12:22.972019Z``).

    Same text as structlog's ``TimeStamper(fmt="iso", utc=True)``, at a third of the cost:
    the date and time are formatted once per second.
    """
    now = time.time()
    second = int(now)
    cached = _second
    if cached[0] != second:
        cached[1] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        cached[0] = second  # a racing thread may format the same second again: harmless
    event["timestamp"] = f"{cached[1]}.{int((now - second) * 1_000_000):06d}Z"
    return event


def json_output(log_format: str, stream: TextIO) -> bool:
    """JSON for ``json``; for ``auto``, JSON unless ``stream`` is a terminal."""
    if log_format == "auto":
        return not stream.isatty()
    return log_format == "json"


def configure_logging(level: str, log_format: str = "auto", stream: TextIO | None = None) -> None:
    """structlog to ``stream`` (stdout): JSON lines, or console lines for a person.

    The per-call lines (logger ``ACCESS_LOGGER``) are written in batches (``LineWriter``);
    every other line at once. Call ``flush_logs`` before the process exits.
    """
    global _writer  # noqa: PLW0603 (one output per process)
    quiet_grpc_core(level)
    out = sys.stdout if stream is None else stream
    processors: list[structlog.typing.Processor] = [structlog.processors.add_log_level, utc_timestamp]
    if json_output(log_format, out):
        processors += [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        processors.append(structlog.dev.ConsoleRenderer(colors=out.isatty()))
    if _writer is not None:
        _writer.flush()
    writer = _writer = LineWriter(out)
    _json_lines[:] = [(tuple(processors), writer, level)] if json_output(log_format, out) else []

    def factory(*args: object) -> _Logger:
        return _Logger(writer, batched=bool(args) and args[0] == ACCESS_LOGGER)

    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelNamesMapping()[level.upper()]),
        logger_factory=factory,
        cache_logger_on_first_use=True,
    )
    atexit.register(flush_logs)


# The processors, writer and level of the JSON output ``configure_logging`` set up, if it did.
_json_lines: list[tuple[tuple[structlog.typing.Processor, ...], LineWriter, str]] = []
AccessLine = Callable[[str, dict[str, object]], None]


def access_line() -> AccessLine | None:
    """Writes a per-call line (``level``, its fields) as structlog would with ``configure_logging``'s JSON
    output, without structlog: same keys in the same order (the fields, ``event``, ``level``,
    ``timestamp``), same JSON. structlog's per-call work (the bound logger's copy of the fields, the
    processor chain) was ~40 % of the line's cost. None when the output is not those JSON lines (console
    lines, a test's ``capture_logs``...): the caller then logs through structlog."""
    if not _json_lines:
        return None
    processors, writer, configured = _json_lines[0]
    if tuple(structlog.get_config()["processors"]) != processors:  # reconfigured since (or changed in place)
        return None
    add = writer.add
    dumps = json.dumps
    levels = logging.getLevelNamesMapping()
    minimum = levels[configured.upper()]
    # structlog's filter, by the level's name: below the configured level, no line.
    shown = {name: levels[name.upper()] >= minimum for name in ("debug", "info", "warning", "error")}

    def write(level: str, fields: dict[str, object]) -> None:
        if not shown[level]:
            return
        fields["event"] = "rpc"
        fields["level"] = level
        utc_timestamp(None, level, fields)
        add(dumps(fields, default=repr))

    return write


GRPC_VERBOSITY: Final = "GRPC_VERBOSITY"


def quiet_grpc_core(level: str) -> None:
    """gRPC's core logs to stderr on its own; its info lines (a "Got goaway" each time a client hangs up)
    show only at ``--log-level debug``, else its errors only. Read when gRPC starts: call this first.
    An operator's own ``GRPC_VERBOSITY`` wins."""
    os.environ.setdefault(GRPC_VERBOSITY, "INFO" if level == "debug" else "ERROR")


def flush_logs() -> None:
    """Write the per-call lines still waiting."""
    if _writer is not None:
        _writer.flush()


def new_request_id() -> str:
    """128 random bits in hex, like a UUID4 without the formatting (and 5x cheaper: no system call).

    ``random`` is reseeded in forked children, so worker processes do not repeat each other.
    """
    return f"{_random_bits(128):032x}"


def correlation_ids(metadata: Iterable[tuple[str, str | bytes]]) -> tuple[str, str | None]:
    """The request id (the client's ``x-request-id``, or a new one) and the W3C trace id, if any."""
    request_id: str | None = None
    trace_id: str | None = None
    for key, value in metadata:
        if key == REQUEST_ID_KEY and isinstance(value, str) and _REQUEST_ID.fullmatch(value):
            request_id = value
        elif key == TRACEPARENT_KEY and isinstance(value, str):
            trace_id = trace_id_of(value)
    return request_id or new_request_id(), trace_id


def trace_id_of(traceparent: str) -> str | None:
    """The trace id of a W3C ``traceparent`` header, or None when it is malformed."""
    value = traceparent.strip()
    match = _TRACEPARENT.match(value)
    if match is None or match[1] == "ff" or match[2] == _ZERO_TRACE or match[3] == "0" * 16:
        return None
    # Version 00 has exactly these fields; later versions may append "-..." fields.
    if len(value) != match.end() and (match[1] == "00" or value[match.end()] != "-"):
        return None
    return match[2]


def flush_std_streams() -> None:
    """Before ``os._exit`` in a worker process: nothing buffered may be lost."""
    flush_logs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
