"""The ``splendor-engine`` command: ``splendor-engine serve [options]``."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

import structlog

from engine_service.server.settings import ENV, LOG_LEVELS, Settings, defaults_from_env


def configure_logging(level: str) -> None:
    """One JSON object per line on stderr."""
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelNamesMapping()[level.upper()]),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )


def _parser(defaults: Settings) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="splendor-engine", description="The stateless Splendor rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser(
        "serve",
        help="run the gRPC server",
        description="Run the splendor.v1.EngineService gRPC server (with health and reflection) until "
        "SIGTERM or SIGINT, then drain: health turns NOT_SERVING, new calls are refused and calls in "
        "flight get the grace period to finish. Each option defaults to its environment variable, then "
        "to the value shown.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    serve.add_argument(
        "--address", default=defaults.address, help=f"host:port to listen on; port 0 picks one (env {ENV['address']})"
    )
    serve.add_argument(
        "--max-message-bytes",
        type=int,
        default=defaults.max_message_bytes,
        help=f"largest request or response, in bytes (env {ENV['max_message_bytes']})",
    )
    serve.add_argument("--workers", type=int, default=defaults.workers, help=f"handler threads (env {ENV['workers']})")
    serve.add_argument(
        "--grace-seconds",
        type=float,
        default=defaults.grace_seconds,
        help=f"time calls in flight get to finish on shutdown (env {ENV['grace_seconds']})",
    )
    serve.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default=defaults.log_level,
        help=f"log level (env {ENV['log_level']})",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        defaults = defaults_from_env()
    except ValueError as error:
        print(f"splendor-engine: bad environment variable: {error}", file=sys.stderr)
        return 2
    args = _parser(defaults).parse_args(argv)
    try:
        settings = Settings(
            address=args.address,
            max_message_bytes=args.max_message_bytes,
            workers=args.workers,
            grace_seconds=args.grace_seconds,
            log_level=args.log_level,
        )
    except ValueError as error:
        print(f"splendor-engine: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from engine_service.server.app import serve  # noqa: PLC0415 (grpc loads only for a command that needs it)

    return serve(settings)


if __name__ == "__main__":
    sys.exit(main())
