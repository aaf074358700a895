"""docs/security.md runs: its Python blocks, in order and in one namespace (they continue one another),
against a real server on a free loopback port, each ``print(...)  # text`` printing that text."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine_service.sealing import KeyRing
from engine_service.server.app import build_server, start
from engine_service.server.settings import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "security.md"
DOC_ADDRESS = "127.0.0.1:50051"  # the address the examples name; the test's server listens elsewhere
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PRINT_COMMENT = re.compile(r"^\s*print\(.*\)\s+# (.+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    server, port, health = build_server(Settings(address="127.0.0.1:0"), key_ring=KeyRing.generate())
    start(server, health)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(0).wait()


def python_blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text(encoding="utf-8"))


def test_the_examples_name_the_documented_address_and_say_what_they_print() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 5, "the doc's examples were not found"
    assert DOC_ADDRESS in blocks[0], "the first example connects to the address the test replaces"
    assert len(PRINT_COMMENT.findall("\n".join(blocks))) >= 3


def test_every_python_block_runs_against_a_loopback_server_and_prints_what_it_says(address: str) -> None:
    namespace: dict[str, object] = {"__name__": "security_doc"}
    for number, block in enumerate(python_blocks(), start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block.replace(DOC_ADDRESS, address), f"docs/security.md block {number}", "exec"), namespace)
        assert printed.getvalue().splitlines() == PRINT_COMMENT.findall(block), f"block {number}"
