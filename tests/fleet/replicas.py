"""Replicas: separate ``splendor-engine serve`` processes on fixed loopback ports, sharing one key ring file.

A replica keeps its ports across restarts (the proxy's upstream list names them), and keeps every
generation's log lines: a generation is one process, from its start to its exit (SIGTERM) or kill.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from tests import polling

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 30.0
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    """A loopback port free right now (the replica binds it when it starts, and again after a restart)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``condition`` until it is truthy (returned) or ``timeout`` seconds passed (AssertionError)."""
    return polling.wait_until(condition, timeout=timeout, interval=0.05, what=what)


@dataclass
class Generation:
    """One process of a replica: its pid, log lines, how it ended and the metrics scraped last."""

    number: int
    process: subprocess.Popen[str]
    logs: list[dict[str, Any]] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    ended_by: str | None = None  # "SIGTERM", "SIGKILL", or None while running / at the end of the run
    exit_code: int | None = None
    metrics: Samples | None = None  # scraped while nothing was in flight (the end of the run)

    def events(self, name: str) -> list[dict[str, Any]]:
        return [entry for entry in list(self.logs) if entry.get("event") == name]

    def calls(self) -> list[dict[str, Any]]:
        """The per-call lines of EngineService calls (health checks are the proxy's and the clients')."""
        return [entry for entry in self.events("rpc") if entry.get("service", "").startswith("splendor.v1")]


class Replica:
    """``splendor-engine serve`` on fixed loopback ports: gRPC, HTTP and /metrics."""

    def __init__(
        self,
        name: str,
        keys_file: Path,
        *,
        grace_seconds: float = 10.0,
        threads: int = 4,
        log_dir: Path | None = None,
        read_logs: bool = True,
    ) -> None:
        """``log_dir``: where each generation's output is also written (``<name>.<generation>.log``).
        ``read_logs=False``: the output goes to that file only, unread (a benchmark's client keeps its CPU)."""
        if not read_logs and log_dir is None:
            raise ValueError("logs that are not read go to a file: give a log_dir")
        self.name = name
        self.log_dir = log_dir
        self.read_logs = read_logs
        self.keys_file = keys_file
        self.grace_seconds = grace_seconds
        self.threads = threads
        self.grpc_port = free_port()
        self.http_port = free_port()
        self.metrics_port = free_port()
        self.generations: list[Generation] = []

    @property
    def grpc_address(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    @property
    def http_address(self) -> str:
        return f"127.0.0.1:{self.http_port}"

    @property
    def current(self) -> Generation:
        return self.generations[-1]

    @property
    def running(self) -> bool:
        return bool(self.generations) and self.current.process.poll() is None

    def start(self) -> Generation:
        """Start a new generation and wait until it serves both listeners."""
        command = [
            sys.executable,
            "-P",  # the checkout on PYTHONPATH, after whatever comes first there (a compiled core)
            "-m",
            "engine_service.cli",
            "serve",
            "--address",
            self.grpc_address,
            "--http-address",
            self.http_address,
            "--metrics-port",
            str(self.metrics_port),
            "--sealing-keys-file",
            str(self.keys_file),
            "--grace-seconds",
            str(self.grace_seconds),
            "--threads",
            str(self.threads),
            "--log-format",
            "json",
        ]
        environment = {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}
        environment.pop("PROMETHEUS_MULTIPROC_DIR", None)
        inherited = [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []
        environment.update({"PYTHONPATH": os.pathsep.join([*inherited, str(ROOT)]), "PYTHONUNBUFFERED": "1"})
        number = len(self.generations)
        copy = None if self.log_dir is None else self.log_dir / f"{self.name}.{number}.log"
        with contextlib.ExitStack() as files:
            output = subprocess.PIPE if self.read_logs or copy is None else files.enter_context(copy.open("w"))
            process = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.PIPE, text=True
            )
        generation = Generation(number, process)
        self.generations.append(generation)
        if self.read_logs:
            threading.Thread(target=_read_json_lines, args=(process, generation.logs, copy), daemon=True).start()
        threading.Thread(target=_read_lines, args=(process, generation.stderr), daemon=True).start()

        def started() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"{self.name} exited {process.returncode}: {generation.stderr[-5:]}")
            if not self.read_logs and copy is not None:
                return '"server_started"' in copy.read_text(encoding="utf-8")
            return bool(generation.events("server_started"))

        wait_until(started, READY_SECONDS, f"{self.name} to start")
        return generation

    def terminate(self) -> int:
        """SIGTERM, then wait for the drain to end; the exit status."""
        return self._end(signal.SIGTERM)

    def kill(self) -> int:
        return self._end(signal.SIGKILL)

    def _end(self, sig: signal.Signals) -> int:
        generation = self.current
        generation.ended_by = sig.name
        generation.process.send_signal(sig)
        generation.exit_code = generation.process.wait(timeout=self.grace_seconds + 20)
        return generation.exit_code

    def cpu_seconds(self) -> float:
        """The current generation's CPU time so far (user and system, from /proc)."""
        fields = Path(f"/proc/{self.current.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def scrape(self) -> Samples:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5) as response:
            text = response.read().decode()
        samples: Samples = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
        return samples

    def stop(self) -> None:
        """At the end of the run: SIGTERM what still runs (SIGKILL if it does not end)."""
        if not self.generations:
            return
        process = self.current.process
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                self.current.exit_code = process.wait(timeout=self.grace_seconds + 20)
            except subprocess.TimeoutExpired:
                process.kill()
                self.current.exit_code = process.wait(timeout=10)


def _read_json_lines(process: subprocess.Popen[str], into: list[dict[str, Any]], copy: Path | None) -> None:
    assert process.stdout is not None
    with contextlib.ExitStack() as files:
        out = None if copy is None else files.enter_context(copy.open("w", encoding="utf-8"))
        for line in process.stdout:
            if out is not None:
                out.write(line)
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                into.append(entry)


def _read_lines(process: subprocess.Popen[str], into: list[str]) -> None:
    assert process.stderr is not None
    for line in process.stderr:
        into.append(line)


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples named ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (sample, sample_labels), v in samples.items() if sample == name and wanted <= set(sample_labels))
