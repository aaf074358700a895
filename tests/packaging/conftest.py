"""One build of the three distributions, and one venv per way of installing them, for the whole session."""

from __future__ import annotations

import pytest

from tests.packaging.installed import Dist, Venv, build_all, install


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    return build_all(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="session")
def together(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """The stubs, the engine and the client."""
    wheels = [dist.wheel(name) for name in ("splendor-proto", "splendor-engine", "splendor-client")]
    return install(tmp_path_factory.mktemp("together"), wheels)


@pytest.fixture(scope="session")
def engine_alone(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """What a server needs: the stubs and the engine, no client."""
    wheels = [dist.wheel(name) for name in ("splendor-proto", "splendor-engine")]
    return install(tmp_path_factory.mktemp("engine-alone"), wheels)


@pytest.fixture(scope="session")
def client_alone(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """What a program that plays against a server needs: the stubs and the client, no engine."""
    wheels = [dist.wheel(name) for name in ("splendor-proto", "splendor-client")]
    return install(tmp_path_factory.mktemp("client-alone"), wheels)
