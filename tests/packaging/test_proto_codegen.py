"""`make generate-check` (codegen.py --check) fails on stale stubs: a copy of the committed ones, changed,
missing a file or with one too many, is reported file by file; the committed copy itself is up to date."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.installed import PROTO

CODEGEN = PROTO / "codegen.py"
COMMITTED = PROTO / "src"


def check(root: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(CODEGEN), "--check", "--root", str(root)]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    shutil.copytree(COMMITTED / "splendor", tmp_path / "splendor", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_committed_stubs_are_up_to_date(copy: Path) -> None:
    done = check(copy)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "generated stubs are up to date" in done.stdout


def test_a_changed_a_missing_and_an_extra_file_are_each_reported(copy: Path) -> None:
    stubs = copy / "splendor" / "v1"
    changed = stubs / "common_pb2.pyi"
    changed.write_text(changed.read_text() + "extra: int\n")
    (stubs / "bots_pb2.py").unlink()
    (stubs / "stale_pb2.py").write_text("")
    done = check(copy)
    assert done.returncode == 1
    reported = [line.strip() for line in done.stdout.splitlines()[1:]]
    assert done.stdout.startswith("generated stubs are out of date; run `make generate`:")
    assert sorted(reported) == ["splendor/v1/bots_pb2.py", "splendor/v1/common_pb2.pyi", "splendor/v1/stale_pb2.py"]


def test_checking_a_directory_without_stubs_is_a_usage_error(tmp_path: Path) -> None:
    done = check(tmp_path)
    assert done.returncode == 2
    assert f"--root {tmp_path}: no splendor/ package there to check" in done.stderr
