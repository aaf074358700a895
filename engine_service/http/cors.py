"""Cross-origin requests (CORS) from the browser origins given with ``--http-cors-origin``.

Without any, only same-origin pages can call (the browser sends no preflight for them and
the server adds no CORS header). ``*`` allows every origin. A preflight (``OPTIONS`` with
``Origin`` and ``Access-Control-Request-Method``) from an allowed origin is answered 204
with the Connect and gRPC-Web request headers allowed; from any other origin 403 without
CORS headers, so the browser refuses the call. Responses to allowed origins expose the
headers Connect and gRPC-Web clients read (status, details, request id).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

ALLOWED_METHODS: Final = "POST, GET"
ALLOWED_HEADERS: Final = ", ".join(
    (
        "Content-Type",
        "Content-Encoding",
        "Accept-Encoding",
        "Connect-Protocol-Version",
        "Connect-Timeout-Ms",
        "Connect-Accept-Encoding",
        "Connect-Content-Encoding",
        "Grpc-Timeout",
        "Grpc-Accept-Encoding",
        "Grpc-Encoding",
        "X-Grpc-Web",
        "X-User-Agent",
        "X-Request-Id",
        "Splendor-Game-Id",  # the routing key the clients send, for a proxy's affinity (docs/operations.md)
        "Traceparent",
        "Tracestate",
    )
)
EXPOSED_HEADERS: Final = ", ".join(
    (
        "Grpc-Status",
        "Grpc-Message",
        "Grpc-Status-Details-Bin",
        "Grpc-Encoding",
        "Grpc-Accept-Encoding",
        "Connect-Content-Encoding",
        "Connect-Accept-Encoding",
        "Content-Encoding",
        "X-Request-Id",
    )
)
MAX_AGE_SECONDS: Final = 7200  # browsers cap it at 2 hours (Chromium) or 24 (Firefox)
ANY: Final = "*"

Headers = list[tuple[str, str]]


class CorsPolicy:
    def __init__(self, origins: Iterable[str]) -> None:
        self.origins = frozenset(origin.rstrip("/") for origin in origins)
        self.any = ANY in self.origins

    def allows(self, origin: str | None) -> bool:
        return origin is not None and (self.any or origin in self.origins)

    def response_headers(self, origin: str | None) -> Headers:
        """Headers for an actual (non-preflight) response to ``origin``."""
        if not self.allows(origin):
            return []
        assert origin is not None
        return [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Expose-Headers", EXPOSED_HEADERS),
            ("Vary", "Origin"),
        ]

    def preflight_headers(self, origin: str | None) -> Headers | None:
        """The preflight answer's headers, or None to refuse it."""
        if not self.allows(origin):
            return None
        assert origin is not None
        return [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Methods", ALLOWED_METHODS),
            ("Access-Control-Allow-Headers", ALLOWED_HEADERS),
            ("Access-Control-Max-Age", str(MAX_AGE_SECONDS)),
            ("Vary", "Origin"),
        ]
