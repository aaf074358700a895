"""docs/platform.md's Python blocks run in order, in one namespace, against a real server on a free loopback
port, the example platform imported from examples/platform and its database in a scratch directory; each
``print(...)  # text`` prints that text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.client.conftest import DOC_ADDRESS
from tests.client.test_security_doc import ROOT, python_blocks, run_blocks

DOC = ROOT / "docs" / "platform.md"


def test_the_platform_walkthrough_runs_and_prints_what_it_says(
    loopback_address: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 6 and DOC_ADDRESS.replace("127.0.0.1", "localhost") in blocks[0]
    monkeypatch.chdir(tmp_path)  # the walkthrough's SQLite file goes here
    monkeypatch.setattr(sys, "path", [str(ROOT / "examples" / "platform"), *sys.path])
    run_blocks([block.replace("localhost:", "127.0.0.1:") for block in blocks], loopback_address, "docs/platform.md")
