"""Rule: the Python and the TypeScript clients name alike what they both have: the errors a call raises (class for
class, the same reasons choosing the same subclass) and what a call returns (a plain game's ``GameResult``, a sealed
game's ``SealedGame``, ``ViewResult``, ``ReplayResult``). The TypeScript names are read from its sources."""

from __future__ import annotations

import re
from pathlib import Path

import splendor_client
from splendor_client import errors

TYPESCRIPT = Path(__file__).resolve().parents[2] / "clients" / "typescript" / "src"
RESULTS = ("GameResult", "SealedGame", "ViewResult", "ReplayResult")


def _typescript_error_classes() -> set[str]:
    text = (TYPESCRIPT / "errors.ts").read_text(encoding="utf-8")
    return set(re.findall(r"^export class (\w+) extends", text, flags=re.MULTILINE))


def _typescript_exports() -> set[str]:
    text = (TYPESCRIPT / "index.ts").read_text(encoding="utf-8")
    return set(re.findall(r"\b(?:type )?(\w+),", text))


def test_both_clients_raise_errors_of_the_same_names() -> None:
    python = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.EngineError) and value.__module__ == errors.__name__
    }
    assert "TokenRefused" in python
    assert _typescript_error_classes() == python


def test_both_clients_export_their_results_and_errors_under_the_same_names() -> None:
    typescript = _typescript_exports()
    for name in (*RESULTS, *_typescript_error_classes()):
        assert name in typescript, f"the TypeScript client does not export {name}"
        assert name in splendor_client.__all__, f"the Python client does not export {name}"
