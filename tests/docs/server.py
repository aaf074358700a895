"""The one engine the documentation's blocks talk to: a real server on loopback ports."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from splendor_client import connect

from tests.polling import wait_until

READY_SECONDS = 30.0
# What a reader runs against (the defaults of `make serve`) and what each becomes in a test.
DOCUMENTED_GRPC = ("localhost:50051", "127.0.0.1:50051")
DOCUMENTED_HTTP = ("localhost:8080", "127.0.0.1:8080")
DOCUMENTED_METRICS = ("localhost:9464", "127.0.0.1:9464")


@dataclass(frozen=True)
class DocServer:
    grpc_port: int
    http_port: int
    metrics_port: int

    def localise(self, text: str) -> str:
        """``text`` with the documented addresses replaced by this server's."""
        for documented, port in (
            (DOCUMENTED_GRPC, self.grpc_port),
            (DOCUMENTED_HTTP, self.http_port),
            (DOCUMENTED_METRICS, self.metrics_port),
        ):
            for address in documented:
                text = text.replace(address, f"127.0.0.1:{port}")
        return text


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _without_server_settings() -> dict[str, str]:
    """This process's environment minus SPLENDOR_* settings, which would override the flags."""
    return {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}


@contextmanager
def running_server(log: Path) -> Iterator[DocServer]:
    """Start ``splendor-engine serve`` on free loopback ports, wait until both listeners answer."""
    server = DocServer(_free_port(), _free_port(), _free_port())
    command = [
        str(Path(sys.executable).with_name("splendor-engine")),
        "serve",
        f"--address=127.0.0.1:{server.grpc_port}",
        f"--http-address=127.0.0.1:{server.http_port}",
        f"--metrics-port={server.metrics_port}",
        "--log-format=json",
    ]
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=_without_server_settings())
    try:
        _wait_until_ready(server, process)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait_until_ready(server: DocServer, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_SECONDS
    with connect(f"127.0.0.1:{server.grpc_port}") as client:
        client.wait_until_ready(READY_SECONDS)

    def http_answers() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{server.http_port}/healthz", timeout=2):
                return True
        except OSError:
            return False

    wait_until(http_answers, timeout=max(deadline - time.monotonic(), 0), interval=0.2, what="the HTTP listener")
