"""CORS for the configured browser origins only, the /healthz probe, and the concurrency limit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine_service.http import HttpServer
from engine_service.runtime.settings import Settings
from tests.http.conftest import ALLOWED_ORIGIN, Ports, serve
from tests.http.support import ENGINE, connect_json, connect_refusal, request

pytestmark = pytest.mark.e2e

PREFLIGHT = {
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type,connect-protocol-version,x-grpc-web,x-user-agent",
}


def test_a_preflight_from_an_allowed_origin_allows_connect_and_grpc_web_headers(http_port: int) -> None:
    reply = request(http_port, "OPTIONS", f"{ENGINE}/ApplyAction", {"Origin": ALLOWED_ORIGIN, **PREFLIGHT})
    assert reply.status == 204
    assert reply.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "POST" in reply.headers["access-control-allow-methods"]
    allowed = {name.strip().lower() for name in reply.headers["access-control-allow-headers"].split(",")}
    assert {"content-type", "connect-protocol-version", "connect-timeout-ms", "x-grpc-web", "x-user-agent"} <= allowed
    assert {"grpc-timeout", "x-request-id", "traceparent"} <= allowed
    assert int(reply.headers["access-control-max-age"]) > 0
    assert reply.headers["vary"] == "Origin"


def test_a_preflight_from_another_origin_is_refused(http_port: int) -> None:
    reply = request(http_port, "OPTIONS", f"{ENGINE}/ApplyAction", {"Origin": "https://evil.example", **PREFLIGHT})
    assert reply.status == 403
    assert not any(name.startswith("access-control-") for name in reply.headers)


def test_responses_to_an_allowed_origin_expose_the_status_headers(http_port: int) -> None:
    ok = connect_json(http_port, "GetCatalog", {}, {"Origin": ALLOWED_ORIGIN})
    assert ok.status == 200 and ok.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    exposed = {name.strip().lower() for name in ok.headers["access-control-expose-headers"].split(",")}
    assert {"grpc-status", "grpc-message", "grpc-status-details-bin", "x-request-id"} <= exposed
    refused = connect_json(http_port, "CreateGame", {"config": {"numPlayers": 9}}, {"Origin": ALLOWED_ORIGIN})
    assert refused.status == 400 and refused.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    other = connect_json(http_port, "GetCatalog", {}, {"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers  # the browser withholds the answer


def test_without_configured_origins_only_same_origin_pages_may_call(limited: Ports) -> None:
    preflight = request(limited.http, "OPTIONS", f"{ENGINE}/GetCatalog", {"Origin": ALLOWED_ORIGIN, **PREFLIGHT})
    assert preflight.status == 403


def test_healthz_answers_serving_and_turns_not_serving_on_drain() -> None:
    settings = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0")
    for ports, http_server in serve(settings):
        for method in ("GET", "HEAD"):
            reply = request(ports.http, method, "/healthz")
            assert reply.status == 200
        assert request(ports.http, "GET", "/healthz").body == b"SERVING\n"
        http_server.app.serving = False  # what drain() does first
        reply = request(ports.http, "GET", "/healthz")
        assert reply.status == 503 and reply.body == b"NOT_SERVING\n"


@pytest.fixture(scope="module")
def limited_server() -> Iterator[tuple[Ports, HttpServer]]:
    """A server admitting one engine call at a time, without CORS origins."""
    settings = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0", max_concurrent_rpcs=1)
    yield from serve(settings)


@pytest.fixture(scope="module")
def limited(limited_server: tuple[Ports, HttpServer]) -> Ports:
    return limited_server[0]


def test_calls_over_the_concurrency_limit_are_resource_exhausted_and_health_still_answers(
    limited_server: tuple[Ports, HttpServer],
) -> None:
    limited, http_server = limited_server
    assert connect_json(limited.http, "GetCatalog", {}).status == 200
    # One call admitted (running, or waiting for a thread) fills the limit of one: the next is refused, its body
    # unread and unparsed.
    admission = http_server.guard.admission
    assert admission.try_admit()
    try:
        reply = connect_json(limited.http, "GetCatalog", {"not": "even parsed"})
        refusal = connect_refusal(reply)
        assert reply.status == 429 and refusal.code == "RESOURCE_EXHAUSTED"
        assert refusal.message == "Concurrent RPC limit exceeded!"
        assert request(limited.http, "GET", "/healthz").status == 200
    finally:
        admission.release()
    assert connect_json(limited.http, "GetCatalog", {}).status == 200
