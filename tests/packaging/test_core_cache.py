"""An unchanged core is not compiled again: the build copies the extensions cached under its sources' key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from build_support.compiled_core import MANIFEST, build_problem, cache_key

ROOT = Path(__file__).resolve().parents[2]


def test_a_build_of_cached_sources_copies_the_cached_extensions_instead_of_compiling(tmp_path: Path) -> None:
    if build_problem() is not None:
        pytest.skip(f"this machine cannot compile: {build_problem()}")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}
    environment["SPLENDOR_CORE_CACHE"] = str(tmp_path / "cache")
    entry = tmp_path / "cache" / cache_key(ROOT, environment)
    entry.mkdir(parents=True)
    # A marker in place of a real extension: were it compiled, the file would hold machine code instead.
    (entry / "engine_service.rules.engine").write_bytes(b"the cached build")
    (entry / MANIFEST).write_text(json.dumps(["engine_service.rules.engine"]))
    out = tmp_path / "out"

    done = subprocess.run(
        [sys.executable, "scripts/build_compiled_core.py", "--out", str(out)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )

    assert done.returncode == 0, done.stderr[-3000:]
    assert f"reused the compiled extensions cached in {entry}" in done.stdout
    extension = out / "engine_service" / "rules" / f"engine{sysconfig.get_config_var('EXT_SUFFIX')}"
    assert extension.read_bytes() == b"the cached build"
