"""Which core an installation gets (build_support/compiled_core.py), decided without building anything."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from build_support.compiled_core import (
    CORE_PACKAGE,
    CoreBuildError,
    build_problem,
    cache_key,
    compiled_sources,
    plan_core,
    requested_core,
)

ROOT = Path(__file__).resolve().parents[2]
NO_COMPILER = "/nonexistent/cc"  # what CC names when a machine has no C compiler


def test_an_unset_or_empty_choice_means_auto() -> None:
    assert requested_core({}) == "auto"
    assert requested_core({"SPLENDOR_CORE": " "}) == "auto"
    assert requested_core({"SPLENDOR_CORE": "Compiled"}) == "compiled"


def test_an_unknown_choice_is_refused_with_the_choices() -> None:
    with pytest.raises(CoreBuildError, match="auto, compiled, pure"):
        requested_core({"SPLENDOR_CORE": "fast"})


def test_pure_is_never_compiled() -> None:
    plan = plan_core({"SPLENDOR_CORE": "pure"}, editable=False)
    assert not plan.compiled
    assert "pure Python" in plan.message()


def test_an_editable_install_runs_the_sources_pure() -> None:
    plan = plan_core({}, editable=True)
    assert not plan.compiled
    assert "editable" in plan.reason


def test_an_editable_install_refuses_a_forced_compiled_core() -> None:
    with pytest.raises(CoreBuildError, match="editable"):
        plan_core({"SPLENDOR_CORE": "compiled"}, editable=True)


def test_without_a_compiler_the_core_falls_back_to_pure_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", NO_COMPILER)
    plan = plan_core({}, editable=False)
    assert not plan.compiled
    assert "no working C compiler (/nonexistent/cc" in plan.message()
    assert "SPLENDOR_CORE=compiled makes this an error" in plan.message()


def test_without_a_compiler_a_forced_compiled_core_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", NO_COMPILER)
    with pytest.raises(CoreBuildError, match="cannot be compiled: no working C compiler"):
        plan_core({"SPLENDOR_CORE": "compiled"}, editable=False)


def test_with_a_compiler_the_core_is_compiled() -> None:
    if build_problem() is not None:
        pytest.skip(f"this machine cannot compile: {build_problem()}")
    assert plan_core({}, editable=False).compiled


def test_records_and_decisions_stay_python_and_every_other_module_is_compiled() -> None:
    sources = compiled_sources(ROOT)
    every_module = sorted(str(path.relative_to(ROOT)) for path in (ROOT / CORE_PACKAGE).rglob("*.py"))
    assert sorted(set(every_module) - set(sources)) == [
        str(CORE_PACKAGE / "decisions.py"),
        str(CORE_PACKAGE / "records.py"),
    ]
    assert str(CORE_PACKAGE / "engine.py") in sources


def test_the_cache_key_follows_the_sources_the_opt_level_and_the_compiler(tmp_path: Path) -> None:
    shutil.copytree(ROOT / CORE_PACKAGE, tmp_path / CORE_PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    key = cache_key(tmp_path, {})
    assert cache_key(tmp_path, {}) == key
    assert cache_key(tmp_path, {"SPLENDOR_CORE_OPT_LEVEL": "3"}) != key
    assert cache_key(tmp_path, {"CC": "clang"}) != key
    engine = tmp_path / CORE_PACKAGE / "engine.py"
    engine.write_text(engine.read_text() + "\n# an edit\n")
    assert cache_key(tmp_path, {}) != key


def test_an_opt_level_outside_0_to_3_is_refused(tmp_path: Path) -> None:
    shutil.copytree(ROOT / CORE_PACKAGE, tmp_path / CORE_PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    with pytest.raises(CoreBuildError, match="SPLENDOR_CORE_OPT_LEVEL"):
        cache_key(tmp_path, {"SPLENDOR_CORE_OPT_LEVEL": "fast"})
