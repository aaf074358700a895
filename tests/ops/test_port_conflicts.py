"""A port already in use stops the server with a sentence that names the listener, the port and the flag that
moves it (issue 41: a second ``make serve`` exited with one JSON line, ``metrics_bind_failed``, naming no flag).
The log line stays, with the flag added."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from engine_service.process.banner import GRPC, HTTP, METRICS, Listener, bind_error_cause
from tests.ops.support import ROOT, Server, free_port

pytestmark = pytest.mark.e2e

EXIT_SECONDS = 60


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    """``splendor-engine serve`` with JSON logs and ``args`` (which win over the loopback defaults here), run
    to its exit."""
    command = [sys.executable, "-m", "engine_service.cli", "serve", "--log-format", "json"]
    defaults = ["--address", "127.0.0.1:0", "--http-address", "127.0.0.1:0", "--metrics-port", "0"]
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}
    environment["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [*command, *defaults, *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=EXIT_SECONDS,
    )


def failure_line(done: subprocess.CompletedProcess[str], event: str) -> dict[str, object]:
    (line,) = [entry for entry in map(json.loads, done.stdout.splitlines()) if entry["event"] == event]
    assert isinstance(line, dict)
    return line


@pytest.mark.parametrize(
    ("listener", "flag_value"),
    [
        (GRPC, "--address=127.0.0.1:{port}"),
        (HTTP, "--http-address=127.0.0.1:{port}"),
        (METRICS, "--metrics-port={port}"),
    ],
    ids=["grpc", "http", "metrics"],
)
@pytest.mark.parametrize("processes", [1, 2], ids=["one-process", "supervisor"])
def test_a_port_in_use_names_its_flag_its_port_and_why(
    listener: Listener, flag_value: str, processes: int, taken_port: int
) -> None:
    done = serve(flag_value.format(port=taken_port), "--processes", str(processes))
    assert done.returncode == 1, done.stderr
    (said,) = [line for line in done.stderr.splitlines() if line.startswith("splendor-engine:")]
    assert f"cannot listen for {listener.what} on " in said
    assert str(taken_port) in said
    assert "already in use" in said
    assert f"Choose another with {listener.flag} " in said and listener.variable in said
    logged = failure_line(done, listener.event)
    assert logged["flag"] == listener.flag


def test_a_second_server_on_the_same_ports_stops_saying_which_flag_moves_it() -> None:
    """What a second ``make serve`` meets: every port taken; the first one tried is named."""
    with Server() as first:
        assert first.http_address is not None
        ports = [f"--address={first.address}", f"--http-address={first.http_address}"]
        done = serve(*ports, f"--metrics-port={first.metrics_port}")
        assert first.stop() == 0
    assert done.returncode == 1
    assert f"cannot listen for metrics on port {first.metrics_port}: it is already in use" in done.stderr
    assert "--metrics-port PORT (or SPLENDOR_METRICS_PORT; 0 turns it off)" in done.stderr
    assert failure_line(done, "metrics_bind_failed")["port"] == first.metrics_port


def test_without_an_errno_the_cause_comes_from_binding_the_address_again(taken_port: int) -> None:
    """gRPC says only "failed to bind": the cause is found by trying the address as a server would."""
    gist = RuntimeError("Failed to bind to address 127.0.0.1; set GRPC_VERBOSITY=debug")
    assert bind_error_cause(f"127.0.0.1:{taken_port}", gist).startswith("it is already in use")
    assert bind_error_cause("no-such-host.invalid:50051", gist) == "the host name does not resolve"
    free = free_port()
    assert bind_error_cause(f"127.0.0.1:{free}", gist) == str(gist)  # free again: the server's own words
