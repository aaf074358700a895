"""Rule: CI's test run (``.ci/run`` is ``make test``) leaves the tests that assert a wall-clock bound (marker
``timing``) out of its default steps and runs them in a step of their own, ``make test-timing``, with one retry of
what failed; every pytest step of ``make test`` is seeded (the ``ci`` Hypothesis profile). Read from the Makefile."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def recipe(makefile: str, target: str) -> list[str]:
    """The recipe lines of ``target`` (continuations joined), variables left as written."""
    match = re.search(rf"^{re.escape(target)}:[^\n]*\n((?:\t[^\n]*\n)+)", makefile, flags=re.MULTILINE)
    assert match, f"no target {target}"
    return [" ".join(line.split()) for line in match[1].replace("\\\n", " ").splitlines()]


def test_ci_runs_make_test() -> None:
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith("exec make test")


def test_the_default_steps_leave_the_timing_suite_out_and_a_step_of_its_own_runs_it_with_one_retry() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "-m 'not timing'" in options["addopts"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    steps = recipe(makefile, "test") + recipe(makefile, "test-compiled")
    pytest_steps = [step for step in steps if "-m pytest" in step]
    assert len(pytest_steps) == 2 and not any("-m timing" in step for step in pytest_steps)
    assert all("$(PYTEST_CI)" in step for step in pytest_steps)
    assert "$(MAKE) --no-print-directory test-timing" in recipe(makefile, "test")
    [timing] = [step for step in recipe(makefile, "test-timing") if "-m pytest" in step]
    first, retry = timing.split(" || ")
    assert "-m timing $(PYTEST_CI)" in first and "-m timing --last-failed $(PYTEST_CI)" in retry


def test_the_recipe_reader_joins_continuations() -> None:
    text = "a: b\n\tone \\\n\t\ttwo\n\tthree\n\nc:\n\tfour\n"
    assert recipe(text, "a") == ["one two", "three"]
