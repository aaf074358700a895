"""Every code block of docs/rl.md runs as written (documentation is code), against a real engine on a loopback
port for the ones that play through a server (``address="localhost:50051"`` in the guide)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
DOC_ADDRESS = "localhost:50051"
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.DOTALL)
# The extras a block may need beyond the rl extra, and the extra that brings each.
OPTIONAL = {"torch": "train", "sb3_contrib": "train", "pyspiel": "openspiel", "open_spiel": "openspiel"}
DOCUMENTED_ADDRESS = "localhost:50051"
# What a block prints, shown in the comment after its print(...): a number (or numbers), a dict or a tuple.
SHOWN = re.compile(r"print\(.*?\)\s+# (\d[\d ]*\d|\d|\{[^}]*\}|\([^)]*\))")


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    server, port, health = build_server(Settings(address="127.0.0.1:0", threads=2, metrics_port=0))
    start(server, health)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(0).wait()


def test_every_block_of_the_guide_is_python() -> None:
    assert BLOCKS, "the guide has no code block"
    assert [language for language, _ in BLOCKS] == ["python"] * len(BLOCKS)


def test_what_a_block_shows_it_prints_is_read_from_its_comments() -> None:
    shown = [SHOWN.findall(code) for _, code in BLOCKS]
    assert ["{'seat_0': -1.0, 'seat_1': 1.0, 'seat_2': -1.0}", "(1,)"] in shown  # the PettingZoo returns


@pytest.mark.parametrize("code", [code for _, code in BLOCKS], ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_the_guides_code_block_runs(code: str, address: str) -> None:
    for module, extra in OPTIONAL.items():
        if re.search(rf"^(import|from) {module}\b", code, re.MULTILINE) and importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (the client's {extra} extra)")
    # A block that plays through a server names the one `make serve` starts: this module's engine stands in.
    code = code.replace(DOC_ADDRESS, address)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.replace(DOCUMENTED_ADDRESS, address), str(GUIDE), "exec"), {"__name__": "rl_guide"})
    for expected in SHOWN.findall(code):
        assert expected in printed.getvalue()
