"""Rule: Hypothesis draws the same examples on every CI run, from a seed a failure's report names (tests/conftest.py):
``CI`` in the environment selects the ``ci`` profile when no profile is named, and the ``ci`` profile gets a seed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import settings

from tests import conftest


def _configured(profile: str | None = None, seed: str | None = None) -> Any:
    config = SimpleNamespace(option=SimpleNamespace(hypothesis_profile=profile, hypothesis_seed=seed))
    conftest.pytest_configure(config)  # type: ignore[arg-type]
    return config.option


def test_ci_in_the_environment_selects_the_seeded_ci_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("HYPOTHESIS_SEED", raising=False)
    chosen = _configured()
    assert (chosen.hypothesis_profile, chosen.hypothesis_seed) == ("ci", conftest.DEFAULT_SEED)
    monkeypatch.setenv("HYPOTHESIS_SEED", "7")
    assert _configured().hypothesis_seed == "7"
    assert _configured(seed="9").hypothesis_seed == "9"  # a seed given on the command line wins


def test_without_ci_nothing_is_chosen_unless_the_ci_profile_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("HYPOTHESIS_SEED", raising=False)
    chosen = _configured()
    assert (chosen.hypothesis_profile, chosen.hypothesis_seed) == (None, None)
    assert _configured(profile="ci").hypothesis_seed == conftest.DEFAULT_SEED  # make test's --hypothesis-profile=ci
    assert _configured(profile="default").hypothesis_seed is None


def test_the_ci_profile_draws_from_the_seed_without_a_deadline_or_a_database() -> None:
    ci = settings.get_profile("ci")
    assert (ci.derandomize, ci.deadline, ci.database, ci.print_blob) == (False, None, None, True)
