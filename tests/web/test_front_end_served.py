"""The HTTP listener serves the web front end at / beside the Connect service, on the same port."""

from __future__ import annotations

import http.client
from collections.abc import Iterator

import pytest

from engine_service.http import HttpServer
from engine_service.runtime.settings import Settings


@pytest.fixture(scope="module")
def http_port() -> Iterator[int]:
    server = HttpServer(Settings(address="127.0.0.1:0", http_address="127.0.0.1:0", threads=2))
    server.start()
    try:
        yield server.port
    finally:
        server.stop()


Reply = tuple[int, dict[str, str], bytes]  # status, headers by lower-case name, body


def fetch(port: int, method: str, path: str, headers: dict[str, str] | None = None) -> Reply:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_the_page_and_its_files_are_served_at_the_root(http_port: int) -> None:
    status, headers, body = fetch(http_port, "GET", "/?players=3&module=orient&seats=human,bot,bot")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert b'<script type="module" src="app.js">' in body
    assert "connect-src 'self'" in headers["content-security-policy"]
    assert fetch(http_port, "GET", "/", {"If-None-Match": headers["etag"]})[0] == 304
    status, headers, body = fetch(http_port, "GET", "/app.js")
    assert (status, headers["content-type"]) == (200, "text/javascript; charset=utf-8")
    assert len(body) == int(headers["content-length"]) > 10_000
    status, headers, body = fetch(http_port, "HEAD", "/app.css")
    assert (status, body) == (200, b"")


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/healthz", 200),
        ("GET", "/splendor.v1.EngineService/GetCatalog", 405),  # the service is POST only, as before
        ("POST", "/", 404),
        ("GET", "/../pyproject.toml", 404),
        ("GET", "/%2e%2e/engine_service/web/__init__.py", 404),
        ("GET", "/static/app.js", 404),
    ],
)
def test_the_service_and_the_probe_keep_their_answers(http_port: int, method: str, path: str, status: int) -> None:
    assert fetch(http_port, method, path)[0] == status
