"""Rule: the Python and the TypeScript clients name alike what they both have: the errors a call raises (class for
class, the same reasons choosing the same subclass) and what a call returns (a plain game's ``GameResult``, a sealed
game's ``SealedGame``, ``ViewResult``, ``ReplayResult``). The TypeScript names are read from its sources."""

from __future__ import annotations

import re
from pathlib import Path

import splendor_client
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from splendor.v1 import errors_pb2
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


def _typescript_class_for(reason: str) -> str:
    """The class the TypeScript client's ``invalidRequestClass`` picks for an INVALID_ARGUMENT ``reason``."""
    text = (TYPESCRIPT / "errors.ts").read_text(encoding="utf-8")
    table = text.split("const INVALID_REQUESTS_BY_REASON", 1)[1].split("};", 1)[0]
    by_reason = dict(re.findall(r"^\s+(\w+): (\w+),$", table, flags=re.MULTILINE))
    assert by_reason, "the TypeScript client's table of reasons was not found: the check would be vacuous"
    return "TokenRefused" if reason.startswith("SEALED_STATE_") else by_reason.get(reason, "InvalidRequest")


def test_the_same_reasons_choose_the_same_subclass_in_both_clients() -> None:
    reasons = [name.removeprefix("REJECTION_REASON_") for name in errors_pb2.RejectionReason.keys()[1:]]
    chosen = {}
    for reason in reasons:
        detail = any_pb2.Any()
        detail.Pack(error_details_pb2.ErrorInfo(reason=reason, domain=errors.DOMAIN))
        status = status_pb2.Status(code=3, message="refused", details=[detail])  # 3: INVALID_ARGUMENT
        chosen[reason] = type(errors.from_status(status)).__name__
    assert {chosen[reason] for reason in reasons} >= {"InvalidRequest", "TokenRefused", "BatchTooLarge"}
    assert chosen == {reason: _typescript_class_for(reason) for reason in reasons}
