"""A server in its own process on a free loopback port, and its CPU time, for the bot benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from splendor_client import EngineClient, connect

from benchmarks.load_phase import process_cpu_seconds

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def share_one_cpu() -> int:
    """Run this process, and the servers it starts next (they inherit it), on one CPU: the last this process may
    use. Client and server then take turns on it with their caches warm, as a busy server's threads run; on two
    CPUs a call goes back and forth between two idle ones, and each side pays their waking (on a 2-CPU machine,
    about a third more server CPU a move: docs/performance.md). The CPU's number."""
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


class BenchServer:
    """``with BenchServer() as server``: ``server.client``, ``server.cpu()`` (its user+system seconds)."""

    def __init__(self, threads: int = 1, options: tuple[str, ...] = (), pythonpath: str | None = None) -> None:
        """``options``: more ``serve`` flags (e.g. ``("--state-memo-entries", "0")``); ``pythonpath``: the server's
        instead of this process's (e.g. another commit's compiled copy)."""
        self.port = free_port()
        # -P: the compiled core first on PYTHONPATH, not the checkout (the working directory), serves when built.
        command = [sys.executable, "-P", "-m", "engine_service.cli", "serve", "--address", f"127.0.0.1:{self.port}"]
        command += ["--threads", str(threads), "--metrics-port", "0", "--http-address", "", *options]
        env = {**os.environ, "SPLENDOR_LOG_LEVEL": "warning"}
        if pythonpath is not None:
            env["PYTHONPATH"] = pythonpath
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        self.client: EngineClient = connect(f"127.0.0.1:{self.port}", timeout=120)
        self.client.wait_until_ready(20)

    def cpu(self) -> float:
        return process_cpu_seconds(self.process.pid)

    def __enter__(self) -> BenchServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        time.sleep(0)
