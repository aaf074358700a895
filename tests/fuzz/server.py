"""A real ``splendor-engine serve`` on loopback ports in a subprocess, called with raw request bytes over gRPC
and over HTTP (Connect, binary protobuf)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import grpc
from splendor.v1 import engine_service_pb2

from tests.fuzz.corpus import SERVICE

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_SECONDS = 20.0
# The fuzzed server's key ring: known here, so the corpus can seal forged states (a leaked key's worst case).
# A test key of fixed bytes ("fuzz-key-fuzz-key-fuzz-key-fuzz!"), never used outside the fuzz tests.
FUZZ_KEYS = "fuzz:ZnV6ei1rZXktZnV6ei1rZXktZnV6ei1rZXktZnV6eiE="
# The codes of a fault (INTERNAL, UNKNOWN) by their number, as a batch item's google.rpc.Status carries them.
_FAULT_VALUES = {code.value[0]: code.value for code in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)}
# Connect's error codes as gRPC status codes (Connect spells CANCELLED with one L).
_CONNECT_CODES = {code.name.lower(): code for code in grpc.StatusCode} | {"canceled": grpc.StatusCode.CANCELLED}


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

    def __init__(self, *args: str, keys: str = FUZZ_KEYS) -> None:
        self.address = f"127.0.0.1:{free_port()}"
        self.http_address = f"127.0.0.1:{free_port()}"
        command = [sys.executable, "-m", "engine_service.cli", "serve", "--address", self.address]
        command += ["--http-address", self.http_address, "--metrics-port", "0", "--log-format", "json"]
        command += ["--log-level", "error", *args]
        environment = {**os.environ, "PYTHONPATH": str(ROOT), "SPLENDOR_SEALING_KEYS": keys}
        environment.pop("SPLENDOR_SEALING_KEYS_FILE", None)
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


def answered(rpc: str, body: bytes) -> Outcome:
    """The outcome of an answered call: OK, unless a batch's answer holds an item's fault (a bug the call survived:
    that item alone got INTERNAL or UNKNOWN)."""
    if rpc == "BatchApplyActions":
        for result in engine_service_pb2.BatchApplyActionsResponse.FromString(body).results:
            if result.HasField("error") and result.error.code in _FAULT_VALUES:
                return Outcome(grpc.StatusCode(_FAULT_VALUES[result.error.code]), f"item: {result.error.message}")
    return Outcome(grpc.StatusCode.OK, "")


def call(channel: grpc.Channel, rpc: str, data: bytes) -> Outcome:
    """Send ``data`` as the request of ``rpc``, unparsed, and classify the answer."""
    method = channel.unary_unary(SERVICE + rpc, request_serializer=None, response_deserializer=None)
    try:
        body = method(data, timeout=DEADLINE_SECONDS)
    except grpc.RpcError as error:
        return Outcome(error.code(), error.details() or "")
    return answered(rpc, body)


def http_connection(http_address: str) -> http.client.HTTPConnection:
    host, port = http_address.rsplit(":", 1)
    return http.client.HTTPConnection(host, int(port), timeout=DEADLINE_SECONDS)


def http_call(connection: http.client.HTTPConnection, rpc: str, data: bytes) -> Outcome:
    """Send ``data`` as the request of ``rpc`` over Connect (binary), unparsed, and classify the answer as a
    gRPC status. A connection the server closed is retried once on a new one (keep-alive ended)."""
    headers = {"content-type": "application/proto", "connect-protocol-version": "1"}
    for attempt in (1, 2):
        try:
            connection.request("POST", SERVICE + rpc, body=data, headers=headers)
            response = connection.getresponse()
            body = response.read()
            break
        except (http.client.HTTPException, ConnectionError):
            connection.close()
            if attempt == 2:
                return Outcome(grpc.StatusCode.UNAVAILABLE, "the HTTP connection failed")
    if response.status == 200:
        return answered(rpc, body)
    try:
        error = json.loads(body)
        return Outcome(_CONNECT_CODES[error["code"]], str(error.get("message", "")))
    except (ValueError, KeyError, TypeError):
        return Outcome(grpc.StatusCode.UNKNOWN, f"HTTP {response.status} without a Connect error body")


def outcome_of(rpc: str, future: grpc.Future) -> Outcome:
    """The outcome of a call of ``rpc`` started with ``future``, once it ends."""
    error = future.exception()
    if error is None:
        return answered(rpc, future.result())
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
