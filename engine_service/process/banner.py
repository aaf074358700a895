"""What a person starting the server reads: a short banner once it serves, and a port conflict in words.

The JSON log lines are for log collectors; someone who ran ``make serve`` in a terminal needs the
addresses to open, which core runs and why a key was generated. So, with console output
(``--log-format console``, or ``auto`` on a terminal), the first serving process prints a banner
after its ``server_started`` line. A port already taken, in any output format, is logged as before
and said on standard error with the flag (and variable) that moves it.
"""

from __future__ import annotations

import errno
import socket
import sys
from dataclasses import dataclass
from typing import Final, TextIO

import structlog

from engine_service.core_info import compiled_core_hint, engine_version
from engine_service.runtime.logs import flush_logs, json_output
from engine_service.runtime.settings import ENV, Settings

log = structlog.get_logger(__name__)

# Hosts a listener binds to on every interface: a person opens them as localhost.
_ANY_HOST: Final = frozenset({"", "0.0.0.0", "::", "[::]"})
KEY_FILE: Final = "~/splendor-sealing-keys.txt"


def openable(address: str) -> str:
    """``host:port`` as a person opens it: a wildcard host becomes ``localhost``."""
    host, _, port = address.rpartition(":")
    return f"{'localhost' if host in _ANY_HOST else host}:{port}"


def banner(
    *,
    grpc_address: str,
    http_address: str | None,
    metrics_address: str | None,
    key_generated: bool,
    grace_seconds: float,
) -> str:
    """The lines of the banner, for the addresses actually bound."""
    lines = [f"Splendor engine {engine_version()} is serving:"]
    if http_address is not None:
        http = f"http://{openable(http_address)}"
        lines += [f"  play in a browser   {http}/", f"  Connect, gRPC-Web   {http}/splendor.v1.EngineService/<Method>"]
    lines.append(f"  gRPC                {openable(grpc_address)} (with reflection: buf curl, grpcurl)")
    if metrics_address is not None:
        lines.append(f"  metrics             http://{openable(metrics_address)}/metrics")
    hint = compiled_core_hint()
    lines.append(f"Rules core: pure Python: {hint}." if hint else "Rules core: compiled (mypyc).")
    if key_generated:
        lines += [
            "Sealing key: none configured, so one was generated for this run: sealed games end when it stops.",
            f"  To keep one: splendor-engine keygen > {KEY_FILE} (once), then start with",
            f"  --sealing-keys-file {KEY_FILE} (or {ENV['sealing_keys_file']}={KEY_FILE}).",
        ]
    lines.append(f"Stop with Ctrl-C (calls in flight get {grace_seconds:g} s to finish).")
    return "\n".join(lines)


def print_banner(
    settings: Settings,
    grpc_address: str,
    http_address: object,
    key_generated: bool,
    stream: TextIO | None = None,
) -> None:
    """The banner on ``stream`` (stdout), after the log lines waiting, when the output is for people."""
    out = sys.stdout if stream is None else stream
    if json_output(settings.log_format, out):
        return
    metrics = f"{openable(grpc_address).rpartition(':')[0]}:{settings.metrics_port}" if settings.metrics_port else None
    flush_logs()
    text = banner(
        grpc_address=grpc_address,
        http_address=http_address if isinstance(http_address, str) else None,
        metrics_address=metrics,
        key_generated=key_generated,
        grace_seconds=settings.grace_seconds,
    )
    out.write(text + "\n")
    out.flush()


@dataclass(frozen=True)
class Listener:
    """One of the server's listeners, as its bind failure names it."""

    what: str  # for a person: "gRPC", "HTTP (Connect, gRPC-Web, the browser game)", "metrics"
    event: str  # the log event of its failure
    flag: str
    variable: str
    value: str  # what the flag takes
    note: str  # its special values


GRPC: Final = Listener("gRPC", "bind_failed", "--address", ENV["address"], "HOST:PORT", "port 0 picks a free one")
HTTP: Final = Listener(
    "HTTP (Connect, gRPC-Web, the browser game)",
    "bind_failed",
    "--http-address",
    ENV["http_address"],
    "HOST:PORT",
    "port 0 picks a free one, an empty address turns HTTP off",
)
METRICS: Final = Listener(
    "metrics", "metrics_bind_failed", "--metrics-port", ENV["metrics_port"], "PORT", "0 turns it off"
)

# Why a bind fails, by errno, for a person.
_CAUSES: Final = {
    errno.EADDRINUSE: "it is already in use, by another program (another splendor-engine, a `make serve` still "
    "running?): stop that one, or move this one",
    errno.EACCES: "this user may not listen there (ports below 1024 need privileges)",
    errno.EADDRNOTAVAIL: "the host is not an address of this machine",
}


def bind_error_cause(address: str, error: BaseException) -> str:
    """Why ``address`` could not be bound, in words: from ``error``'s errno, else (gRPC says only "failed to
    bind") from binding it again here, as a server would (SO_REUSEADDR)."""
    if isinstance(error, socket.gaierror):
        return "the host name does not resolve"
    if isinstance(error, OSError) and error.errno in _CAUSES:
        return _CAUSES[error.errno]
    host, _, port = address.rpartition(":")
    try:
        family, kind, proto, _, sockaddr = socket.getaddrinfo(
            host.strip("[]") or None, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(sockaddr)
    except socket.gaierror:
        return "the host name does not resolve"
    except OSError as probed:
        return _CAUSES.get(probed.errno or 0, str(probed))
    except ValueError:
        return f"{address!r} is not HOST:PORT"
    return str(error)  # free again by now: the server's own words


def report_bind_failure(listener: Listener, address: str, error: BaseException, **fields: object) -> int:
    """Log the failure (its event, with the flag) and tell a person on standard error what to change.
    Returns the exit status, 1."""
    if listener is METRICS:
        log.error(listener.event, port=int(address.rpartition(":")[2]), error=str(error), flag=listener.flag, **fields)
    else:
        log.error(listener.event, address=address, error=str(error), flag=listener.flag, **fields)
    flush_logs()
    where = f"port {address.rpartition(':')[2]}" if listener is METRICS else address
    print(
        f"splendor-engine: cannot listen for {listener.what} on {where}: {bind_error_cause(address, error)}. "
        f"Choose another with {listener.flag} {listener.value} (or {listener.variable}; {listener.note}).",
        file=sys.stderr,
        flush=True,
    )
    return 1
