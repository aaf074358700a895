"""Which rules core this process runs, compiled (mypyc) or pure Python, for the start-up log and metrics.

An installation compiles the core when it can (build_support/compiled_core.py) and falls back to
the pure core otherwise; the two play the same games at different speeds, so an operator needs
to see which one a process got. The compiled build holds the rules core and the codec's per-call
modules in one library, so the one kind names both.
"""

from __future__ import annotations

import os
from importlib import machinery, metadata
from types import ModuleType
from typing import Final, Literal

import structlog

import engine_service.codec.state
import engine_service.rules.engine

CoreKind = Literal["compiled", "pure"]
DISTRIBUTION = "splendor-engine"
# One module of each part the build compiles, standing for its part: the rules core and the codec
# (each part is built whole, and the two together).
COMPILED_PARTS: Final = (engine_service.rules.engine, engine_service.codec.state)


def core_kind_of(module: ModuleType) -> CoreKind:
    """``compiled`` when ``module`` was loaded from a C extension, ``pure`` from Python source."""
    path = getattr(module, "__file__", None) or ""
    return "compiled" if path.endswith(tuple(machinery.EXTENSION_SUFFIXES)) else "pure"


def core_kind() -> CoreKind:
    """The kind of the rules core and codec imported here: ``compiled`` only when both parts are."""
    compiled = all(core_kind_of(module) == "compiled" for module in COMPILED_PARTS)
    return "compiled" if compiled else "pure"


def engine_version() -> str:
    """The installed splendor-engine release; ``unknown`` when running from sources never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def log_rules_core() -> None:
    """The start-up line saying which core serves (``make serve``'s log says ``compiled`` or ``pure``)."""
    structlog.get_logger(__name__).info("rules_core", core=core_kind(), version=engine_version(), pid=os.getpid())
