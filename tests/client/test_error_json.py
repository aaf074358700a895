"""``splendor-error`` makes a refusal read from the command line readable (issue 41): buf curl and the Connect
endpoint write its ErrorInfo as base64, and the reason is what a person needs."""

from __future__ import annotations

import base64
import io
import json

import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from splendor_client.error_json import main

INFO = error_details_pb2.ErrorInfo(reason="NOT_YOUR_TURN", domain="splendor.v1", metadata={"acting_seat": "1"})
VIOLATION = error_details_pb2.BadRequest.FieldViolation(field="seat", description="seat 1 must act, not seat 0")
BAD_REQUEST = error_details_pb2.BadRequest(field_violations=[VIOLATION])


def connect_base64(message: object, *, padded: bool = False) -> str:
    """As buf curl writes a detail's value: standard base64, padding left out."""
    text = base64.b64encode(message.SerializeToString()).decode()  # type: ignore[attr-defined]
    return text if padded else text.rstrip("=")


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status = main([])
    return status, capsys.readouterr().out


def test_a_refusals_details_are_decoded_in_place(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    refusal = {
        "code": "failed_precondition",
        "message": "seat 1 must act, not seat 0",
        "details": [
            {"type": "google.rpc.ErrorInfo", "value": connect_base64(INFO)},
            {"type": "google.rpc.BadRequest", "value": connect_base64(BAD_REQUEST, padded=True)},
        ],
    }
    status, out = run(monkeypatch, capsys, json.dumps(refusal, indent=3))
    assert status == 1
    assert json.loads(out) == {
        "code": "failed_precondition",
        "message": "seat 1 must act, not seat 0",
        "details": [
            {
                "type": "google.rpc.ErrorInfo",
                "reason": "NOT_YOUR_TURN",
                "domain": "splendor.v1",
                "metadata": {"acting_seat": "1"},
            },
            {
                "type": "google.rpc.BadRequest",
                "fieldViolations": [{"field": "seat", "description": VIOLATION.description}],
            },
        ],
    }


def test_a_detail_of_an_unknown_type_or_an_undecodable_value_is_left_as_it_came(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    details = [{"type": "example.Unknown", "value": "AAAA"}, {"type": "google.rpc.ErrorInfo", "value": "!!not base64"}]
    status, out = run(monkeypatch, capsys, json.dumps({"code": "internal", "details": details}))
    assert status == 1
    assert json.loads(out)["details"] == details


def test_a_response_passes_through_unchanged(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    response = '{\n  "seat": 1,\n  "actions": []\n}\n'
    assert run(monkeypatch, capsys, response) == (0, response)


def test_text_that_is_not_json_passes_through_as_a_failure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    failure = "Failure: dial tcp 127.0.0.1:50051: connect: connection refused\n"
    assert run(monkeypatch, capsys, failure) == (1, failure)
