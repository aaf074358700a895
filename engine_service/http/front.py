"""The ASGI application the HTTP server runs: health, the web front end, CORS, refusals, then the engine calls.

- ``GET /healthz``: 200 ``SERVING`` while the server serves, 503 ``NOT_SERVING`` once it
  drains, 503 ``STUCK`` when it makes no progress (the orchestrator's liveness probe); answered
  on the event loop at once, never counted, never queued behind engine calls;
- any other ``GET``/``HEAD`` outside the service: the web front end's files
  (``engine_service.web``: ``/`` is its page);
- ``OPTIONS``: CORS preflight (``cors.py``);
- an unknown path: 404; a method other than POST: 405; a content type that is neither
  Connect unary (``application/json``, ``application/proto``) nor gRPC-Web
  (``application/grpc-web``, ``+proto``, ``+json``): 415 (plain gRPC belongs on the gRPC
  port; the service has no streaming method);
- an engine call goes through the edge (``guard.py``: its body read, or refused) to the Connect
  application, with the CORS headers added to its answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from engine_service.web import static_site

from .cors import CorsPolicy
from .guard import App, Guard, Message, Receive, Scope, Send, peer_of

HEALTH_PATH: Final = "/healthz"
ACCEPTED: Final = "application/json, application/proto, application/grpc-web+proto, application/grpc-web+json"
_CONNECT_TYPES: Final = frozenset({"application/json", "application/proto"})
_GRPC_WEB_TYPES: Final = frozenset({"application/grpc-web", "application/grpc-web+proto", "application/grpc-web+json"})
_TEXT: Final = (b"content-type", b"text/plain; charset=utf-8")


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def accepted(content_type: str) -> bool:
    media = media_type(content_type)
    return media in _CONNECT_TYPES or media in _GRPC_WEB_TYPES


def front(
    connect_app: App,
    paths: Iterable[str],
    cors: CorsPolicy,
    guard: Guard,
    *,
    serving: Callable[[], bool],
    stuck: Callable[[], bool] = lambda: False,
) -> App:
    """The server's ASGI application around ``connect_app``, which serves ``paths``."""
    known = frozenset(paths)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await _lifespan(receive, send)
            return
        if kind != "http":  # websockets: not served
            return
        listener = guard.listener
        peer = peer_of(scope)
        if listener is None:
            await answer(scope, receive, send)
            return
        listener.request_started(peer)
        try:
            await answer(scope, receive, send)
        finally:
            listener.request_ended(peer)

    async def answer(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path") or "/"
        method = scope["method"]
        headers = {name.lower(): value for name, value in scope.get("headers", ())}
        origin = _text(headers.get(b"origin"))
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            if not serving():
                await _plain(send, 503, "NOT_SERVING\n")
            elif stuck():
                await _plain(send, 503, "STUCK\n")
            else:
                await _plain(send, 200, "SERVING\n")
            return
        if method in ("GET", "HEAD") and path not in known:
            found = static_site().respond(method, path, _text(headers.get(b"if-none-match")))
            await _send(send, found.status, [(name.encode(), value.encode()) for name, value in found.headers])
            await send({"type": "http.response.body", "body": found.body})
            return
        if method == "OPTIONS":
            await _preflight(send, cors, origin, b"access-control-request-method" in headers)
            return
        extra = cors.response_headers(origin)
        if path not in known:
            await _plain(send, 404, f"no such method: {path}\n", extra)
            return
        if method != "POST":
            await _plain(send, 405, "use POST\n", [("Allow", "POST"), *extra])
            return
        content_type = _text(headers.get(b"content-type")) or ""
        if not accepted(content_type):
            text = f"unsupported content type {content_type!r}; use one of: {ACCEPTED} (gRPC: the gRPC port)\n"
            await _plain(send, 415, text, [("Accept-Post", ACCEPTED), *extra])
            return
        await guard.serve(scope, receive, _with_headers(send, _encoded(extra)) if extra else send, connect_app)

    return app


async def _preflight(send: Send, cors: CorsPolicy, origin: str | None, asks_method: bool) -> None:
    """An ``OPTIONS``: a CORS preflight from an allowed origin, 403 from another; without one, what is allowed."""
    if origin is None or not asks_method:
        await _send(send, 204, [(b"allow", b"POST, OPTIONS")])
        await send({"type": "http.response.body", "body": b""})
        return
    preflight = cors.preflight_headers(origin)
    if preflight is None:
        await _plain(send, 403, f"origin {origin} is not allowed\n")
        return
    await _send(send, 204, _encoded(preflight))
    await send({"type": "http.response.body", "body": b""})


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to set up or tear down: the server's life is ``HttpServer``'s."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _with_headers(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *extra]}
        await send(message)

    return sending


async def _send(send: Send, status: int, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})


async def _plain(send: Send, status: int, text: str, headers: Iterable[tuple[str, str]] = ()) -> None:
    body = text.encode()
    await _send(send, status, [_TEXT, (b"content-length", str(len(body)).encode()), *_encoded(headers)])
    await send({"type": "http.response.body", "body": body})


def _encoded(headers: Iterable[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers]


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode("latin-1")
