"""The three distributions as users get them: sdists and wheels built with ``python -m build``, installed (not
editable) into fresh virtual environments, and servers started on loopback ports.

The tests of the wheels together (test_wheels.py) and apart (test_wheels_apart.py) share these helpers and the
session's builds and venvs (conftest.py)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import tomllib
import urllib.request
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "clients" / "python-proto"
CLIENT = ROOT / "clients" / "python"
ENGINE = ROOT
# Distribution name -> the project it is built from, in the order they depend on each other.
PROJECTS = {"splendor-proto": PROTO, "splendor-engine": ENGINE, "splendor-client": CLIENT}


def version_of(project: Path) -> str:
    return str(tomllib.loads((project / "pyproject.toml").read_text())["project"]["version"])


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """What ``command`` printed (standard output, then standard error); it must succeed."""
    done = completed(command, cwd, env)
    return done.stdout + done.stderr


def completed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_environment() -> dict[str, str]:
    """This environment without what would make the installed packages import the checkout instead."""
    drop = ("PYTHONPATH", "SPLENDOR_", "PROMETHEUS_MULTIPROC_DIR", "VIRTUAL_ENV")
    return {key: value for key, value in os.environ.items() if not key.startswith(drop)}


@dataclass(frozen=True)
class Dist:
    """A directory of the sdists and wheels of every project, and what their builds printed."""

    path: Path
    build_output: str

    def files(self, pattern: str) -> list[Path]:
        return sorted(self.path.glob(pattern))

    def wheel(self, distribution: str) -> Path:
        (wheel,) = self.files(f"{distribution.replace('-', '_')}-*.whl")
        return wheel

    def requirements(self, distribution: str) -> list[Requirement]:
        """The wheel's Requires-Dist entries, as its METADATA declares them."""
        wheel = self.wheel(distribution)
        with zipfile.ZipFile(wheel) as archive:
            (metadata,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
            headers = Parser().parsestr(archive.read(metadata).decode())
        return [Requirement(line) for line in headers.get_all("Requires-Dist") or []]


def build_all(out: Path) -> Dist:
    output = ""
    for project in PROJECTS.values():
        output += run([sys.executable, "-m", "build", "--outdir", str(out), str(project)], cwd=project)
    return Dist(out, output)


def build_wheels(out: Path, distributions: Sequence[str]) -> Dist:
    """The wheels of ``distributions`` alone, built with this environment's setuptools (no isolated build
    environment to set up: seconds, for tests that need pure-Python wheels but test no build)."""
    output = ""
    for name in distributions:
        project = PROJECTS[name]
        command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(project)]
        output += run(command, cwd=project)
    return Dist(out, output)


@dataclass(frozen=True)
class Venv:
    """A fresh virtual environment with some of the wheels installed, and their dependencies from the index."""

    path: Path

    def bin(self, name: str) -> str:
        return str(self.path / "bin" / name)

    def python(self, script: str, *args: str) -> str:
        """Run ``script`` isolated (-I: no checkout, no user site-packages on the path); its standard output."""
        command = [self.bin("python"), "-I", "-c", script, *args]
        return completed(command, cwd=self.path, env=clean_environment()).stdout

    def finds(self, module: str) -> bool:
        script = "import importlib.util, sys; print(importlib.util.find_spec(sys.argv[1]) is not None)"
        return self.python(script, module).strip() == "True"

    def distributions(self) -> set[str]:
        script = "import importlib.metadata as m, json; print(json.dumps([d.name for d in m.distributions()]))"
        return {name.lower() for name in json.loads(self.python(script))}

    def check(self) -> str:
        """``pip check``: every installed distribution has what it requires."""
        return run([self.bin("python"), "-m", "pip", "check"], cwd=self.path, env=clean_environment())


def install(venv: Path, wheels: Sequence[Path | str]) -> Venv:
    """A new venv at ``venv`` holding exactly ``wheels`` and what they require (pinned by constraints.txt); a
    wheel may name extras (``path/to/x.whl[rl]``)."""
    run([sys.executable, "-m", "venv", str(venv)], cwd=venv)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run([*pip, "-c", str(ROOT / "constraints.txt"), *map(str, wheels)], cwd=venv, env=clean_environment())
    return Venv(venv)


class Server:
    """``serve`` on free loopback ports (``command`` is what runs it), with its JSON log lines."""

    def __init__(self, command: list[str], cwd: Path, metrics_port: int) -> None:
        self.metrics_port = metrics_port
        arguments = ["serve", "--address", "127.0.0.1:0", "--http-address", "127.0.0.1:0"]
        arguments += ["--metrics-port", str(metrics_port), "--log-format", "json"]
        self.process = subprocess.Popen(
            [*command, *arguments],
            cwd=cwd,
            env=clean_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
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

    def address(self) -> str:
        """The gRPC address, once the server says it started."""
        started = self.wait_for("server_started")
        assert started["address"].startswith("127.0.0.1:")
        return str(started["address"])

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

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
