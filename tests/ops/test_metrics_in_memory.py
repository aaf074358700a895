"""One process keeps its metric values in memory even with PROMETHEUS_MULTIPROC_DIR set (the
container sets it), and its /metrics serves what the multiprocess collector of several
processes serves: the same families, types, help, series and labels, nothing more."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.deploy.exported_metrics import exercise
from tests.ops.support import ROOT, Server

pytestmark = pytest.mark.e2e

Shape = dict[str, tuple[str, str, frozenset[tuple[str, tuple[str, ...]]]]]


def exposition_shape(server: Server) -> Shape:
    """Each family's type, help and (series name, label names) pairs, as /metrics serves them."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=5) as response:
        text = response.read().decode()
    return {
        family.name: (
            family.type,
            family.documentation,
            frozenset((sample.name, tuple(sorted(sample.labels))) for sample in family.samples),
        )
        for family in text_string_to_metric_families(text)
    }


def served_shape(tmp_path: Path, processes: int) -> tuple[Shape, list[str]]:
    """The /metrics shape of a server with ``processes`` processes after a few calls, and the value
    files it wrote to its PROMETHEUS_MULTIPROC_DIR."""
    metrics_dir = tmp_path / f"metrics-{processes}"
    metrics_dir.mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    with Server("--threads", "2", processes=processes, env=env) as server:
        exercise(server)
        shape = exposition_shape(server)
        files = sorted(path.name for path in metrics_dir.glob("*.db"))
        assert server.stop() == 0
    return shape, files


def test_one_process_serves_the_multiprocess_families_from_memory(tmp_path: Path) -> None:
    alone, alone_files = served_shape(tmp_path, processes=1)
    several, several_files = served_shape(tmp_path, processes=2)

    assert alone_files == [], "one process writes no value files"
    assert several_files, "several processes share their values through files"
    assert alone.keys() == several.keys()
    for name, shape in several.items():
        assert alone[name] == shape, name
    assert not [name for name in alone if name.startswith(("process_", "python_"))]


# Run in a process of its own: the mode is the process's, chosen before its metrics exist.
_CHOOSE_AFTER_METRICS_EXIST = """
from engine_service.runtime.metrics import get_metrics, keep_values_in_memory
get_metrics()
try:
    keep_values_in_memory()
except RuntimeError as error:
    print("refused:", error)
"""


def test_the_mode_is_chosen_before_the_metrics_exist(tmp_path: Path) -> None:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _CHOOSE_AFTER_METRICS_EXIST], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("refused: the metrics already exist"), done.stdout + done.stderr
