"""docs/rl.md and clients/python/README.md as a reader with the client alone runs them (issue 41): a fresh venv
holding only the stubs' and the client's wheels (``rl`` extra), no engine, against the documentation's server.

- Every block runs as written there, except those marked ``needs-engine`` (they play in-process): each of
  those must instead stop with ``EngineNotInstalled`` naming the command that installs the engine, unless
  it imports a module of an extra the venv lacks (OpenSpiel, torch), which brings the engine anyway.
- Shell blocks that use the checkout's ``.venv`` are about working on the checkout, not about the client
  installed alone: left to test_documentation.py.
- Installing the client without its stubs fails with the message the client's README quotes.

The wheels are built without an isolated build environment (seconds; tests/packaging builds them as users
do) and the venv once per session.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from splendor_client.local_engine import INSTALL_HINT

from tests.docs.blocks import PYTHON, ROOT, SHELL, Block, blocks_of
from tests.docs.run import DocBlockFailed, Python, run_python, run_shell
from tests.docs.server import DocServer
from tests.packaging.installed import Dist, Venv, build_wheels, clean_environment, install

pytestmark = pytest.mark.e2e

CLIENT_README = ROOT / "clients" / "python" / "README.md"
DOCUMENTS = (ROOT / "docs" / "rl.md", CLIENT_README)
IMPORTED = re.compile(r"^(?:import|from)\s+(\w+)", re.MULTILINE)
PIP_REFUSAL = "No matching distribution found for splendor-proto"


def runs_with_the_client_alone(block: Block) -> bool:
    if block.illustration is not None:
        return False
    return block.language in PYTHON or (block.language in SHELL and ".venv/" not in block.text)


BLOCKS = [block for document in DOCUMENTS for block in blocks_of(document) if runs_with_the_client_alone(block)]


@pytest.fixture(scope="session")
def client_wheels(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    return build_wheels(tmp_path_factory.mktemp("client-wheels"), ["splendor-proto", "splendor-client"])


@pytest.fixture(scope="session")
def client_only(client_wheels: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    wheels: list[Path | str] = [client_wheels.wheel("splendor-proto"), f"{client_wheels.wheel('splendor-client')}[rl]"]
    venv = install(tmp_path_factory.mktemp("client-only"), wheels)
    assert not venv.finds("engine_service"), "the client-only venv must hold no engine"
    return venv


@pytest.fixture(scope="session")
def client_scratch(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """A working directory per document with no engine around it: only the conformance vectors, which a reader
    who installed the client from a checkout has at its root (the client's README runs them from there)."""
    made: dict[Path, Path] = {}

    def scratch(document: Path) -> Path:
        if document not in made:
            folder = made[document] = tmp_path_factory.mktemp(f"client-only-{document.stem}")
            (folder / "conformance").symlink_to(ROOT / "conformance", target_is_directory=True)
        return made[document]

    return scratch


def earlier_python(block: Block) -> str:
    """The Python blocks before ``block`` in its document that run with the client alone."""
    return "".join(
        earlier.text + "\n"
        for earlier in BLOCKS
        if earlier.path == block.path
        and earlier.line < block.line
        and earlier.language in PYTHON
        and earlier.needs_engine is None
    )


def missing_modules(venv: Venv, block: Block) -> list[str]:
    """The top-level modules ``block`` imports that ``venv`` cannot import (the engine aside)."""
    modules = sorted(set(IMPORTED.findall(block.text)) - {"engine_service"})
    return [module for module in modules if not venv.finds(module)]


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_the_client_alone_runs_the_documented_block(
    block: Block, client_only: Venv, doc_server: DocServer, client_scratch: Callable[[Path], Path]
) -> None:
    python = Python(Path(client_only.bin("python")), fresh=True)
    cwd = client_scratch(block.path)
    if block.language in SHELL:
        run_shell(block, doc_server, cwd, python)
    elif block.needs_engine is None:
        run_python(block, doc_server, cwd, earlier_python(block), python)
    else:
        missing = missing_modules(client_only, block)
        if missing:
            pytest.skip(f"imports {', '.join(missing)}: another extra of the client, which brings the engine")
        with pytest.raises(DocBlockFailed) as refused:
            run_python(block, doc_server, cwd, earlier_python(block), python)
        said = str(refused.value)
        assert "EngineNotInstalled" in said, said
        assert f"`{INSTALL_HINT}`" in said, said


def test_every_in_process_block_is_marked_and_the_one_through_a_server_is_not() -> None:
    """What makes the client-only run meaningful: the marks say which blocks need the engine."""
    rl_guide = [block for block in BLOCKS if block.path.name == "rl.md"]
    through_a_server = [block for block in rl_guide if "address=" in block.text]
    assert through_a_server, "docs/rl.md shows an environment played through a server"
    assert all(block.needs_engine is None for block in through_a_server)
    assert all(block.needs_engine is not None for block in rl_guide if block not in through_a_server)


def test_installing_the_client_without_its_stubs_fails_as_its_readme_says(
    client_wheels: Dist, client_only: Venv
) -> None:
    # Offline (--no-index) and as if nothing were installed: pip looks for splendor-proto and finds none.
    pip = [client_only.bin("python"), "-m", "pip", "install", "--dry-run", "--no-index", "--ignore-installed"]
    command = [*pip, "--disable-pip-version-check", str(client_wheels.wheel("splendor-client"))]
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=clean_environment(), timeout=300)
    assert done.returncode != 0
    (refusal,) = [line for line in done.stderr.splitlines() if PIP_REFUSAL in line]
    readme = CLIENT_README.read_text(encoding="utf-8")
    install = readme[readme.index("## Install") :]
    assert readme.index("## Install") == readme.index("## "), "the client's README begins with how to install it"
    # pip's versions differ after the requirement ("(from splendor-client)" or nothing): the README quotes the
    # line up to there.
    (quoted,) = [block.text.strip() for block in blocks_of(CLIENT_README) if PIP_REFUSAL in block.text]
    assert refusal.strip().startswith(quoted), f"the README must quote pip's refusal: {refusal}"
    assert "pip install ./clients/python-proto ./clients/python" in install[: install.index(quoted)]
