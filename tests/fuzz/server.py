"""A real ``splendor-engine serve`` on a loopback port in a subprocess, called with raw request bytes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import grpc

from tests.fuzz.corpus import SERVICE

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_SECONDS = 20.0


class Outcome(NamedTuple):
    """How the server answered one request."""

    code: grpc.StatusCode
    details: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class FuzzTarget:
    """The server process, and raw-bytes callables for each RPC on one channel."""

    def __init__(self, *args: str) -> None:
        self.address = f"127.0.0.1:{free_port()}"
        command = [sys.executable, "-m", "engine_service.cli", "serve", "--address", self.address]
        command += ["--http-address", "127.0.0.1:0", "--metrics-port", "0", "--log-format", "json"]
        command += ["--log-level", "error", *args]
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.channel = raw_channel(self.address)
        try:
            grpc.channel_ready_future(self.channel).result(timeout=30)
        except grpc.FutureTimeoutError:
            self.stop()
            raise

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def rss_bytes(self) -> int:
        return rss_bytes(self.process.pid)

    def stop(self) -> None:
        self.channel.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def raw_channel(address: str) -> grpc.Channel:
    # Room for the huge mutations; the server applies its own limit.
    options = [("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)]
    return grpc.insecure_channel(address, options=options)


def call(channel: grpc.Channel, rpc: str, data: bytes) -> Outcome:
    """Send ``data`` as the request of ``rpc``, unparsed, and classify the answer."""
    method = channel.unary_unary(SERVICE + rpc, request_serializer=None, response_deserializer=None)
    try:
        method(data, timeout=DEADLINE_SECONDS)
    except grpc.RpcError as error:
        return Outcome(error.code(), error.details() or "")
    return Outcome(grpc.StatusCode.OK, "")


def outcome_of(future: grpc.Future) -> Outcome:
    """The outcome of a call started with ``future``, once it ends."""
    error = future.exception()
    if error is None:
        return Outcome(grpc.StatusCode.OK, "")
    return Outcome(error.code(), error.details() or "")  # type: ignore[attr-defined]


def process_tree(pid: int) -> list[int]:
    """``pid`` and its child processes (a supervisor's workers), Linux /proc."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return [pid]
    return [pid, *(int(child) for child in children)]


def rss_bytes(pid: int) -> int:
    """Resident set size of process ``pid`` (Linux /proc), 0 when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return 0
    return 0
