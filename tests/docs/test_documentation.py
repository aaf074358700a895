"""Every documented block runs as shown: see ``tests/docs/__init__.py`` for the convention."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.docs.blocks import DATA, PYTHON, SHELL, TEXT, TYPESCRIPT, Block, all_blocks
from tests.docs.run import check_data, run_python, run_shell, run_typescript
from tests.docs.server import DocServer
from tests.docs.typescript import Project

BLOCKS = all_blocks()


def python_before(block: Block) -> str:
    """The Python blocks of the block's document that come before it and are run."""
    return "".join(
        earlier.text + "\n"
        for earlier in BLOCKS
        if earlier.path == block.path
        and earlier.line < block.line
        and earlier.language in PYTHON
        and earlier.illustration is None
    )


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_documented_block(
    block: Block, doc_server: DocServer, scratch_for: Callable[[Path], Path], request: pytest.FixtureRequest
) -> None:
    if block.illustration is not None:
        pytest.skip(f"illustration: {block.illustration}")
    if block.language in PYTHON:
        run_python(block, doc_server, scratch_for(block.path), python_before(block))
    elif block.language in SHELL:
        run_shell(block, doc_server, scratch_for(block.path))
    elif block.language in TYPESCRIPT:
        project: Project = request.getfixturevalue("typescript_project")  # built once, for the first TS block
        run_typescript(block, doc_server, project)
    elif block.language in DATA:
        check_data(block)
    elif block.language not in TEXT:
        pytest.fail(f"{block.name}: no way to run a `{block.language}` block: mark it as an illustration")
