"""A first ``make serve`` or ``make install`` says what it is doing at least every 10 s (issue 41: a cold
``make serve`` compiled for minutes in silence): the progress lines of the core's compile and of pip."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from build_support import compiled_core
from build_support.compiled_core import _in_parallel
from build_support.progress import PROGRESS_SECONDS, Progress

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = (ROOT / "Makefile").read_text()
DEADLINE_SECONDS = 30.0


class Lines:
    """What a ``Progress`` wrote, and a wait for a number of lines (with a deadline, not a sleep)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._changed = threading.Condition()

    def write(self, line: str) -> None:
        with self._changed:
            self.lines.append(line)
            self._changed.notify_all()

    def wait_for(self, count: int) -> list[str]:
        return self.wait_until(lambda lines: len(lines) >= count)

    def wait_until(self, condition: Callable[[list[str]], bool]) -> list[str]:
        deadline = time.monotonic() + DEADLINE_SECONDS
        with self._changed:
            while not condition(self.lines):
                assert time.monotonic() < deadline, self.lines
                self._changed.wait(0.1)
            return list(self.lines)


def test_the_promise_is_a_line_at_least_every_15_seconds() -> None:
    assert PROGRESS_SECONDS <= 10, "a beat every 10 s keeps the 15 s promise on a busy machine"


def test_a_silent_step_still_gets_a_line_every_beat_with_its_latest_status() -> None:
    lines = Lines()
    with Progress("compiling", every=0.05, write=lines.write) as progress:
        progress.say("mypyc: 3 modules")
        progress.update("C compiler: 1 of 3 files done")
        seen = lines.wait_for(4)
    assert seen[0].startswith("compiling: mypyc: 3 modules (")
    assert all(line.startswith("compiling: C compiler: 1 of 3 files done (") for line in seen[1:4])


def test_no_line_comes_after_the_step_ends() -> None:
    lines = Lines()
    with Progress("quick", every=0.05, write=lines.write) as progress:
        progress.say("done")
    # The beating thread is over once the step is: nothing can write a line any more.
    assert not [thread for thread in threading.enumerate() if thread.name == "progress"]
    assert lines.lines == ["quick: done (0 s)"]


def test_the_parallel_c_compile_says_each_file_it_finishes_and_keeps_the_objects_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = Lines()

    def compile_sources(sources: list[str], *args: object, **kwargs: object) -> list[str]:
        return [source.replace(".c", ".o") for source in sources]

    sources = ["t/mypyc/__native_engine_service___rules___gems.c", "t/mypyc/engine_service/rules/modules/orient.c"]
    with Progress("core", every=60, write=lines.write) as progress:
        compile_each = _in_parallel(compile_sources, 2, progress, total=3)
        assert compile_each(sources[:1]) == ["t/mypyc/__native_engine_service___rules___gems.o"]
        # A file that ends soon after a line waits for the next beat: its status is kept, not printed.
        assert progress.status == "C compiler: 1 of 3 files done (engine_service.rules.gems)"
        monkeypatch.setattr(compiled_core, "PROGRESS_LINE_SECONDS", 0.0)  # as after a quiet while: printed
        compile_each(sources[1:])
    assert lines.lines == ["core: C compiler: 2 of 3 files done (engine_service.rules.modules.orient) (0 s)"]


def run_progress(*command: str, every: float = 0.1) -> subprocess.CompletedProcess[str]:
    script = [sys.executable, str(ROOT / "scripts" / "progress.py"), "--every", str(every), "installing", "--"]
    return subprocess.run([*script, *command], capture_output=True, text=True, check=False, timeout=60)


def test_a_long_pip_install_is_summed_up_in_progress_lines() -> None:
    # The fake pip goes quiet after its first steps until the line summing them up has been written (a line from
    # the test on its standard input), as a pip downloading for minutes would.
    fake_pip = (
        "import sys\n"
        "print('Collecting numpy', flush=True)\n"
        "print('Requirement already satisfied: grpcio', flush=True)\n"
        "sys.stdin.readline()\n"
        "print('Installing collected packages: numpy', flush=True)\n"
    )
    summed_up = re.compile(r"installing: 1 collected; Collecting numpy \(\d+ s\)$")
    script = [sys.executable, str(ROOT / "scripts" / "progress.py"), "--every", "0.1", "installing", "--"]
    lines = Lines()
    with subprocess.Popen(
        [*script, sys.executable, "-c", fake_pip], stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stdin is not None and process.stderr is not None
        errors = process.stderr
        reader = threading.Thread(target=lambda: [lines.write(line.rstrip("\n")) for line in errors], daemon=True)
        reader.start()
        lines.wait_until(lambda seen: any(summed_up.match(line) for line in seen))
        process.stdin.write("go on\n")
        process.stdin.close()
        assert process.wait(timeout=DEADLINE_SECONDS) == 0
        reader.join(timeout=DEADLINE_SECONDS)
    assert lines.lines[0] == "installing: started (0 s)"
    assert re.match(r"installing: done, 2 requirements \(\d+ s\)$", lines.lines[-1]), lines.lines
    assert not any("Requirement already satisfied" in line for line in lines.lines)  # pip's lines are not repeated


def test_a_failing_install_shows_its_whole_output_and_its_exit_status() -> None:
    done = run_progress(sys.executable, "-c", "print('ERROR: No matching distribution found for x'); exit(3)")
    assert done.returncode == 3
    assert "ERROR: No matching distribution found for x" in done.stderr
    assert done.stderr.rstrip().endswith("installing: failed (exit status 3); its output is above")


def test_every_pip_install_of_the_makefile_reports_progress() -> None:
    recipes = MAKEFILE.replace("\\\n", " ")  # continuation lines joined
    installs = [line for line in recipes.splitlines() if "$(PIP)" in line and line.startswith("\t")]
    assert len(installs) >= 3, installs
    assert all(line.lstrip().startswith("$(PROGRESS) ") for line in installs), installs
    assert "pip install --quiet" not in MAKEFILE


def test_make_serve_prints_for_people_unless_told_otherwise() -> None:
    (serve,) = [line for line in MAKEFILE.splitlines() if "splendor-engine serve $(ARGS)" in line]
    assert "SPLENDOR_LOG_FORMAT=$${SPLENDOR_LOG_FORMAT:-console}" in serve
