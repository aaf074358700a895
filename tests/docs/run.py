"""Running one block against the documentation's server, and saying what went wrong if it fails."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import yaml

from tests.docs.blocks import ROOT, Block
from tests.docs.server import DocServer
from tests.docs.sessions import Step, output_matches, steps_of

BLOCK_SECONDS = 120  # a block still running then fails: an example must end
STATUS_MARK = "\x1edoc-test status "
TYPESCRIPT_DIR = ROOT / "clients" / "typescript"


class DocBlockFailed(AssertionError):
    """A documented block did not run as shown."""


def scratch_directory(path: Path) -> Path:
    """A working directory that sees the checkout (``.venv/bin/...``, ``benchmarks/...``) but keeps what a
    block writes (``game.json``) out of it."""
    for entry in ROOT.iterdir():
        if entry.name not in {".git"} and not (path / entry.name).exists():
            (path / entry.name).symlink_to(entry)
    return path


def run_python(block: Block, server: DocServer, cwd: Path, earlier: str = "") -> None:
    """Run the block after ``earlier``, the Python blocks before it in its document (a page's
    examples build on each other, as when a reader pastes them into one session)."""
    completed = _run([sys.executable, "-"], server.localise(earlier + block.text), cwd, server)
    if completed.returncode != 0:
        raise DocBlockFailed(f"{block.name}: exit {completed.returncode}\n{completed.stdout}")


def run_shell(block: Block, server: DocServer, cwd: Path) -> None:
    steps = [Step(server.localise(step.command), server.localise(step.shown)) for step in steps_of(block.text)]
    # The blank line ends a command even if its last line ends in a backslash, so the status is its own.
    script = "exec 2>&1\n" + "".join(f"{step.command}\n\nprintf '\\n{STATUS_MARK}%d\\n' $?\n" for step in steps)
    completed = _run(["bash", "--noprofile", "--norc"], script, cwd, server)
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


def typescript_runner() -> Path | None:
    """``tsx`` from the TypeScript client's dependencies, once ``npm ci`` installed them."""
    tsx = TYPESCRIPT_DIR / "node_modules" / ".bin" / "tsx"
    return tsx if tsx.exists() and shutil.which("node") else None


def run_typescript(block: Block, server: DocServer, tsx: Path) -> None:
    """Run the block as a module inside the package, so ``splendor-engine-client`` names it."""
    folder = TYPESCRIPT_DIR / ".doc-test"
    folder.mkdir(exist_ok=True)
    script = folder / f"block_{block.line}.ts"
    script.write_text(server.localise(_from_source(block.text)), encoding="utf-8")
    try:
        completed = _run([str(tsx), str(script)], "", TYPESCRIPT_DIR, server)
    finally:
        script.unlink()
        if not any(folder.iterdir()):
            folder.rmdir()
    if completed.returncode != 0:
        raise DocBlockFailed(f"{block.name}: exit {completed.returncode}\n{completed.stdout}")


def _from_source(text: str) -> str:
    """The package's entry points imported from its sources, so a block runs against the code as it
    is, not a stale ``dist/``."""
    text = re.sub(r'"splendor-engine-client/(node|web)"', r'"../src/\1.ts"', text)
    return text.replace('"splendor-engine-client"', '"../src/index.ts"')


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


def _environment(server: DocServer) -> dict[str, str]:
    """The reader's shell with the checkout's environment active (``splendor-tournament`` is ``.venv``'s),
    and the clients' default address (``SPLENDOR_ADDRESS``) the test server's."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**os.environ, "PATH": path, "SPLENDOR_ADDRESS": f"127.0.0.1:{server.grpc_port}"}


def _run(command: list[str], stdin: str, cwd: Path, server: DocServer) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in a session of its own, so that on a timeout everything it started ends too
    (a block that starts a server in the background must not outlive its test)."""
    with subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=cwd,
        text=True,
        env=_environment(server),
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
