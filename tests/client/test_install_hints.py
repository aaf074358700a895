"""The commands the client's messages give work: the packages are on no index, so each names the checkout's
projects (issue 41: ``EngineNotInstalled`` used to say ``pip install 'splendor-client[engine]'``, which
pip cannot find anywhere), and a client without its stubs says which command brings them."""

from __future__ import annotations

import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from splendor_client.install_hints import CHART_COMMAND, ENGINE_COMMAND, STUBS_COMMAND, WHERE

ROOT = Path(__file__).resolve().parents[2]


def projects_named(command: str) -> list[str]:
    """The distributions a ``pip install`` command run at the checkout's root installs, by project name."""
    words = shlex.split(command)
    assert words[:2] == ["pip", "install"], command
    names = []
    for target in words[2:]:
        pyproject = ROOT / target / "pyproject.toml"
        assert pyproject.is_file(), f"{target} of `{command}` is not a project of this repository"
        names.append(tomllib.loads(pyproject.read_text())["project"]["name"])
    return names


def requirements_of(project: str) -> list[str]:
    path = {"splendor-engine": ROOT, "splendor-client": ROOT / "clients" / "python"}[project]
    return tomllib.loads((path / "pyproject.toml").read_text())["project"]["dependencies"]


def test_the_engine_command_installs_the_engine_with_the_stubs_it_requires() -> None:
    assert projects_named(ENGINE_COMMAND) == ["splendor-proto", "splendor-engine"]
    local = {"splendor-proto", "splendor-engine", "splendor-client"}
    # Every package of this repository that the engine requires is named in the same command.
    needed = {Requirement(requirement).name for requirement in requirements_of("splendor-engine")}
    assert needed & local <= set(projects_named(ENGINE_COMMAND))


def test_the_stubs_command_installs_the_stubs_the_client_requires() -> None:
    assert projects_named(STUBS_COMMAND) == ["splendor-proto"]
    assert "splendor-proto" in {Requirement(requirement).name for requirement in requirements_of("splendor-client")}


def test_no_message_names_a_package_index_install_of_the_repositorys_packages() -> None:
    for command in (ENGINE_COMMAND, STUBS_COMMAND, CHART_COMMAND):
        assert "splendor-client[" not in command and "splendor-engine" not in command
    assert "no package index" in WHERE


def test_a_client_without_its_stubs_says_which_command_installs_them() -> None:
    # As if splendor-proto were not installed: the first import of the package says what to run.
    script = "import sys; sys.modules['splendor'] = None; import splendor_client"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: splendor-client needs the contract's stubs"), last
    assert f"`{STUBS_COMMAND}`" in last and WHERE in last
