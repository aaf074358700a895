"""The sealed-game examples run: docs/security.md's Python blocks, in order and in one namespace (they
continue one another), and the example of the client README's "Sealed games and seat keys", against a
real server on a free loopback port, each ``print(...)  # text`` printing that text."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from tests.client.conftest import DOC_ADDRESS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"
CLIENT_README = ROOT / "clients" / "python" / "README.md"
README_SECTION = "### Sealed games and seat keys\n"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PRINT_COMMENT = re.compile(r"^\s*print\(.*\)\s+# (.+)$", re.MULTILINE)


def python_blocks(text: str) -> list[str]:
    return BLOCK.findall(text)


def run_blocks(blocks: list[str], address: str, source: str) -> None:
    """Run ``blocks`` in one namespace against ``address``, checking what each prints."""
    namespace: dict[str, object] = {"__name__": "doc_example"}
    for number, block in enumerate(blocks, start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block.replace(DOC_ADDRESS, address), f"{source} block {number}", "exec"), namespace)
        assert printed.getvalue().splitlines() == PRINT_COMMENT.findall(block), f"{source} block {number}"


def test_the_examples_name_the_documented_address_and_say_what_they_print() -> None:
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 5, "the doc's examples were not found"
    assert DOC_ADDRESS in blocks[0], "the first example connects to the address the test replaces"
    assert len(PRINT_COMMENT.findall("\n".join(blocks))) >= 3


def test_every_python_block_runs_against_a_loopback_server_and_prints_what_it_says(loopback_address: str) -> None:
    run_blocks(python_blocks(DOC.read_text(encoding="utf-8")), loopback_address, "docs/security.md")


def test_the_client_readmes_sealed_example_runs_and_prints_what_it_says(loopback_address: str) -> None:
    section = CLIENT_README.read_text(encoding="utf-8").split(README_SECTION, 1)[1].split("\n#", 1)[0]
    blocks = python_blocks(section)
    assert len(blocks) == 1 and DOC_ADDRESS in blocks[0] and len(PRINT_COMMENT.findall(blocks[0])) == 4
    run_blocks(blocks, loopback_address, "clients/python/README.md")
