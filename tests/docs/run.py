"""Running one block against the documentation's server, and saying what went wrong if it fails."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.docs.blocks import ROOT, Block
from tests.docs.server import DocServer
from tests.docs.sessions import Step, output_matches, steps_of
from tests.docs.typescript import Project, tsx_command

BLOCK_SECONDS = 120  # a block still running then fails: an example must end
STATUS_MARK = "\x1edoc-test status "
# What would make a fresh environment import the checkout or a server read the test's settings.
CHECKOUT_VARIABLES = ("PYTHONPATH", "VIRTUAL_ENV", "SPLENDOR_", "PROMETHEUS_MULTIPROC_DIR")


@dataclass(frozen=True)
class Python:
    """The Python environment a block runs in: its interpreter (whose ``bin`` comes first on ``PATH``), and
    whether it is a fresh one that must see nothing of the checkout's (no ``PYTHONPATH``, no ``.venv/bin``)."""

    executable: Path
    fresh: bool = False


CHECKOUT = Python(Path(sys.executable))


class DocBlockFailed(AssertionError):
    """A documented block did not run as shown."""


def scratch_directory(path: Path) -> Path:
    """A working directory that sees the checkout (``.venv/bin/...``, ``benchmarks/...``) as a reader's
    does: a block that writes a file here would write it into the reader's checkout, and fails."""
    for entry in ROOT.iterdir():
        if entry.name not in {".git"} and not (path / entry.name).exists():
            (path / entry.name).symlink_to(entry)
    return path


def run_python(block: Block, server: DocServer, cwd: Path, earlier: str = "", python: Python = CHECKOUT) -> None:
    """Run the block after ``earlier``, the Python blocks before it in its document (a page's
    examples build on each other, as when a reader pastes them into one session)."""
    completed = _run([str(python.executable), "-"], server.localise(earlier + block.text), cwd, server, python)
    if completed.returncode != 0:
        raise DocBlockFailed(f"{block.name}: exit {completed.returncode}\n{completed.stdout}")
    _check_nothing_written(block, cwd)


def run_shell(block: Block, server: DocServer, cwd: Path, python: Python = CHECKOUT) -> None:
    steps = [Step(server.localise(step.command), server.localise(step.shown)) for step in steps_of(block.text)]
    # The blank line ends a command even if its last line ends in a backslash, so the status is its own.
    script = "exec 2>&1\n" + "".join(f"{step.command}\n\nprintf '\\n{STATUS_MARK}%d\\n' $?\n" for step in steps)
    completed = _run(["bash", "--noprofile", "--norc"], script, cwd, server, python)
    outputs = completed.stdout.split(STATUS_MARK)
    for index, step in enumerate(steps):
        if index + 1 >= len(outputs):
            raise DocBlockFailed(f"{block.name}: the session stopped before `{step.command}`\n{completed.stdout}")
        output = outputs[index].split("\n", 1)[1] if index else outputs[0]
        status_line = outputs[index + 1].split("\n", 1)[0]
        if not status_line.isdigit():
            raise DocBlockFailed(f"{block.name}: no exit status after `{step.command}`\n{completed.stdout}")
        status = int(status_line)
        shown_and_matching = bool(step.shown.strip()) and output_matches(step.shown, output)
        if step.shown.strip() and not shown_and_matching:
            raise DocBlockFailed(f"{block.name}: `{step.command}` printed\n{output}\nwhere the docs show\n{step.shown}")
        if status != 0 and not shown_and_matching:
            raise DocBlockFailed(f"{block.name}: `{step.command}` exited {status}\n{output}")
    _check_nothing_written(block, cwd)


