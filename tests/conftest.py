"""What every test shares: the ``timing`` suite's membership, and Hypothesis's profiles.

- ``timing``: a test that asserts a wall-clock bound (probes answer within 1 s, a drain ends within its grace).
  The default run leaves them out (``addopts`` in pyproject.toml); ``make test-timing``, a step of its own in
  ``make test``, runs them alone and retries the ones that failed once. Every test of ``tests/edge`` (the HTTP
  attack suite) and ``tests/fleet`` (replicas behind nginx through restarts) is one; elsewhere a test says so
  with ``@pytest.mark.timing``.
- Hypothesis: the ``ci`` profile draws the same examples on every run, from one seed that a failure's report names
  (``--hypothesis-seed``, else ``$HYPOTHESIS_SEED``, else ``DEFAULT_SEED``), with no deadline (a wall-clock bound)
  and no example database. ``make test`` asks for it (``--hypothesis-profile=ci``), and so does ``CI`` set in the
  environment, as CI services set it, when no profile is named. Otherwise examples differ from run to run and each
  failure is kept and tried first next time.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest
from hypothesis import is_hypothesis_test, settings

TESTS = Path(__file__).resolve().parent
TIMING_SUITES = (TESTS / "edge", TESTS / "fleet")
DEFAULT_SEED = "1"

# derandomize stays off: it would draw from each test's name, not from the seed (Hypothesis's own ci profile sets it).
settings.register_profile("ci", deadline=None, database=None, print_blob=True, derandomize=False)


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's plugin reads the two options
def pytest_configure(config: pytest.Config) -> None:
    if config.option.hypothesis_profile is None and os.environ.get("CI"):
        config.option.hypothesis_profile = "ci"
    if config.option.hypothesis_profile == "ci" and config.option.hypothesis_seed is None:
        config.option.hypothesis_seed = os.environ.get("HYPOTHESIS_SEED") or DEFAULT_SEED


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if any(item.path.is_relative_to(suite) for suite in TIMING_SUITES):
            item.add_marker(pytest.mark.timing)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, object, None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    test = getattr(item, "obj", None)
    if report.failed and call.when == "call" and test is not None and is_hypothesis_test(test):
        seed = item.config.getoption("hypothesis_seed", default=None)
        profile = item.config.getoption("hypothesis_profile", default=None) or "default"
        how = f"--hypothesis-seed={seed}" if seed is not None else "a random seed (and the example database)"
        report.sections.append(("hypothesis", f"profile {profile}, {how}: rerun it with these to reproduce"))
