"""Server settings: defaults, overridden by environment variables, overridden by flags."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

LOG_LEVELS: Final = ("debug", "info", "warning", "error")

# Environment variable for each setting (the CLI documents them in --help).
ENV: Final = {
    "address": "SPLENDOR_ADDRESS",
    "max_message_bytes": "SPLENDOR_MAX_MESSAGE_BYTES",
    "workers": "SPLENDOR_WORKERS",
    "grace_seconds": "SPLENDOR_GRACE_SECONDS",
    "log_level": "SPLENDOR_LOG_LEVEL",
}


@dataclass(frozen=True)
class Settings:
    address: str = "localhost:50051"  # host:port; port 0 picks a free port
    max_message_bytes: int = 4 * 1024 * 1024  # both directions; a long ReplayGame is the largest message
    # Handlers hold the GIL, so threads add no throughput, only contention: on 2 cores ApplyAction
    # peaked at 2 (~3.5k calls/s, against ~2.5k with 8). More let long calls (ReplayGame) overlap short ones.
    workers: int = 2
    grace_seconds: float = 10.0  # how long in-flight calls may run after SIGTERM
    log_level: str = "info"

    def __post_init__(self) -> None:
        if self.max_message_bytes <= 0:
            raise ValueError("max_message_bytes must be positive")
        if self.workers <= 0:
            raise ValueError("workers must be positive")
        if self.grace_seconds < 0:
            raise ValueError("grace_seconds must not be negative")
        if self.log_level not in LOG_LEVELS:
            raise ValueError(f"log_level must be one of {', '.join(LOG_LEVELS)}")


def defaults_from_env(environ: Mapping[str, str] | None = None) -> Settings:
    """The defaults with any SPLENDOR_* variables applied (raises ValueError for a bad value)."""
    env = os.environ if environ is None else environ
    base = Settings()
    return Settings(
        address=env.get(ENV["address"], base.address),
        max_message_bytes=int(env.get(ENV["max_message_bytes"], base.max_message_bytes)),
        workers=int(env.get(ENV["workers"], base.workers)),
        grace_seconds=float(env.get(ENV["grace_seconds"], base.grace_seconds)),
        log_level=env.get(ENV["log_level"], base.log_level).lower(),
    )
