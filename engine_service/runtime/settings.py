"""Server settings: defaults, overridden by environment variables, overridden by flags.

docs/operations.md has the table of every setting, its flag and its variable.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from engine_service.api.config import (
    DEFAULT_MAX_BATCH_ITEMS,
    DEFAULT_MAX_BOT_ITERATIONS,
    DEFAULT_MAX_REPLAY_ACTIONS,
    DEFAULT_MAX_REQUEST_BYTES,
    ApiConfig,
)
from engine_service.api.state_memo import DEFAULT_STATE_MEMO_ENTRIES, StateMemo
from engine_service.sealing import KeyRing

# Expensive calls that may wait for a slot (--expensive-queue): a few, so that a burst of them is queued
# briefly while a flood is refused at once instead of holding its callers (and their places) for minutes.
DEFAULT_EXPENSIVE_QUEUE: Final = 4
LOG_LEVELS: Final = ("debug", "info", "warning", "error")
# auto: console when stdout is a terminal, JSON lines otherwise.
LOG_FORMATS: Final = ("auto", "json", "console")

# Environment variable for each setting (the CLI documents them in --help).
ENV: Final = {
    "address": "SPLENDOR_ADDRESS",
    "max_response_bytes": "SPLENDOR_MAX_RESPONSE_BYTES",
    "max_request_bytes": "SPLENDOR_MAX_REQUEST_BYTES",
    "max_replay_actions": "SPLENDOR_MAX_REPLAY_ACTIONS",
    "max_bot_iterations": "SPLENDOR_MAX_BOT_ITERATIONS",
    "threads": "SPLENDOR_THREADS",
    "max_batch_items": "SPLENDOR_MAX_BATCH_ITEMS",
    "grace_seconds": "SPLENDOR_GRACE_SECONDS",
    "log_level": "SPLENDOR_LOG_LEVEL",
    "log_format": "SPLENDOR_LOG_FORMAT",
    "metrics_port": "SPLENDOR_METRICS_PORT",
    "processes": "SPLENDOR_PROCESSES",
    "max_concurrent_rpcs": "SPLENDOR_MAX_CONCURRENT_RPCS",
    "keepalive_time_seconds": "SPLENDOR_KEEPALIVE_TIME_SECONDS",
    "keepalive_timeout_seconds": "SPLENDOR_KEEPALIVE_TIMEOUT_SECONDS",
    "min_ping_interval_seconds": "SPLENDOR_MIN_PING_INTERVAL_SECONDS",
    "max_connection_age_seconds": "SPLENDOR_MAX_CONNECTION_AGE_SECONDS",
    "max_connection_age_grace_seconds": "SPLENDOR_MAX_CONNECTION_AGE_GRACE_SECONDS",
    "otlp_endpoint": "SPLENDOR_OTLP_ENDPOINT",
    "http_address": "SPLENDOR_HTTP_ADDRESS",
    "http_cors_origins": "SPLENDOR_HTTP_CORS_ORIGINS",
    "max_call_seconds": "SPLENDOR_MAX_CALL_SECONDS",
    "expensive_calls": "SPLENDOR_EXPENSIVE_CALLS",
    "expensive_queue": "SPLENDOR_EXPENSIVE_QUEUE",
    "sealing_keys_file": "SPLENDOR_SEALING_KEYS_FILE",
    "sealing_keys": "SPLENDOR_SEALING_KEYS",
    "seat_keys": "SPLENDOR_SEAT_KEYS",
    "allow_example_key": "SPLENDOR_ALLOW_EXAMPLE_KEY",
    "state_memo_entries": "SPLENDOR_STATE_MEMO_ENTRIES",
}
# The old names of two variables, still read (the new name wins) and reported as deprecated (``deprecated_variables``):
# "workers" were threads, not the worker processes of --processes; the message limit was the response's only.
DEPRECATED_ENV: Final = {"SPLENDOR_WORKERS": "threads", "SPLENDOR_MAX_MESSAGE_BYTES": "max_response_bytes"}
# How a boolean variable may be spelled.
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_FALSE: Final = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class Settings:
    address: str = "localhost:50051"  # host:port; port 0 picks a free port
    max_response_bytes: int = 4 * 1024 * 1024  # the largest response (RESPONSE_TOO_LARGE beyond)
    # Handler threads per process (flag --threads). Handlers hold the GIL, so threads add no
    # throughput, only contention: on 2 cores ApplyAction peaked at 2 (~3.5k calls/s, against ~2.5k
    # with 8). More let long calls (ReplayGame) overlap short ones.
    threads: int = 2
    grace_seconds: float = 10.0  # how long in-flight calls may run after SIGTERM
    log_level: str = "info"
    log_format: str = "auto"
    metrics_port: int = 9464  # Prometheus /metrics over HTTP; 0 disables
    processes: int = 1  # server processes sharing the port (SO_REUSEPORT), supervised by a parent
    # Engine calls admitted at once per process, gRPC and HTTP together (running or queued for a thread); the rest
    # are answered RESOURCE_EXHAUSTED at once; health and reflection are never refused. 0: no limit (calls queue).
    max_concurrent_rpcs: int = 100
    keepalive_time_seconds: float = 60.0  # the server pings a connection idle this long...
    keepalive_timeout_seconds: float = 20.0  # ...and closes it if the ping is not answered within this
    # Clients may ping this often without calls in flight; faster pings get the connection closed.
    min_ping_interval_seconds: float = 10.0
    # Connections are closed (GOAWAY) after this long, so clients reconnect and rebalance over
    # replicas; 0: never.
    max_connection_age_seconds: float = 300.0
    max_connection_age_grace_seconds: float = 30.0  # calls in flight on an aged connection may finish within this
    # OTLP/gRPC collector for traces (e.g. http://otel-collector:4317); empty: the standard
    # OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT variables, and tracing is off when none is set.
    otlp_endpoint: str = ""
    # Connect and gRPC-Web over HTTP/1.1 (engine_service/http); empty: no HTTP listener.
    http_address: str = "localhost:8080"
    # Browser origins allowed to call across origins (CORS); "*": any; none: same-origin only.
    http_cors_origins: tuple[str, ...] = ()
    # The server's time budget for one engine call, whatever the caller's deadline: the long loops (Simulate,
    # ReplayGame, a server-side bot's search) stop there with DEADLINE_EXCEEDED. 0: the caller's deadline only.
    max_call_seconds: float = 5.0
    # Expensive calls (Simulate, ReplayGame, server-side bot moves, views of many events) running at once per
    # process, on threads of their own, so cheap calls keep the --threads pool and their --max-concurrent-rpcs.
    expensive_calls: int = 1
    # Expensive calls that may wait for one of those slots; beyond, they are refused at once (RESOURCE_EXHAUSTED).
    expensive_queue: int = DEFAULT_EXPENSIVE_QUEUE
    # The key ring that seals game tokens (format: engine_service/sealing/keyring.py): a file, or the
    # ring itself in the environment variable (no flag: a command line is visible to every user). At
    # most one; with neither, the server generates a key at start-up that only its own processes share.
    sealing_keys_file: str = ""
    sealing_keys: str = field(default="", repr=False)
    # Sealed requests that name or act as a seat must carry its key (PERMISSION_DENIED otherwise); off
    # (--no-seat-keys) only for a platform that binds players to seats itself.
    seat_keys: bool = True
    # Start with the published example key, with which anyone can read and forge tokens: throwaway setups only.
    allow_example_key: bool = False
    # The largest request gRPC accepts (RESOURCE_EXHAUSTED beyond), which bounds a call's memory. The largest
    # legitimate request is a ReplayGame at max_replay_actions: 10,000 actions of at most ~40 bytes (a purchase
    # with a payment and cards spent; ~6 on average) is under 400 KiB; see docs/operations.md, "Limits".
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    # ReplayGame refuses longer logs before any work (REPLAY_TOO_LONG); derivation in engine_service/api/config.py.
    max_replay_actions: int = DEFAULT_MAX_REPLAY_ACTIONS
    # The most ISMCTS iterations a server-side bot move may ask for (INVALID_BOT_CHOICE beyond).
    max_bot_iterations: int = DEFAULT_MAX_BOT_ITERATIONS
    # The most items of one BatchApplyActions call (BATCH_TOO_LARGE beyond); derivation in engine_service/api/config.py.
    max_batch_items: int = DEFAULT_MAX_BATCH_ITEMS
    # States, tokens and seat keys already checked, remembered per process (engine_service/api/state_memo.py),
    # this many of each kind; 0: every call checks its game in full.
    state_memo_entries: int = DEFAULT_STATE_MEMO_ENTRIES

    def api_config(self, key_ring: KeyRing, memo: StateMemo | None = None) -> ApiConfig:
        """What the handlers of either transport read: the key ring, the replay, response and bot bounds, seat keys,
        and the memo of states already checked (``memo``: the process's, shared by its transports; else a new one)."""
        if memo is None:
            memo = StateMemo(self.state_memo_entries)
        return ApiConfig(
            key_ring,
            self.max_replay_actions,
            self.max_response_bytes,
            self.max_bot_iterations,
            self.seat_keys,
            memo,
            max_batch_items=self.max_batch_items,
            max_request_bytes=self.max_request_bytes,
        )

    @property
    def workers(self) -> int:
        """Deprecated: ``threads`` (handler threads per process, not the worker processes of ``processes``)."""
        warnings.warn("Settings.workers is deprecated: read Settings.threads", DeprecationWarning, stacklevel=2)
        return self.threads

    @property
    def max_message_bytes(self) -> int:
        """Deprecated: ``max_response_bytes`` (the requests' limit is ``max_request_bytes``)."""
        warning = "Settings.max_message_bytes is deprecated: read Settings.max_response_bytes"
        warnings.warn(warning, DeprecationWarning, stacklevel=2)
        return self.max_response_bytes

    def __post_init__(self) -> None:
        if self.max_response_bytes <= 0 or self.max_request_bytes <= 0:
            raise ValueError("max_response_bytes and max_request_bytes must be positive")
        if self.max_replay_actions <= 0:
            raise ValueError("max_replay_actions must be positive")
        if self.max_bot_iterations <= 0:
            raise ValueError("max_bot_iterations must be positive")
        if self.threads <= 0:
            raise ValueError("threads must be positive")
        if self.max_batch_items <= 0:
            raise ValueError("max_batch_items must be positive")
        if self.grace_seconds < 0:
            raise ValueError("grace_seconds must not be negative")
        if self.log_level not in LOG_LEVELS:
            raise ValueError(f"log_level must be one of {', '.join(LOG_LEVELS)}")
        if self.log_format not in LOG_FORMATS:
            raise ValueError(f"log_format must be one of {', '.join(LOG_FORMATS)}")
        if not 0 <= self.metrics_port <= 65535:
            raise ValueError("metrics_port must be a port number (0 disables the metrics)")
        if self.processes <= 0:
            raise ValueError("processes must be positive")
        if self.max_concurrent_rpcs < 0:
            raise ValueError("max_concurrent_rpcs must not be negative (0: no limit)")
        if self.max_call_seconds < 0:
            raise ValueError("max_call_seconds must not be negative (0: no budget)")
        if self.expensive_calls <= 0:
            raise ValueError("expensive_calls must be positive")
        if self.expensive_queue < 0:
            raise ValueError("expensive_queue must not be negative (0: refuse an expensive call when no slot is free)")
        if self.state_memo_entries < 0:
            raise ValueError("state_memo_entries must not be negative (0: no memo)")
        if self.keepalive_time_seconds <= 0 or self.keepalive_timeout_seconds <= 0:
            raise ValueError("keepalive time and timeout must be positive")
        if self.min_ping_interval_seconds < 0:
            raise ValueError("min_ping_interval_seconds must not be negative")
        if self.max_connection_age_seconds < 0 or self.max_connection_age_grace_seconds < 0:
            raise ValueError("max connection age and its grace must not be negative (0: no limit)")
        if self.sealing_keys_file and self.sealing_keys.strip():
            raise ValueError(f"set {ENV['sealing_keys_file']} (--sealing-keys-file) or {ENV['sealing_keys']}, not both")


def defaults_from_env(environ: Mapping[str, str] | None = None) -> Settings:
    """The defaults with any SPLENDOR_* variables applied (raises ValueError for a bad value)."""
    env = os.environ if environ is None else environ
    base = Settings()

    old_names = {name: variable for variable, name in DEPRECATED_ENV.items()}

    def get(name: str, default: object) -> str:
        value = env.get(ENV[name])
        if value is None and name in old_names:
            value = env.get(old_names[name])
        return str(default) if value is None else value

    def flag(name: str, default: bool) -> bool:
        value = env.get(ENV[name], "").strip().lower()
        if not value:
            return default
        if value not in _TRUE | _FALSE:
            raise ValueError(f"{ENV[name]} must be one of {', '.join(sorted(_TRUE | _FALSE))}, not {value!r}")
        return value in _TRUE

    return Settings(
        address=get("address", base.address),
        max_response_bytes=int(get("max_response_bytes", base.max_response_bytes)),
        max_request_bytes=int(get("max_request_bytes", base.max_request_bytes)),
        max_replay_actions=int(get("max_replay_actions", base.max_replay_actions)),
        max_bot_iterations=int(get("max_bot_iterations", base.max_bot_iterations)),
        threads=int(get("threads", base.threads)),
        max_batch_items=int(get("max_batch_items", base.max_batch_items)),
        grace_seconds=float(get("grace_seconds", base.grace_seconds)),
        log_level=get("log_level", base.log_level).lower(),
        log_format=get("log_format", base.log_format).lower(),
        metrics_port=int(get("metrics_port", base.metrics_port)),
        processes=int(get("processes", base.processes)),
        max_concurrent_rpcs=int(get("max_concurrent_rpcs", base.max_concurrent_rpcs)),
        keepalive_time_seconds=float(get("keepalive_time_seconds", base.keepalive_time_seconds)),
        keepalive_timeout_seconds=float(get("keepalive_timeout_seconds", base.keepalive_timeout_seconds)),
        min_ping_interval_seconds=float(get("min_ping_interval_seconds", base.min_ping_interval_seconds)),
        max_connection_age_seconds=float(get("max_connection_age_seconds", base.max_connection_age_seconds)),
        max_connection_age_grace_seconds=float(
            get("max_connection_age_grace_seconds", base.max_connection_age_grace_seconds)
        ),
        otlp_endpoint=get("otlp_endpoint", base.otlp_endpoint),
        http_address=get("http_address", base.http_address),
        http_cors_origins=tuple(origin for origin in get("http_cors_origins", "").split(",") if origin),
        max_call_seconds=float(get("max_call_seconds", base.max_call_seconds)),
        expensive_calls=int(get("expensive_calls", base.expensive_calls)),
        expensive_queue=int(get("expensive_queue", base.expensive_queue)),
        sealing_keys_file=get("sealing_keys_file", base.sealing_keys_file),
        sealing_keys=get("sealing_keys", base.sealing_keys),
        seat_keys=flag("seat_keys", base.seat_keys),
        allow_example_key=flag("allow_example_key", base.allow_example_key),
        state_memo_entries=int(get("state_memo_entries", base.state_memo_entries)),
    )


def deprecated_variables(environ: Mapping[str, str] | None = None) -> list[str]:
    """What to say of each deprecated variable set in the environment: its new name."""
    env = os.environ if environ is None else environ
    return [
        f"{variable} is deprecated: set {ENV[name]}" + (" (it wins)" if ENV[name] in env else "")
        for variable, name in DEPRECATED_ENV.items()
        if variable in env
    ]


def grpc_server_options(settings: Settings, *, reuse_port: bool = False) -> list[tuple[str, int]]:
    """The ``grpc.server`` channel arguments for ``settings``.

    ``reuse_port``: let several processes bind the same port (worker-process mode). Off
    otherwise, so a second server cannot silently bind the port and take half the calls.
    """

    def ms(seconds: float) -> int:
        return round(seconds * 1000)

    options = [
        ("grpc.max_receive_message_length", settings.max_request_bytes),
        ("grpc.max_send_message_length", settings.max_response_bytes),
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        ("grpc.keepalive_time_ms", ms(settings.keepalive_time_seconds)),
        ("grpc.keepalive_timeout_ms", ms(settings.keepalive_timeout_seconds)),
        # Accept client keepalive pings on idle connections (no call in flight), no more often
        # than min_ping_interval; without this an idle client with keepalive gets GOAWAY
        # "too_many_pings".
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", ms(settings.min_ping_interval_seconds)),
        ("grpc.http2.max_pings_without_data", 0),  # the server's own keepalive pings need no data in between
    ]
    if settings.max_connection_age_seconds > 0:
        options += [
            ("grpc.max_connection_age_ms", ms(settings.max_connection_age_seconds)),
            ("grpc.max_connection_age_grace_ms", ms(settings.max_connection_age_grace_seconds)),
        ]
    return options
