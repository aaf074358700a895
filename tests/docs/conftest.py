"""One engine for every documented block, a scratch directory per document, and the runner's counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.docs.blocks import all_blocks
from tests.docs.run import scratch_directory
from tests.docs.server import DocServer, running_server
from tests.docs.typescript import Project, built_package, file_name, new_project, tools_installed, typescript_blocks


@pytest.fixture(scope="session")
def doc_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DocServer]:
    with running_server(tmp_path_factory.mktemp("doc-server") / "server.log") as server:
        yield server


@pytest.fixture(scope="session")
def scratch_for(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """The working directory of a document's blocks: the same one for every block of it, in order."""
    made: dict[Path, Path] = {}

    def scratch(document: Path) -> Path:
        if document not in made:
            made[document] = scratch_directory(tmp_path_factory.mktemp(document.stem))
        return made[document]

    return scratch


@pytest.fixture(scope="session")
def typescript_project(doc_server: DocServer, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """Every TypeScript block as a file of one fresh project, type-checked once (tests/docs/typescript.py)."""
    if not tools_installed():
        pytest.skip("TypeScript blocks need the client's dependencies: make ts-test (or npm ci there) first")
    root = tmp_path_factory.mktemp("typescript")
    package = built_package(root / "splendor-engine-client")
    sources = {file_name(block): doc_server.localise(block.text) for block in typescript_blocks()}
    return new_project(root / "my-game", package, sources)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many documented blocks ran and how many are marked illustration."""
    ran = [r for r in terminalreporter.stats.get("passed", []) if "test_documented_block" in r.nodeid]
    if not ran:
        return
    kinds = Counter(block.language or "(none)" for block in all_blocks() if block.illustration is None)
    illustrations = sum(block.illustration is not None for block in all_blocks())
    terminalreporter.write_line(
        f"doc-test: {len(ran)} blocks passed; {illustrations} marked illustration; by language: {dict(kinds)}"
    )