def _check_nothing_written(block: Block, cwd: Path) -> None:
    """A reader runs the examples in the checkout: what a block writes must go to a temporary folder
    (``T=$(mktemp -d)``, ``--out "$(mktemp -d)"``), never into the folder it runs in, unless git ignores it
    there (a tool's cache, such as ``.mypy_cache`` after a development command)."""
    new = [entry.name + ("/" if entry.is_dir() else "") for entry in cwd.iterdir() if not entry.is_symlink()]
    written = sorted(set(new) - _ignored_in_checkout(new))
    if written:
        raise DocBlockFailed(
            f"{block.name}: wrote {', '.join(written)} into the folder it ran in, which for a reader is the "
            "checkout: write into a temporary folder instead (T=$(mktemp -d), then $T/name)"
        )


def _ignored_in_checkout(names: list[str]) -> set[str]:
    """The names (``dir/`` for a folder) that the checkout's git ignores at its root."""
    if not names:
        return set()
    command = ["git", "-C", str(ROOT), "check-ignore", "--no-index", "--stdin"]
    done = subprocess.run(command, input="\n".join(names), capture_output=True, text=True, check=False, timeout=30)
    return set(done.stdout.splitlines())


def run_typescript(block: Block, server: DocServer, project: Project) -> None:
    """The block, a file of a fresh project set up as the TypeScript client's README says: ``tsc`` found no
    error in it, and ``tsx`` runs it to the end."""
    errors = project.diagnostics(block)
    if errors:
        setup = "in a project set up as clients/typescript/README.md says"
        raise DocBlockFailed(f"{block.name}: tsc, {setup}:\n" + "\n".join(errors))
    completed = _run(tsx_command(project, block), "", project.path, server)
    if completed.returncode != 0:
        raise DocBlockFailed(f"{block.name}: exit {completed.returncode}\n{completed.stdout}")


def check_data(block: Block) -> None:
    try:
        if block.language == "yaml":
            list(yaml.safe_load_all(block.text))
        else:
            _parse_json(block.text)
    except (ValueError, yaml.YAMLError) as error:
        raise DocBlockFailed(f"{block.name}: not valid {block.language}: {error}") from error


def _parse_json(text: str) -> None:
    """One JSON document, or one per line (a log)."""
    try:
        json.loads(text)
    except ValueError:
        for line in text.splitlines():
            if line.strip():
                json.loads(line)


def _environment(server: DocServer, cwd: Path, python: Python) -> dict[str, str]:
    """The reader's shell with ``python``'s environment active (``splendor-tournament`` is ``.venv``'s),
    the clients' default address (``SPLENDOR_ADDRESS``) the test server's, and temporary folders
    (``mktemp -d``) beside the working directory, not in it."""
    environment = dict(os.environ)
    paths = environment.get("PATH", "").split(os.pathsep)
    if python.fresh:
        environment = {key: value for key, value in environment.items() if not key.startswith(CHECKOUT_VARIABLES)}
        paths = [path for path in paths if Path(path) != CHECKOUT.executable.parent]
    temporary = cwd.with_name(f"{cwd.name}-tmp")
    temporary.mkdir(exist_ok=True)
    return {
        **environment,
        "PATH": os.pathsep.join([str(python.executable.parent), *paths]),
        "SPLENDOR_ADDRESS": f"127.0.0.1:{server.grpc_port}",
        "TMPDIR": str(temporary),
    }


def _run(
    command: list[str], stdin: str, cwd: Path, server: DocServer, python: Python = CHECKOUT
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in a session of its own, so that on a timeout everything it started ends too
    (a block that starts a server in the background must not outlive its test)."""
    with subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=cwd,
        text=True,
        env=_environment(server, cwd, python),
        start_new_session=True,
    ) as process:
        try:
            output, _ = process.communicate(stdin, timeout=BLOCK_SECONDS)
        except subprocess.TimeoutExpired as error:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise DocBlockFailed(f"{command[0]}: still running after {BLOCK_SECONDS} s: an example must end") from error
        finally:
            _end_leftovers(process.pid)
    return subprocess.CompletedProcess(command, process.returncode, output)


def _end_leftovers(session: int) -> None:
    """End what a block left running in the background (its session's processes)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(session, signal.SIGKILL)
