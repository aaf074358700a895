"""The platform's HTTP API for browsers (JSON over the standard library's WSGI server). A browser holds a session id,
never a token or a seat key, and can only look and move as the seat its session is bound to.

    POST /matches            {"players": ["human", "greedy", ...], "modules": ["cities"]}
                             -> 201 {"match": id, "sessions": {"0": session, ...}}   (a lobby's job, here for tests)
    GET  /me?since=STEP      Authorization: Bearer SESSION -> the seat's state (below)
    POST /me/moves           Authorization: Bearer SESSION, {"step": STEP, "action_id": ID} -> the seat's state
    GET  /matches/ID?since=STEP                             -> what spectators see

A state is ``{"match", "seat", "step", "acting_seat", "finished", "view", "events", "legal_actions"}``: ``view``
and the events since ``since`` in the contract's JSON mapping, ``legal_actions`` the seat's when it must act. A
refusal is ``{"reason", "message"}`` with 400, 401, 404, 409 (STEP_MISMATCH: the match moved on; reload), 422 (an
illegal move, NOT_YOUR_TURN) or 503 (the engine unreachable for too long).
"""

from __future__ import annotations

import json
import socketserver
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from google.protobuf.json_format import MessageToDict

from .matches import Platform, Refused, SeatState

Environ = dict[str, Any]
StartResponse = Callable[[str, list[tuple[str, str]]], Any]
MAX_BODY_BYTES = 4096
STATUS = {200: "200 OK", 201: "201 Created", 400: "400 Bad Request", 401: "401 Unauthorized", 404: "404 Not Found"}
STATUS |= {405: "405 Method Not Allowed", 409: "409 Conflict", 422: "422 Unprocessable Entity"}
STATUS |= {503: "503 Service Unavailable"}


def state_json(state: SeatState) -> dict[str, Any]:
    return {
        "match": state.match,
        "seat": state.seat,
        "step": state.step,
        "acting_seat": state.acting_seat,
        "finished": state.finished,
        "view": MessageToDict(state.view),
        "events": [MessageToDict(event) for event in state.events],
        # Action id 0 is an action: print it (the JSON mapping leaves out zeros).
        "legal_actions": [
            MessageToDict(legal, always_print_fields_with_no_presence=True) for legal in state.legal_actions
        ],
    }


class Api:
    """The WSGI application of ``platform``."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        try:
            status, body = self._route(environ)
        except Refused as refused:
            status, body = refused.status, {"reason": refused.reason, "message": refused.message}
        data = json.dumps(body).encode("utf-8")
        start_response(STATUS[status], [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
        return [data]

    def _route(self, environ: Environ) -> tuple[int, dict[str, Any]]:
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        since = _since(environ)
        if path == "/matches" and method == "POST":
            body = _body(environ)
            match, sessions = self.platform.create_match(list(body.get("players", [])), list(body.get("modules", [])))
            return 201, {"match": match, "sessions": {str(seat): session for seat, session in sessions.items()}}
        if path == "/me" and method == "GET":
            return 200, state_json(self.platform.state(_session(environ), since))
        if path == "/me/moves" and method == "POST":
            body = _body(environ)
            step, action_id = body.get("step"), body.get("action_id")
            if not isinstance(step, int) or not isinstance(action_id, int):
                raise Refused(400, "BAD_MOVE", 'a move is {"step": int, "action_id": int}')
            return 200, state_json(self.platform.move(_session(environ), step, action_id))
        if path.startswith("/matches/") and method == "GET":
            return 200, state_json(self.platform.watch(path.removeprefix("/matches/"), since))
        raise Refused(404 if method in ("GET", "POST") else 405, "NOT_FOUND", f"no {method} {path}")


def _session(environ: Environ) -> str:
    header: str = environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, session = header.partition(" ")
    if scheme != "Bearer" or not session:
        raise Refused(401, "NO_SESSION", "send your session as Authorization: Bearer <session>")
    return session


def _since(environ: Environ) -> int:
    values = parse_qs(environ.get("QUERY_STRING", "")).get("since", ["-1"])
    try:
        return int(values[0])
    except ValueError:
        raise Refused(400, "BAD_SINCE", "since is a step number") from None


def _body(environ: Environ) -> dict[str, Any]:
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = -1
    if not 0 <= length <= MAX_BODY_BYTES:
        raise Refused(400, "BAD_BODY", f"a body is JSON of at most {MAX_BODY_BYTES} bytes")
    try:
        body = json.loads(environ["wsgi.input"].read(length) or b"{}")
    except ValueError:
        raise Refused(400, "BAD_BODY", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(400, "BAD_BODY", "the body is a JSON object")
    return body


class _ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(platform: Platform, host: str = "127.0.0.1", port: int = 0) -> WSGIServer:
    """A server of ``platform``'s API on ``host:port`` (0: a free port; see ``server_port``), not yet serving:
    call ``serve_forever`` (in a thread) and ``shutdown``."""
    return make_server(host, port, Api(platform), server_class=_ThreadingServer, handler_class=_QuietHandler)
