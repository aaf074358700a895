"""Which rules core a process runs: the start-up log line and the splendor_engine_info gauge."""

from __future__ import annotations

import os
import tomllib
from importlib import machinery
from pathlib import Path
from types import ModuleType

from prometheus_client import CollectorRegistry
from structlog.testing import capture_logs

import engine_service.codec.state
import engine_service.rules.engine
from engine_service.core_info import core_kind, core_kind_of, engine_version, log_rules_core
from engine_service.runtime.metrics import register_engine_info
from tests.ops.support import Server, value

ROOT = Path(__file__).resolve().parents[2]


def module_loaded_from(file_name: str) -> ModuleType:
    module = ModuleType("engine")
    module.__file__ = f"/site-packages/engine_service/rules/{file_name}"
    return module


def test_a_module_from_python_source_is_pure_and_one_from_a_c_extension_is_compiled() -> None:
    assert core_kind_of(module_loaded_from("engine.py")) == "pure"
    for suffix in machinery.EXTENSION_SUFFIXES:
        assert core_kind_of(module_loaded_from(f"engine{suffix}")) == "compiled"


def test_the_core_kind_matches_the_loader_that_imported_the_engine_and_the_codec() -> None:
    loaders = []
    for module in (engine_service.rules.engine, engine_service.codec.state):
        spec = module.__spec__
        assert spec is not None
        loaders.append(isinstance(spec.loader, machinery.ExtensionFileLoader))
    assert loaders[0] == loaders[1], "the rules core and the codec are compiled together or not at all"
    assert core_kind() == ("compiled" if loaders[0] else "pure")


def test_the_version_is_the_one_in_pyproject() -> None:
    assert engine_version() == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_engine_info_gauge_is_1_labelled_with_the_core_and_the_version() -> None:
    registry = CollectorRegistry()
    register_engine_info(registry)
    labels = {"core": core_kind(), "version": engine_version()}
    assert registry.get_sample_value("splendor_engine_info", labels) == 1.0
    other = {"core": "pure" if core_kind() == "compiled" else "compiled", "version": engine_version()}
    assert registry.get_sample_value("splendor_engine_info", other) is None


def test_the_rules_core_log_line_names_the_core_and_the_version() -> None:
    with capture_logs() as logs:
        log_rules_core()
    expected = {"core": core_kind(), "version": engine_version(), "pid": os.getpid()}
    assert logs[0] == {"event": "rules_core", "log_level": "info", **expected}
    # The pure core adds how to get the compiled one (tests/ops/test_banner.py).
    assert [line["event"] for line in logs[1:]] == (["rules_core_hint"] if core_kind() == "pure" else [])


def test_a_starting_server_logs_its_core_and_exports_the_same_on_metrics(server: Server) -> None:
    (line,) = server.events("rules_core")
    assert line["core"] in ("compiled", "pure")
    assert line["version"] == engine_version()
    assert value(server.scrape(), "splendor_engine_info", core=line["core"], version=line["version"]) == 1.0
    assert value(server.scrape(), "splendor_engine_info") == 1.0, "exactly one series"


def test_worker_processes_export_one_engine_info_series_between_them() -> None:
    with Server(processes=2) as workers:
        samples = workers.scrape()
        assert workers.stop() == 0
    series = [labels for (name, labels), _ in samples.items() if name == "splendor_engine_info"]
    assert len(series) == 1, series
    assert value(samples, "splendor_engine_info") == 1.0
