"""The API called in process, under a known key ring, for the sealing tests."""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message

from engine_service.api import METHODS_BY_NAME, ApiConfig, Call, invoke
from tests.sealing.rings import key_line, ring

CONFIG = ApiConfig(ring(key_line("test-key", 1)))


def call(method: str, request: Message, config: ApiConfig = CONFIG, *, received: bytes | None = None) -> Any:
    """``method``'s response to ``request`` (an ``ApiError`` raised for a refusal), handed over as the gRPC transport
    hands it: with the bytes it came in (``received``; by default the request serialized), as HTTP's does not
    (``received=b""``)."""
    handle = Call(method)
    handle.config = config
    handle.request_bytes = request.SerializeToString() if received is None else received
    return invoke(METHODS_BY_NAME[method], request, handle)
