"""Which core an installation gets (build_support/compiled_core.py), decided without building anything."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from build_support.compiled_core import (
    API_MODULES,
    API_PACKAGE,
    CODEC_MODULES,
    CODEC_PACKAGE,
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


def test_the_codec_modules_on_every_calls_path_are_compiled_and_its_others_stay_python() -> None:
    sources = compiled_sources(ROOT)
    codec = sorted(source for source in sources if Path(source).is_relative_to(CODEC_PACKAGE))
    assert codec == sorted(str(module) for module in CODEC_MODULES)
    assert all((ROOT / module).is_file() for module in CODEC_MODULES)
    assert {"bounds.py", "state.py", "view.py", "events.py"} <= {module.name for module in CODEC_MODULES}
    assert not {"__init__.py", "common.py", "catalog.py"} & {module.name for module in CODEC_MODULES}


def test_the_api_modules_of_every_move_are_compiled_and_those_a_test_or_a_log_needs_python_stay_python() -> None:
    sources = compiled_sources(ROOT)
    api = sorted(source for source in sources if Path(source).is_relative_to(API_PACKAGE))
    assert api == sorted(str(module) for module in API_MODULES)
    assert all((ROOT / module).is_file() for module in API_MODULES)
    assert {"apply.py", "next_move.py", "state_memo.py"} <= {module.name for module in API_MODULES}
    # call.py logs from its instance dictionary; tests replace functions batch.py and source.py call.
    assert not {"__init__.py", "call.py", "batch.py", "source.py"} & {module.name for module in API_MODULES}


def copy_of_the_compiled_packages(root: Path) -> None:
    for package in (CORE_PACKAGE, CODEC_PACKAGE, API_PACKAGE):
        shutil.copytree(ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))


def test_the_cache_key_follows_the_sources_the_opt_level_and_the_compiler(tmp_path: Path) -> None:
    copy_of_the_compiled_packages(tmp_path)
    key = cache_key(tmp_path, {})
    assert cache_key(tmp_path, {}) == key
    assert cache_key(tmp_path, {"SPLENDOR_CORE_OPT_LEVEL": "3"}) != key
    assert cache_key(tmp_path, {"CC": "clang"}) != key
    engine = tmp_path / CORE_PACKAGE / "engine.py"
    engine.write_text(engine.read_text() + "\n# an edit\n")
    edited_core = cache_key(tmp_path, {})
    assert edited_core != key
    state = tmp_path / CODEC_PACKAGE / "state.py"
    state.write_text(state.read_text() + "\n# an edit\n")
    edited_codec = cache_key(tmp_path, {})
    assert edited_codec != edited_core, "a compiled codec module"
    common = tmp_path / CODEC_PACKAGE / "common.py"
    common.write_text(common.read_text() + "\n# an edit\n")
    edited_common = cache_key(tmp_path, {})
    assert edited_common != edited_codec, "a module the compiled ones import"
    apply_module = tmp_path / API_PACKAGE / "apply.py"
    apply_module.write_text(apply_module.read_text() + "\n# an edit\n")
    assert cache_key(tmp_path, {}) != edited_common, "a compiled API module"


def test_an_opt_level_outside_0_to_3_is_refused(tmp_path: Path) -> None:
    copy_of_the_compiled_packages(tmp_path)
    with pytest.raises(CoreBuildError, match="SPLENDOR_CORE_OPT_LEVEL"):
        cache_key(tmp_path, {"SPLENDOR_CORE_OPT_LEVEL": "fast"})
