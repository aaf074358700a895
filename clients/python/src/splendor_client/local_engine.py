"""The engine in this process: the client's one door to the ``splendor-engine`` package.

In-process play (the environments' ``LocalGame``, the OpenSpiel game,
``splendor-tournament --in-process``) uses the engine's public in-process API,
``engine_service.in_process``, and nothing else of the engine, so a change inside the
engine's codec or bots cannot break the client (``tests/architecture`` fails on any other
import). It is imported on first use: without the engine, everything that talks to a
server still works, and in-process play says what to install.
"""

from __future__ import annotations

from types import ModuleType

from .install_hints import ENGINE_COMMAND, WHERE

INSTALL_HINT = ENGINE_COMMAND
_FACADE = "engine_service.in_process"


class EngineNotInstalled(ImportError):
    """In-process play was asked for, but the engine package is not importable in this Python."""


def local_engine() -> ModuleType:
    """The module ``engine_service.in_process`` (imported once, by Python's module cache)."""
    try:
        from engine_service import in_process  # noqa: PLC0415  (only in-process play needs the engine)
    except ModuleNotFoundError as error:
        if error.name not in ("engine_service", _FACADE):
            raise  # the engine is there but one of its own dependencies is not: its own error says which
        raise EngineNotInstalled(
            f"in-process play needs the Splendor engine ({_FACADE}) in this Python: {WHERE}, run "
            f"`{INSTALL_HINT}`; or play against a server: give its address "
            "(address=... for the environments, --server HOST:PORT for splendor-tournament)"
        ) from error
    return in_process
