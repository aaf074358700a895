"""Which rules core this process runs, compiled (mypyc) or pure Python, for the start-up log and metrics.

An installation compiles the core when it can (build_support/compiled_core.py) and falls back to
the pure core otherwise; the two play the same games at different speeds, so an operator needs
to see which one a process got. The compiled build holds the rules core and the codec's per-call
modules in one library, so the one kind names both.
"""

from __future__ import annotations

import os
from importlib import machinery, metadata
from pathlib import Path
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


def running_from_a_checkout() -> bool:
    """Whether the engine is imported from a checkout of its repository (an editable install, PYTHONPATH),
    not from an installed wheel: the checkout has the Makefile that builds the compiled core beside it."""
    root = Path(engine_service.rules.engine.__file__).resolve().parents[2]
    return (root / "Makefile").is_file() and (root / "build_support").is_dir()


def compiled_core_hint() -> str | None:
    """How to get the compiled core (the faster one), when this process runs the pure one; None when
    it runs the compiled core."""
    if core_kind() == "compiled":
        return None
    if running_from_a_checkout():
        return (
            "the checkout's sources run as they are; `make serve` builds the compiled core and serves it "
            "(or `make compiled`, then PYTHONPATH=build/compiled-core)"
        )
    return (
        "this installation was built without a C compiler; with one and the Python headers (Debian: gcc "
        "python3-dev), reinstall the splendor-engine wheel or package: it compiles the core when it can"
    )


def log_rules_core() -> None:
    """The start-up line saying which core serves (``make serve``'s log says ``compiled`` or ``pure``), and
    for the pure core a second one saying how to get the compiled one."""
    log = structlog.get_logger(__name__)
    log.info("rules_core", core=core_kind(), version=engine_version(), pid=os.getpid())
    hint = compiled_core_hint()
    if hint is not None:
        log.info("rules_core_hint", hint=hint, pid=os.getpid())
