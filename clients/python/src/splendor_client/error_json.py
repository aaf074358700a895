"""``splendor-error``: a refusal read from the command line, its details decoded.

``buf curl`` (on standard error) and the server's Connect endpoint (as the body of a refused
call) write an error as Connect's JSON, ``{"code", "message", "details": [{"type", "value"}]}``,
where each detail's ``value`` is a base64 protobuf message, so the ``google.rpc.ErrorInfo``
that says why (its ``reason``) cannot be read. This reads such a document on standard input and
writes it back with every detail of a known type decoded in place, as proto3 JSON::

    ... | buf curl --protocol grpc ... ApplyAction 2>&1 | splendor-error
    curl -s localhost:8080/splendor.v1.EngineService/ApplyAction ... | splendor-error

Exit status 1 for an error. Anything else passes through unchanged, so it may end any such
pipeline: a response (exit 0), or text that is not JSON (exit 1: a tool's own failure, such as
``connection refused``).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import sys
from collections.abc import Sequence
from typing import Any

import google.rpc.error_details_pb2  # noqa: F401  (registers the detail types)
from google.protobuf import descriptor_pool, json_format, message_factory
from google.protobuf.message import DecodeError

ERROR_KEYS = frozenset({"code", "message", "details"})


def is_error(document: object) -> bool:
    """Whether ``document`` is a Connect error: a ``code`` string and nothing but a message and details."""
    return isinstance(document, dict) and isinstance(document.get("code"), str) and set(document) <= ERROR_KEYS


def decode_detail(detail: object) -> object:
    """The detail with its message decoded (``type`` first, then its fields), or unchanged when its type is
    unknown here or its value is not that message."""
    if not (isinstance(detail, dict) and isinstance(detail.get("type"), str) and isinstance(detail.get("value"), str)):
        return detail
    try:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(detail["type"])
    except KeyError:
        return detail
    message = message_factory.GetMessageClass(descriptor)()
    try:
        message.ParseFromString(_base64(detail["value"]))
    except (binascii.Error, ValueError, DecodeError):
        return detail
    fields = json_format.MessageToDict(message)
    if isinstance(fields.get("metadata"), dict):  # ErrorInfo's map: in key order, as it has none on the wire
        fields["metadata"] = dict(sorted(fields["metadata"].items()))
    return {"type": detail["type"], **fields}


def _base64(value: str) -> bytes:
    """Connect's base64: the standard or URL-safe alphabet, its padding optional."""
    standard = value.replace("-", "+").replace("_", "/")
    return base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)


def decoded(document: dict[str, Any]) -> dict[str, Any]:
    """The error ``document`` with each of its details decoded."""
    details = document.get("details")
    if not isinstance(details, list):
        return document
    return {**document, "details": [decode_detail(detail) for detail in details]}


def main(argv: Sequence[str] | None = None) -> int:
    argparse.ArgumentParser(
        prog="splendor-error", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args(argv)
    text = sys.stdin.read()
    try:
        document = json.loads(text)
    except ValueError:
        sys.stdout.write(text)
        return 1
    if not is_error(document):
        sys.stdout.write(text)
        return 0
    print(json.dumps(decoded(document), indent=2))
    return 1


if __name__ == "__main__":
    sys.exit(main())
