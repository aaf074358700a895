"""Every code block of docs/rl.md runs as written (documentation is code)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
DOC_ADDRESS = "localhost:50051"
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.DOTALL)
# The extras a block may need beyond the rl extra, and the extra that brings each.
OPTIONAL = {"torch": "train", "sb3_contrib": "train", "pyspiel": "openspiel", "open_spiel": "openspiel"}


def test_every_block_of_the_guide_is_python() -> None:
    assert BLOCKS, "the guide has no code block"
    assert [language for language, _ in BLOCKS] == ["python"] * len(BLOCKS)


@pytest.mark.parametrize("code", [code for _, code in BLOCKS], ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_the_guides_code_block_runs(code: str, address: str) -> None:
    for module, extra in OPTIONAL.items():
        if re.search(rf"^(import|from) {module}\b", code, re.MULTILINE) and importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (the client's {extra} extra)")
    # A block that plays through a server names the one `make serve` starts: this module's engine stands in.
    code = code.replace(DOC_ADDRESS, address)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(GUIDE), "exec"), {"__name__": "rl_guide"})
    for expected in re.findall(r"print\(.*?\)\s+# (\d[\d ]*\d|\d)\b", code):
        assert expected in printed.getvalue()
