"""Build an optional compiled copy of the rules core with mypyc, outside the source tree.

    python scripts/build_compiled_core.py [--out build/compiled-core]   (or: make compiled)
    PYTHONPATH=build/compiled-core python ...                           (use it)

Copies ``engine_service/`` into ``--out`` and compiles the modules of
``engine_service/rules`` there, the C extensions landing beside their sources;
the checkout itself is left alone, so the pure-Python core stays the default
and what ``make test`` checks. Putting the copy first on ``PYTHONPATH`` makes
Python import the compiled modules (an extension module wins over a ``.py`` of
the same name); ``make test-compiled`` runs the whole test suite that way.

Needs mypy (a dev dependency; mypyc comes with it), setuptools, a C compiler
and the Python headers (Debian: ``apt-get install gcc python3-dev``). The
extensions are built for the running interpreter only.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from contextlib import chdir
from pathlib import Path

try:
    from mypyc.build import mypycify
    from setuptools import setup
except ImportError as missing:
    sys.exit(f"building the compiled core needs mypy (with mypyc) and setuptools: {missing}")

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "engine_service"
COMPILED_PACKAGE = Path(PACKAGE) / "rules"
# Modules left to the interpreter, with the reason.
NOT_COMPILED = {
    # distinct_kind installs __eq__/__hash__ functions on NamedTuple classes; compiled
    # functions do not bind as methods, so it must stay a Python module.
    Path(PACKAGE) / "rules" / "records.py",
    # DecisionKind's enum-like class access comes from a metaclass (a subclass of type),
    # which mypyc cannot compile.
    Path(PACKAGE) / "rules" / "decisions.py",
}


def compiled_sources(copy: Path) -> list[str]:
    sources = sorted(path.relative_to(copy) for path in (copy / COMPILED_PACKAGE).rglob("*.py"))
    return [str(path) for path in sources if path not in NOT_COMPILED]


def build(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(ROOT / PACKAGE, out / PACKAGE, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    sources = compiled_sources(out)
    with tempfile.TemporaryDirectory() as build_temp, chdir(out):
        setup(
            name="splendor-engine-compiled-core",
            ext_modules=mypycify(sources, opt_level="3", target_dir=build_temp),
            script_args=["build_ext", "--inplace", "--build-temp", build_temp, "--build-lib", build_temp],
        )
    print(f"compiled {len(sources)} modules of {COMPILED_PACKAGE} into {out}; use it with PYTHONPATH={out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled-core")
    args = parser.parse_args()
    build(args.out.resolve())


if __name__ == "__main__":
    main()
