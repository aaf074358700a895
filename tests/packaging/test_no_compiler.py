"""Installing on a machine without a C compiler (hidden here with CC): the pure core, and a line saying so.

These builds use this environment's setuptools and mypy (--no-build-isolation), and compile nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NO_COMPILER = "/nonexistent/cc"


def build_wheel(out: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation", "-w", str(out), "."]
    env = {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}
    return subprocess.run(
        command, cwd=ROOT, env={**env, **environment}, capture_output=True, text=True, check=False, timeout=600
    )


def test_without_a_compiler_the_wheel_is_pure_and_the_build_says_why(tmp_path: Path) -> None:
    done = build_wheel(tmp_path, CC=NO_COMPILER)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (
        f"rules core: pure Python — cannot compile (no working C compiler ({NO_COMPILER}" in done.stdout + done.stderr
    )
    (wheel,) = tmp_path.glob("splendor_engine-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "engine_service/rules/engine.py" in names
    assert not [name for name in names if name.endswith(".so")]


def test_without_a_compiler_a_forced_compiled_core_fails_the_build(tmp_path: Path) -> None:
    done = build_wheel(tmp_path, CC=NO_COMPILER, SPLENDOR_CORE="compiled")
    assert done.returncode != 0
    assert "SPLENDOR_CORE=compiled, but the core cannot be compiled: no working C compiler" in done.stdout + done.stderr
    assert list(tmp_path.glob("*.whl")) == []
