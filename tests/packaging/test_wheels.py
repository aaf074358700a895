"""The engine and the client as users get them: sdists and wheels built with ``python -m build``,
installed (not editable) into a fresh virtual environment, then the installed server plays a game
with the installed client on loopback. The engine wheel's C build comes from the build cache
whenever the core is unchanged (build_support/compiled_core.py)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tarfile
import threading
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from build_support.compiled_core import build_problem
from tests.ops.support import free_port

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "python"
EXPECTED_CORE = "pure" if build_problem() else "compiled"


def version_of(project: Path) -> str:
    return str(tomllib.loads((project / "pyproject.toml").read_text())["project"]["version"])


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def clean_environment() -> dict[str, str]:
    """This environment without what would make the installed packages import the checkout instead."""
    drop = ("PYTHONPATH", "SPLENDOR_", "PROMETHEUS_MULTIPROC_DIR", "VIRTUAL_ENV")
    return {key: value for key, value in os.environ.items() if not key.startswith(drop)}


@dataclass(frozen=True)
class Built:
    dist: Path
    venv: Path
    build_output: str

    def files(self, pattern: str) -> list[Path]:
        return sorted(self.dist.glob(pattern))

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    dist = tmp_path_factory.mktemp("dist")
    output = ""
    for project in (CLIENT, ROOT):
        output += run([sys.executable, "-m", "build", "--outdir", str(dist), str(project)], cwd=project)
    venv = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", str(venv)], cwd=venv)
    wheels = [str(path) for path in sorted(dist.glob("*.whl"))]
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run([*pip, "-c", str(ROOT / "constraints.txt"), *wheels], cwd=venv, env=clean_environment())
    return Built(dist, venv, output)


def test_each_project_builds_one_sdist_and_one_wheel_of_its_single_version(built: Built) -> None:
    engine, client = version_of(ROOT), version_of(CLIENT)
    assert [path.name for path in built.files("*.tar.gz")] == [
        f"splendor_client-{client}.tar.gz",
        f"splendor_engine-{engine}.tar.gz",
    ]
    names = [path.name for path in built.files("*.whl")]
    assert len(names) == 2
    assert names[0] == f"splendor_client-{client}-py3-none-any.whl"
    assert names[1].startswith(f"splendor_engine-{engine}-")


def test_the_engine_wheel_holds_the_core_kind_this_machine_can_build(built: Built) -> None:
    (wheel,) = built.files("splendor_engine-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        extensions = [name for name in archive.namelist() if name.endswith(".so")]
        names = set(archive.namelist())
    assert "engine_service/web/static/index.html" in names, "the web front end is package data"
    assert "engine_service/rules/data/base_cards.csv" in names
    if EXPECTED_CORE == "compiled":
        assert not wheel.name.endswith("-py3-none-any.whl")
        assert any(name.startswith("engine_service/rules/engine.") for name in extensions)
        assert "rules core: compiled (mypyc)" in built.build_output
    else:
        assert wheel.name.endswith("-py3-none-any.whl")
        assert extensions == []


def test_the_engine_sdist_carries_the_build_hook_and_the_web_files_but_no_binaries(built: Built) -> None:
    (sdist,) = built.files("splendor_engine-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"setup.py", "build_support/compiled_core.py", "engine_service/web/static/index.html"} <= names
    assert not [name for name in names if name.endswith((".so", ".pyc"))]


def test_the_installed_package_runs_the_expected_core_from_its_own_files(built: Built, tmp_path: Path) -> None:
    script = (
        "import json, engine_service.rules.engine as engine, engine_service.core_info as info;"
        "print(json.dumps([info.core_kind(), engine.__file__, info.engine_version()]))"
    )
    out = run([built.bin("python"), "-I", "-c", script], cwd=tmp_path, env=clean_environment())
    kind, engine_file, version = json.loads(out)
    assert kind == EXPECTED_CORE
    assert Path(engine_file).is_relative_to(built.venv)
    assert version == version_of(ROOT)


class InstalledServer:
    """The installed ``splendor-engine serve`` on free loopback ports, with its JSON log lines."""

    def __init__(self, built: Built, cwd: Path) -> None:
        self.metrics_port = free_port()
        command = [
            built.bin("splendor-engine"),
            "serve",
            "--address",
            "127.0.0.1:0",
            "--http-address",
            "127.0.0.1:0",
            "--metrics-port",
            str(self.metrics_port),
            "--log-format",
            "json",
        ]
        self.process = subprocess.Popen(
            command, cwd=cwd, env=clean_environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.logs: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def wait_for(self, event: str, timeout: float = 60) -> dict[str, Any]:
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no {event} within {timeout} s; logs so far {self.logs}") from None
            if line.startswith("{"):
                self.logs.append(json.loads(line))
                if self.logs[-1].get("event") == event:
                    return self.logs[-1]

    def metric_samples(self, name: str) -> list[dict[str, str]]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=10) as response:
            text = response.read().decode()
        return [
            {**sample.labels, "value": str(sample.value)}
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == name
        ]

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(timeout=60)


@pytest.fixture
def server(built: Built, tmp_path: Path) -> Iterator[InstalledServer]:
    running = InstalledServer(built, tmp_path)
    try:
        yield running
    finally:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait(timeout=30)


def test_the_installed_server_says_which_core_it_runs_and_serves_a_game_to_the_installed_client(
    built: Built, server: InstalledServer, tmp_path: Path
) -> None:
    core = server.wait_for("rules_core")
    assert (core["core"], core["version"]) == (EXPECTED_CORE, version_of(ROOT))
    started = server.wait_for("server_started")
    assert started["address"].startswith("127.0.0.1:")

    played = run(
        [built.bin("splendor-play"), "--address", started["address"], "--players", "2", "--seed", "7", "--quiet"],
        cwd=tmp_path,
        env=clean_environment(),
    )
    assert "seed 7" in played

    assert server.metric_samples("splendor_engine_info") == [
        {"core": EXPECTED_CORE, "version": version_of(ROOT), "value": "1.0"}
    ]
    with urllib.request.urlopen(f"http://{started['http_address']}/", timeout=10) as page:
        assert page.status == 200
        assert b"<html" in page.read().lower()
    assert server.stop() == 0
