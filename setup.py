"""Setuptools entry point: everything but the compiled core is declared in pyproject.toml.

A wheel (``python -m build``, ``pip install .``) gets the rules core compiled with mypyc
when it can be and the pure core otherwise; see build_support/compiled_core.py.
"""

import os
import sys
from pathlib import Path

from setuptools import setup  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_support.compiled_core import PLACEHOLDER, BuildCompiledCore, CoreBuildError, plan_core

# Only commands that build code decide on the core: metadata and sdists need no compiler.
BUILD_COMMANDS = frozenset({"bdist_wheel", "build", "build_ext", "install", "editable_wheel", "develop"})
EDITABLE_COMMANDS = frozenset({"editable_wheel", "develop"})

extensions = []
build_base = "build/pure-wheel"
if BUILD_COMMANDS.intersection(sys.argv):
    try:
        plan = plan_core(os.environ, editable=bool(EDITABLE_COMMANDS.intersection(sys.argv)))
    except CoreBuildError as error:
        sys.exit(f"splendor-engine rules core: {error}")
    print(plan.message(), file=sys.stderr)
    if plan.compiled:
        extensions = [PLACEHOLDER]
        build_base = "build/compiled-wheel"

# One build directory per kind: an in-tree pure build never picks up extensions a compiled one left there.
setup(ext_modules=extensions, cmdclass={"build_ext": BuildCompiledCore}, options={"build": {"build_base": build_base}})
