"""The ``splendor-engine`` command: ``splendor-engine serve [options]`` and ``splendor-engine keygen``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine_service.runtime.logs import configure_logging
from engine_service.runtime.settings import (
    ENV,
    LOG_FORMATS,
    LOG_LEVELS,
    Settings,
    defaults_from_env,
    deprecated_variables,
)
from engine_service.sealing import KeyRing, KeyRingError, load_key_ring, new_key_line

__all__ = ["configure_logging", "main"]


def _parser(defaults: Settings) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="splendor-engine", description="The stateless Splendor rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser(
        "serve",
        help="run the gRPC server",
        description="Run the splendor.v1.EngineService gRPC server (with health, reflection and Prometheus "
        "metrics) until SIGTERM or SIGINT, then drain: health turns NOT_SERVING, new calls are refused and "
        "calls in flight get the grace period to finish. Each option defaults to its environment variable, "
        "then to the value shown. See docs/operations.md.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )

    def add(flag: str, key: str, help_text: str, **kwargs: object) -> None:
        text = f"{help_text} (env {ENV[key]})"
        serve.add_argument(flag, dest=key, default=getattr(defaults, key), help=text, **kwargs)  # type: ignore[arg-type]

    add("--address", "address", "host:port to listen on; port 0 picks one")
    add("--processes", "processes", "server processes sharing the port (SO_REUSEPORT) under a supervisor", type=int)
    serve.add_argument(
        "--threads",
        "--workers",
        dest="threads",
        metavar="THREADS",
        type=int,
        default=defaults.threads,
        help=f"handler threads per process (env {ENV['threads']}); --workers, SPLENDOR_WORKERS: deprecated names",
    )
    add(
        "--max-concurrent-rpcs",
        "max_concurrent_rpcs",
        "engine calls admitted at once per process, the rest answered RESOURCE_EXHAUSTED (health checks are never "
        "refused); 0: no limit",
        type=int,
    )
    serve.add_argument(
        "--max-response-bytes",
        "--max-message-bytes",
        dest="max_response_bytes",
        metavar="BYTES",
        type=int,
        default=defaults.max_response_bytes,
        help="largest response, in bytes (a larger one is refused with RESPONSE_TOO_LARGE) "
        f"(env {ENV['max_response_bytes']}); --max-message-bytes, SPLENDOR_MAX_MESSAGE_BYTES: deprecated names",
    )
    add(
        "--max-request-bytes",
        "max_request_bytes",
        "largest request, in bytes (larger ones get RESOURCE_EXHAUSTED); bounds each call's memory",
        type=int,
    )
    add(
        "--max-replay-actions",
        "max_replay_actions",
        "ReplayGame refuses longer action logs before any work (REPLAY_TOO_LONG)",
        type=int,
    )
    add(
        "--max-bot-iterations",
        "max_bot_iterations",
        "most ISMCTS iterations a server-side bot move may ask for (INVALID_BOT_CHOICE beyond); a search also "
        "stops at half of the call's remaining deadline",
        type=int,
    )
    add(
        "--max-batch-items",
        "max_batch_items",
        "most items of one BatchApplyActions call (BATCH_TOO_LARGE beyond); published in the catalog's limits",
        type=int,
    )
    add(
        "--max-call-seconds",
        "max_call_seconds",
        "server time budget of one engine call in seconds (DEADLINE_EXCEEDED beyond); 0: the caller's deadline only",
        type=float,
    )
    add("--expensive-calls", "expensive_calls", "expensive calls (Simulate, ReplayGame, searches) at once", type=int)
    add(
        "--expensive-queue",
        "expensive_queue",
        "expensive calls that may wait for a slot; beyond, refused at once (RESOURCE_EXHAUSTED)",
        type=int,
    )
    add(
        "--state-memo-entries",
        "state_memo_entries",
        "states, tokens and seat keys already checked that a process remembers, of each kind; 0: check every call's "
        "game in full",
        type=int,
    )
    add("--grace-seconds", "grace_seconds", "time calls in flight get to finish on shutdown", type=float)
    add("--metrics-port", "metrics_port", "port of the Prometheus /metrics endpoint; 0 disables it", type=int)
    add("--log-level", "log_level", "log level", choices=LOG_LEVELS)
    add(
        "--log-format",
        "log_format",
        "json (one object per line), console, or auto: console on a terminal, else json",
        choices=LOG_FORMATS,
    )
    add("--keepalive-time-seconds", "keepalive_time_seconds", "ping a connection idle this long", type=float)
    add(
        "--keepalive-timeout-seconds",
        "keepalive_timeout_seconds",
        "close a connection whose ping is not answered within this",
        type=float,
    )
    add(
        "--min-ping-interval-seconds",
        "min_ping_interval_seconds",
        "shortest interval allowed between client keepalive pings",
        type=float,
    )
    add(
        "--max-connection-age-seconds",
        "max_connection_age_seconds",
        "close connections this old (clients reconnect and rebalance); 0: never",
        type=float,
    )
    add(
        "--max-connection-age-grace-seconds",
        "max_connection_age_grace_seconds",
        "time calls in flight on an aged connection get to finish",
        type=float,
    )
    add(
        "--otlp-endpoint",
        "otlp_endpoint",
        "OTLP/gRPC collector for traces, e.g. http://otel-collector:4317; empty: OTEL_EXPORTER_OTLP_ENDPOINT, "
        "else tracing off",
    )
    add("--http-address", "http_address", "host:port for Connect and gRPC-Web over HTTP; port 0 picks one; empty: off")
    serve.add_argument(
        "--http-cors-origin",
        dest="http_cors_origins",
        metavar="ORIGIN",
        action="append",
        default=None,
        help="browser origin allowed to call across origins (CORS), e.g. https://play.example.com; repeatable; "
        f"'*': any; none: same-origin only (env {ENV['http_cors_origins']}, comma-separated)",
    )
    add(
        "--sealing-keys-file",
        "sealing_keys_file",
        "file of the key ring that seals game tokens: lines KEY_ID:BASE64KEY (32 random bytes), the first "
        "one sealing, the others still opening, KEY_ID:retired refusing a key's tokens. Instead of a file, "
        f"{ENV['sealing_keys']} may hold the same lines (commas also separate them). With neither, a key is "
        "generated at start-up: replicas must share one, so configure it when running more than one",
    )
    serve.add_argument(
        "--no-seat-keys",
        dest="seat_keys",
        action="store_false",
        default=defaults.seat_keys,
        help="do not require seat keys on sealed requests that name or act as a seat: only for a platform that "
        f"binds players to seats itself (env {ENV['seat_keys']}=false)",
    )
    serve.add_argument(
        "--allow-example-key",
        dest="allow_example_key",
        action="store_true",
        default=defaults.allow_example_key,
        help="start although the key ring holds the published example key, with which anyone can read and forge "
        f"game tokens: for a throwaway setup only (env {ENV['allow_example_key']}=true)",
    )
    keygen = commands.add_parser(
        "keygen",
        help="print a new sealing key line",
        description="Print one line KEY_ID:BASE64KEY of 32 fresh random bytes, for a sealing key ring "
        "(--sealing-keys-file or the variable; see deploy/README.md). Nothing is stored.",
    )
    keygen.add_argument("--key-id", default="", help="the key's id (1-32 of A-Z a-z 0-9 . _ -); default: random")
    return parser


def keygen(key_id: str) -> int:
    try:
        print(new_key_line(key_id))
    except KeyRingError as error:
        print(f"splendor-engine keygen: {error}", file=sys.stderr)
        return 2
    return 0


def refuse_example_key(key_ring: KeyRing, allowed: bool) -> str | None:
    """Why the server must not start with ``key_ring`` (the published example key, not allowed), or None."""
    if not key_ring.uses_example_key or allowed:
        return None
    return (
        "the key ring holds the published example key, with which anyone can read and forge game tokens. "
        "Generate a key (`splendor-engine keygen`) and configure it; for a throwaway setup only, start with "
        f"--allow-example-key ({ENV['allow_example_key']}=true)"
    )


# The old spellings of two flags, still accepted: --workers were threads, and the message limit the response's only.
DEPRECATED_FLAGS = {"--workers": "--threads", "--max-message-bytes": "--max-response-bytes"}


def deprecated_flags(argv: Sequence[str]) -> list[str]:
    """What to say of each deprecated flag in ``argv``: its new name."""
    return [
        f"{old} is deprecated: use {new}"
        for old, new in DEPRECATED_FLAGS.items()
        if any(arg == old or arg.startswith(old + "=") for arg in argv)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    try:
        defaults = defaults_from_env()
    except ValueError as error:
        print(f"splendor-engine: bad environment variable: {error}", file=sys.stderr)
        return 2
    arguments = sys.argv[1:] if argv is None else list(argv)
    for notice in [*deprecated_variables(), *deprecated_flags(arguments)]:
        print(f"splendor-engine: {notice}", file=sys.stderr)
    args = _parser(defaults).parse_args(arguments)
    if args.command == "keygen":
        return keygen(args.key_id)
    try:
        settings = Settings(
            address=args.address,
            max_response_bytes=args.max_response_bytes,
            max_request_bytes=args.max_request_bytes,
            max_replay_actions=args.max_replay_actions,
            max_bot_iterations=args.max_bot_iterations,
            max_batch_items=args.max_batch_items,
            max_call_seconds=args.max_call_seconds,
            expensive_calls=args.expensive_calls,
            expensive_queue=args.expensive_queue,
            state_memo_entries=args.state_memo_entries,
            threads=args.threads,
            grace_seconds=args.grace_seconds,
            log_level=args.log_level,
            log_format=args.log_format,
            metrics_port=args.metrics_port,
            processes=args.processes,
            max_concurrent_rpcs=args.max_concurrent_rpcs,
            keepalive_time_seconds=args.keepalive_time_seconds,
            keepalive_timeout_seconds=args.keepalive_timeout_seconds,
            min_ping_interval_seconds=args.min_ping_interval_seconds,
            max_connection_age_seconds=args.max_connection_age_seconds,
            max_connection_age_grace_seconds=args.max_connection_age_grace_seconds,
            otlp_endpoint=args.otlp_endpoint,
            http_address=args.http_address,
            http_cors_origins=tuple(args.http_cors_origins or defaults.http_cors_origins),
            sealing_keys_file=args.sealing_keys_file,
            sealing_keys=defaults.sealing_keys,
            seat_keys=args.seat_keys,
            allow_example_key=args.allow_example_key,
        )
        # Loaded once, here, before any worker is forked: every process seals with the same ring.
        key_ring = load_key_ring(settings.sealing_keys, settings.sealing_keys_file)
    except KeyRingError as error:
        print(f"splendor-engine: sealing keys: {error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"splendor-engine: {error}", file=sys.stderr)
        return 2
    refused = refuse_example_key(key_ring, settings.allow_example_key)
    if refused is not None:
        print(f"splendor-engine: sealing keys: {refused}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    from engine_service.core_info import log_rules_core  # noqa: PLC0415 (beside serve's import: only serving logs it)

    log_rules_core()
    from engine_service.process.main import serve  # noqa: PLC0415 (grpc loads only for a command that needs it)

    return serve(settings, key_ring)


if __name__ == "__main__":
    sys.exit(main())
