"""A real ``splendor-engine serve`` in a subprocess: its JSON log lines, its /metrics, its exit."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import grpc
from prometheus_client.parser import text_string_to_metric_families
from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2, engine_service_pb2_grpc

from engine_service.codec import action_to_proto
from engine_service.rules import GameConfig, PurchaseCard, ReturnTokens, TakeGems, TakeTwoGems, apply, legal_actions
from engine_service.rules import new_game as core_new_game

ROOT = Path(__file__).resolve().parents[2]
ENGINE = "splendor.v1.EngineService"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``splendor-engine serve`` on a free loopback port with JSON logs, /metrics on another free port.

    Every stdout line is parsed as JSON into ``logs``; anything else goes to ``not_json``.
    """

    def __init__(self, *args: str, processes: int = 1, env: dict[str, str] | None = None) -> None:
        self.metrics_port = free_port()
        command = [
            sys.executable,
            "-m",
            "engine_service.cli",
            "serve",
            "--address",
            "127.0.0.1:0",
            "--metrics-port",
            str(self.metrics_port),
            "--log-format",
            "json",
            "--processes",
            str(processes),
            "--http-address",
            "127.0.0.1:0",
            *args,
        ]
        environment = {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}
        environment.pop("PROMETHEUS_MULTIPROC_DIR", None)
        environment.update({"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env or {})})
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.logs: list[dict[str, Any]] = []
        self.not_json: list[str] = []
        self.stderr: list[str] = []
        self._changed = threading.Condition()
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        try:
            started = self.wait_for(lambda: self.events("server_started")[processes - 1 :], timeout=20)
            self.address: str = started[0]["address"]
            self.port: int = started[0]["port"]
            self.http_address: str | None = started[0].get("http_address")
            self.worker_pids = sorted(entry["pid"] for entry in self.events("server_started"))
        except BaseException:
            self.kill()
            raise

    # Output.

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._changed:
                try:
                    entry = json.loads(line)
                    assert isinstance(entry, dict)
                    self.logs.append(entry)
                except (ValueError, AssertionError):
                    self.not_json.append(line)
                self._changed.notify_all()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def events(self, name: str) -> list[dict[str, Any]]:
        with self._changed:
            return [entry for entry in self.logs if entry.get("event") == name]

    def calls(self, method: str | None = None) -> list[dict[str, Any]]:
        """The per-call log lines (``event == "rpc"``), of one method if given."""
        return [entry for entry in self.events("rpc") if method is None or entry["method"] == method]

    def wait_for(self, condition: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``condition()`` is truthy (re-checked as lines arrive) and return its value."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = condition()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.process.poll() is not None and not any(r.is_alive() for r in self._readers)):
                    raise AssertionError(
                        f"timed out; exit {self.process.poll()}; last lines {self.logs[-5:]}; stderr {self.stderr[-5:]}"
                    )
                self._changed.wait(min(remaining, 0.2))

    def call_log(self, request_id: str, timeout: float = 5.0) -> dict[str, Any]:
        """The log line of the call with this request id (lines are written just after the call)."""
        lines = self.wait_for(lambda: [e for e in self.events("rpc") if e.get("request_id") == request_id], timeout)
        assert len(lines) == 1, lines
        return dict(lines[0])

    # Metrics.

    def scrape(self) -> Samples:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5) as response:
            assert response.status == 200
            text = response.read().decode()
        samples: Samples = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
        return samples

    # Lifecycle.

    def channel(self, own_connection: bool = True) -> grpc.Channel:
        """A channel to the server; ``own_connection``: its own TCP connection (not shared with other channels)."""
        options = [("grpc.use_local_subchannel_pool", 1)] if own_connection else []
        return grpc.insecure_channel(self.address, options=options)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        self.process.send_signal(sig)
        code = self.process.wait(timeout=timeout)
        for reader in self._readers:
            reader.join(timeout=5)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples named ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (sample, sample_labels), v in samples.items() if sample == name and wanted <= set(sample_labels))


def delta(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def stub(channel: grpc.Channel) -> Any:
    return engine_service_pb2_grpc.EngineServiceStub(channel)


def long_game(seed: int = 1, max_actions: int = 400) -> tuple[config_pb2.GameConfig, list[actions_pb2.Action]]:
    """A 2-player game played by the core, avoiding purchases while it can: a few hundred actions."""
    rng = random.Random(seed)
    state, _ = core_new_game(GameConfig(2, seed))
    played = []
    while not state.is_over and len(played) < max_actions:
        legal = legal_actions(state)
        calm = [a for a in legal if isinstance(a, TakeGems | TakeTwoGems | ReturnTokens)]
        slow = [a for a in legal if not isinstance(a, PurchaseCard)]
        action = rng.choice(calm or slow or legal)
        played.append(action)
        state, _ = apply(state, action)
    return config_pb2.GameConfig(num_players=2, seed=seed), [action_to_proto(action) for action in played]


def replay_request(seed: int = 1) -> engine_service_pb2.ReplayGameRequest:
    config, actions = long_game(seed)
    return engine_service_pb2.ReplayGameRequest(config=config, actions=actions)


def codes(errors: Iterable[BaseException | None]) -> list[str]:
    """Status code names of call outcomes (None or a result: OK)."""
    return [error.code().name if isinstance(error, grpc.RpcError) else "OK" for error in errors]


def outcome(call: Callable[[], Any]) -> BaseException | None:
    try:
        call()
    except grpc.RpcError as error:
        return error
    return None
