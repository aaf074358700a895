"""The three distributions as built: what each sdist and wheel holds and declares, and all three installed
together (not editable) in a fresh venv, where the installed server plays a game with the installed client on
loopback. The engine wheel's C build comes from the build cache whenever the core is unchanged
(build_support/compiled_core.py). Each installed apart: test_wheels_apart.py."""

from __future__ import annotations

import json
import tarfile
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from build_support.compiled_core import build_problem
from tests.ops.support import free_port
from tests.packaging.installed import PROJECTS, ROOT, Dist, Server, Venv, clean_environment, run, version_of

pytestmark = pytest.mark.e2e

EXPECTED_CORE = "pure" if build_problem() else "compiled"


def names_in(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_each_project_builds_one_sdist_and_one_wheel_of_its_single_version(dist: Dist) -> None:
    for name, project in PROJECTS.items():
        stem = f"{name.replace('-', '_')}-{version_of(project)}"
        assert [path.name for path in dist.files(f"{name.replace('-', '_')}-*.tar.gz")] == [f"{stem}.tar.gz"]
        assert dist.wheel(name).name.startswith(f"{stem}-")
    assert dist.wheel("splendor-proto").name.endswith("-py3-none-any.whl")
    assert dist.wheel("splendor-client").name.endswith("-py3-none-any.whl")


def test_only_the_proto_wheel_holds_the_stubs_and_it_ships_their_types(dist: Dist) -> None:
    proto = names_in(dist.wheel("splendor-proto"))
    packages = {name.split("/")[0] for name in proto if not name.split("/")[0].endswith(".dist-info")}
    assert packages == {"splendor"}
    stubs = sorted(Path(name).stem for name in proto if name.startswith("splendor/v1/") and name.endswith(".pyi"))
    modules = sorted(Path(name).stem for name in proto if name.startswith("splendor/v1/") and name.endswith("_pb2.py"))
    assert "engine_service_pb2" in modules
    assert set(modules) <= set(stubs), "every message module has its .pyi"
    assert {"splendor/py.typed", "splendor/v1/py.typed", "splendor/v1/engine_service_pb2_grpc.pyi"} <= proto
    for name in ("splendor-engine", "splendor-client"):
        assert not [path for path in names_in(dist.wheel(name)) if path.startswith("splendor/")], name


def test_the_engine_and_the_client_depend_on_the_stubs_and_not_on_each_other(dist: Dist) -> None:
    engine = {requirement.name: requirement for requirement in dist.requirements("splendor-engine")}
    assert "splendor-proto" in engine
    assert "splendor-client" not in engine
    client = dist.requirements("splendor-client")
    assert [r.marker for r in client if r.name == "splendor-proto"] == [None]
    (on_engine,) = [r for r in client if r.name == "splendor-engine"]
    assert on_engine.marker is not None
    assert on_engine.marker.evaluate({"extra": "engine"})
    assert not on_engine.marker.evaluate({"extra": "rl"})
    # What the generated modules import, google.rpc's error details included; no extras.
    proto = dist.requirements("splendor-proto")
    assert {r.name for r in proto} == {"protobuf", "grpcio", "googleapis-common-protos"}
    assert [r for r in proto if r.marker is not None] == []


def test_the_proto_sdist_carries_the_generated_modules_and_their_types(dist: Dist) -> None:
    (sdist,) = dist.files("splendor_proto-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"src/splendor/v1/engine_service_pb2.py", "src/splendor/v1/engine_service_pb2.pyi"} <= names
    assert {"src/splendor/py.typed", "src/splendor/v1/py.typed", "README.md"} <= names


def test_the_engine_wheel_holds_the_core_kind_this_machine_can_build(dist: Dist) -> None:
    wheel = dist.wheel("splendor-engine")
    names = names_in(wheel)
    extensions = [name for name in names if name.endswith(".so")]
    assert "engine_service/web/static/index.html" in names, "the web front end is package data"
    assert "engine_service/rules/data/base_cards.csv" in names
    if EXPECTED_CORE == "compiled":
        assert not wheel.name.endswith("-py3-none-any.whl")
        assert any(name.startswith("engine_service/rules/engine.") for name in extensions)
        assert any(name.startswith("engine_service/codec/state.") for name in extensions)
        assert "rules core: compiled (mypyc)" in dist.build_output
    else:
        assert wheel.name.endswith("-py3-none-any.whl")
        assert extensions == []


def test_the_engine_sdist_carries_the_build_hook_and_the_web_files_but_no_binaries(dist: Dist) -> None:
    (sdist,) = dist.files("splendor_engine-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"setup.py", "build_support/compiled_core.py", "engine_service/web/static/index.html"} <= names
    assert not [name for name in names if name.endswith((".so", ".pyc"))]


def test_together_the_installed_packages_are_consistent_and_run_the_expected_core(together: Venv) -> None:
    together.check()
    assert {"splendor-proto", "splendor-engine", "splendor-client"} <= together.distributions()
    script = (
        "import json, engine_service.rules.engine as engine, engine_service.core_info as info;"
        "print(json.dumps([info.core_kind(), engine.__file__, info.engine_version()]))"
    )
    kind, engine_file, version = json.loads(together.python(script))
    assert kind == EXPECTED_CORE
    assert Path(engine_file).is_relative_to(together.path)
    assert version == version_of(ROOT)


@pytest.fixture
def server(together: Venv, tmp_path: Path) -> Iterator[Server]:
    running = Server([together.bin("splendor-engine")], tmp_path, free_port())
    try:
        yield running
    finally:
        running.kill()


def test_together_the_installed_server_says_which_core_it_runs_and_serves_a_game_to_the_installed_client(
    together: Venv, server: Server, tmp_path: Path
) -> None:
    core = server.wait_for("rules_core")
    assert (core["core"], core["version"]) == (EXPECTED_CORE, version_of(ROOT))
    started = server.wait_for("server_started")
    assert started["address"].startswith("127.0.0.1:")

    played = run(
        [together.bin("splendor-play"), "--address", started["address"], "--players", "2", "--seed", "7", "--quiet"],
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
