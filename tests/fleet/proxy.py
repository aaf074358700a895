"""nginx as a real process on loopback, running the shipped ``deploy/nginx/nginx.conf``.

Only addresses change: each ``listen`` gets a free loopback port, and each upstream's ``server``
lines become one per replica (their parameters kept). The run's own files (pid, logs, temporary
directories) go under a prefix directory of its own. ``rendered_changes`` lists every line that
differs from the shipped file, so a test can check that nothing else did.
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
import signal
import socket
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.fleet.replicas import ROOT, free_port, wait_until

SHIPPED = ROOT / "deploy" / "nginx" / "nginx.conf"
NGINX_PACKAGE = "scripts/ensure-debian-packages nginx:nginx"
# The shipped ports, as the ``listen`` lines name them, and the replica port each upstream points at.
GRPC_LISTEN = "50051 http2"
HTTP_LISTEN = "8080"
UPSTREAM_PORTS = {"splendor_engine_grpc": 50051, "splendor_engine_http": 8080}

_UPSTREAM = re.compile(r"(?ms)^(\s*upstream (\w+) \{\n)(.*?)(^\s*\})")
_SERVER_LINE = re.compile(r"^(\s*)server \S+?:(\d+)( [^;]*)?;\n", re.MULTILINE)


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def render(config: str, grpc_port: int, http_port: int, upstreams: dict[int, Sequence[str]], prefix: Path) -> str:
    """``config`` listening on loopback ports, its upstreams' servers replaced.

    ``upstreams`` maps a shipped replica port (50051, 8080) to the addresses of the replicas serving it.
    """

    def servers(match: re.Match[str]) -> str:
        head, _name, body, tail = match.groups()
        first = _SERVER_LINE.search(body)
        if first is None:
            return match.group(0)
        indent, port, params = first.group(1), int(first.group(2)), first.group(3) or ""
        replaced = "".join(f"{indent}server {address}{params};\n" for address in upstreams[port])
        before, after = body[: first.start()], _SERVER_LINE.sub("", body[first.start() :])
        return head + before + replaced + after + tail

    text = _UPSTREAM.sub(servers, config)
    text = text.replace(f"listen {GRPC_LISTEN};", f"listen 127.0.0.1:{grpc_port} http2;")
    text = text.replace(f"listen {HTTP_LISTEN};", f"listen 127.0.0.1:{http_port};")
    # The run's temporary directories under its prefix, not the package's (which need root).
    temp = "".join(
        f"    {kind}_temp_path {prefix / 'temp' / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return text.replace("http {\n", "http {\n" + temp, 1)


def fail_timeout(config: str) -> float:
    """The longest ``fail_timeout`` of the upstream servers, in seconds."""
    return max(float(value) for value in re.findall(r"fail_timeout=(\d+)s", config))


def rendered_changes(shipped: str, rendered: str) -> list[str]:
    """The lines of ``rendered`` that are not in ``shipped`` (``+``) and the reverse (``-``)."""
    diff = difflib.unified_diff(shipped.splitlines(), rendered.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]


class Nginx:
    """nginx in the foreground with the shipped configuration, rendered for this run."""

    def __init__(self, prefix: Path, grpc_upstreams: Sequence[str], http_upstreams: Sequence[str]) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError(f"nginx is not installed: run `{NGINX_PACKAGE}` (as `make test` does)")
        self.prefix = prefix
        self.grpc_port = free_port()
        self.http_port = free_port()
        prefix.mkdir(parents=True, exist_ok=True)
        prefix.chmod(0o755)  # worker processes may run as another user when started by root
        (prefix / "logs").mkdir(exist_ok=True)
        (prefix / "temp").mkdir(exist_ok=True)
        self.shipped = SHIPPED.read_text(encoding="utf-8")
        upstreams = {
            UPSTREAM_PORTS["splendor_engine_grpc"]: grpc_upstreams,
            UPSTREAM_PORTS["splendor_engine_http"]: http_upstreams,
        }
        self.config = render(self.shipped, self.grpc_port, self.http_port, upstreams, prefix)
        self.fail_timeout = fail_timeout(self.shipped)
        self.config_path = prefix / "nginx.conf"
        self.config_path.write_text(self.config, encoding="utf-8")
        self.access_log = prefix / "logs" / "access.log"
        self.error_log = prefix / "logs" / "error.log"
        globals_ = f"daemon off; pid {prefix / 'nginx.pid'};"
        base = [binary, "-p", str(prefix), "-c", str(self.config_path), "-e", str(self.error_log), "-g", globals_]
        checked = subprocess.run([*base, "-t"], capture_output=True, text=True, check=False)
        if checked.returncode != 0:
            raise AssertionError(f"nginx -t refused the configuration: {checked.stderr}")
        self.process = subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_until(self._listening, 10, "nginx to listen")

    @property
    def grpc_address(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    @property
    def http_address(self) -> str:
        return f"127.0.0.1:{self.http_port}"

    def _listening(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"nginx exited {self.process.returncode}: {self.error_log.read_text()[-2000:]}")
        for port in (self.grpc_port, self.http_port):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            except OSError:
                return False
        return True

    def entries(self) -> list[dict[str, Any]]:
        """The access log: one entry per request nginx answered (a client's retry is another request)."""
        self.process.send_signal(signal.SIGUSR1)  # reopen: flushes nothing buffered (no buffer= set), cheap
        lines = self.access_log.read_text(encoding="utf-8").splitlines() if self.access_log.exists() else []
        return [json.loads(line) for line in lines if line.strip()]

    def errors(self) -> list[str]:
        text = self.error_log.read_text(encoding="utf-8") if self.error_log.exists() else ""
        return [line for line in text.splitlines() if "[error]" in line or "[crit]" in line or "[alert]" in line]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: finishes requests in flight
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
