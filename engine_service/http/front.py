"""The WSGI application in front of the Connect runtime: health, CORS and the HTTP refusals.

- ``GET /healthz``: 200 ``SERVING`` while the server serves, 503 ``NOT_SERVING`` once it
  drains, 503 ``STUCK`` when it makes no progress (the orchestrator's liveness probe);
- any other ``GET``/``HEAD`` outside the service: the web front end's files
  (``engine_service.web``: ``/`` is its page);
- ``OPTIONS``: CORS preflight (``cors.py``);
- an unknown path: 404; a method other than POST: 405; a content type that is neither
  Connect unary (``application/json``, ``application/proto``) nor gRPC-Web
  (``application/grpc-web``, ``+proto``, ``+json``): 415 (plain gRPC belongs on the gRPC
  port; the service has no streaming method);
- everything else goes to the Connect application, with the CORS headers added.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Final

from engine_service.web import static_site

from .cors import CorsPolicy

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

HEALTH_PATH: Final = "/healthz"
ACCEPTED: Final = "application/json, application/proto, application/grpc-web+proto, application/grpc-web+json"
_CONNECT_TYPES: Final = frozenset({"application/json", "application/proto"})
_GRPC_WEB_TYPES: Final = frozenset({"application/grpc-web", "application/grpc-web+proto", "application/grpc-web+json"})
_DISCONNECTED_KEY: Final = "waitress.client_disconnected"

# Has the caller of the request this thread serves hung up? (waitress tells, reading ahead on the
# connection while the call runs); the observer hands it to the call's ``Call``.
client_disconnected: ContextVar[Callable[[], bool] | None] = ContextVar("splendor_http_disconnected", default=None)


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def accepted(content_type: str) -> bool:
    media = media_type(content_type)
    return media in _CONNECT_TYPES or media in _GRPC_WEB_TYPES


def front(
    connect_app: WSGIApplication,
    paths: Iterable[str],
    cors: CorsPolicy,
    serving: Callable[[], bool],
    stuck: Callable[[], bool] = lambda: False,
) -> WSGIApplication:
    """The server's WSGI application around ``connect_app``, which serves ``paths``."""
    known = frozenset(paths)

    def plain(start_response: StartResponse, status: str, text: str, headers: list[tuple[str, str]]) -> list[bytes]:
        body = text.encode()
        start_response(status, [("Content-Type", "text/plain; charset=utf-8"), *headers])
        return [body]

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        method = environ["REQUEST_METHOD"]
        origin = environ.get("HTTP_ORIGIN")
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            if not serving():
                return plain(start_response, "503 Service Unavailable", "NOT_SERVING\n", [])
            if stuck():
                return plain(start_response, "503 Service Unavailable", "STUCK\n", [])
            return plain(start_response, "200 OK", "SERVING\n", [])
        if method in ("GET", "HEAD") and path not in known:
            return static_site().wsgi(environ, start_response)  # the web front end (engine_service.web)
        if method == "OPTIONS":
            if origin is None or "HTTP_ACCESS_CONTROL_REQUEST_METHOD" not in environ:
                start_response("204 No Content", [("Allow", "POST, OPTIONS")])
                return []
            headers = cors.preflight_headers(origin)
            if headers is None:
                return plain(start_response, "403 Forbidden", f"origin {origin} is not allowed\n", [])
            start_response("204 No Content", headers)
            return []
        extra = cors.response_headers(origin)
        if path not in known:
            return plain(start_response, "404 Not Found", f"no such method: {path}\n", extra)
        if method != "POST":
            return plain(start_response, "405 Method Not Allowed", "use POST\n", [("Allow", "POST"), *extra])
        content_type = environ.get("CONTENT_TYPE", "")
        if not accepted(content_type):
            text = f"unsupported content type {content_type!r}; use one of: {ACCEPTED} (gRPC: the gRPC port)\n"
            return plain(start_response, "415 Unsupported Media Type", text, [("Accept-Post", ACCEPTED), *extra])
        token = client_disconnected.set(environ.get(_DISCONNECTED_KEY))
        try:
            if not extra:
                return connect_app(environ, start_response)

            def with_cors(
                status: str, headers: list[tuple[str, str]], exc_info: object = None
            ) -> Callable[..., object]:
                return start_response(status, headers + extra, exc_info)  # type: ignore[arg-type]

            return connect_app(environ, with_cors)
        finally:
            client_disconnected.reset(token)

    return app
