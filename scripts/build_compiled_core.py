"""Build the compiled copy of the rules core (and the codec's and the API's per-call modules) that `make serve` and
`make test-compiled` run.

    python scripts/build_compiled_core.py [--out build/compiled-core]   (or: make compiled)
    PYTHONPATH=build/compiled-core python ...                           (use it)

The development install is editable and pure, so the checkout is never compiled in place.
This copies ``engine_service/`` into ``--out`` and builds the C extensions of
``engine_service/rules`` and of the codec and API modules the hook lists (``CODEC_MODULES``,
``API_MODULES``) beside the copied sources, with the same hook and cache as a wheel (build_support/compiled_core.py):
compiled when mypyc, a C compiler and the Python headers work, otherwise the copy is left out
and the pure core runs, as the one printed line says. ``SPLENDOR_CORE=compiled`` makes that
an error (``make test-compiled`` sets it); ``SPLENDOR_CORE=pure`` skips the build. Putting
``--out`` first on ``PYTHONPATH`` makes Python import the compiled modules (an extension module
wins over a ``.py`` of the same name).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from contextlib import chdir
from pathlib import Path

from setuptools import setup  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from build_support.compiled_core import PLACEHOLDER, BuildCompiledCore, CoreBuildError, plan_core  # noqa: E402

PACKAGE = "engine_service"


def build(out: Path) -> bool:
    """Whether ``out`` now holds a compiled core (it is emptied either way)."""
    plan = plan_core(os.environ, editable=False)
    print(plan.message())
    if out.exists():
        shutil.rmtree(out)
    if not plan.compiled:
        return False
    shutil.copytree(ROOT / PACKAGE, out / PACKAGE, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    with chdir(out):
        setup(
            name="splendor-engine-compiled-core",
            ext_modules=[PLACEHOLDER],
            cmdclass={"build_ext": BuildCompiledCore},
            script_args=["--quiet", "build_ext", "--inplace", "--build-temp", str(out / "build")],
        )
    shutil.rmtree(out / "build", ignore_errors=True)
    print(f"compiled the rules core into {out}; use it with PYTHONPATH={out}")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled-core")
    args = parser.parse_args()
    try:
        build(args.out.resolve())
    except CoreBuildError as error:
        print(f"splendor-engine rules core: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
