"""engine_service.web serves the front end's files by name only: no way out of its folder, / is index.html,
revalidation by ETag, and the committed bundle is packaged."""

from __future__ import annotations

import pytest

from engine_service.web import StaticSite, static_site

SITE = StaticSite.from_files(
    [
        ("index.html", b"<!doctype html>"),
        ("app.js", b"console.log(1)"),
        ("app.css", b"body{}"),
        ("secret.key", b"not served: unknown kind"),
        (".hidden.js", b"not served: hidden"),
    ]
)


def header(response_headers: tuple[tuple[str, str], ...], name: str) -> str | None:
    return next((value for key, value in response_headers if key.lower() == name.lower()), None)


def test_root_is_index_html() -> None:
    response = SITE.respond("GET", "/")
    assert response.status == 200
    assert response.body == b"<!doctype html>"
    assert header(response.headers, "Content-Type") == "text/html; charset=utf-8"


@pytest.mark.parametrize(
    ("path", "content_type"),
    [("/app.js", "text/javascript; charset=utf-8"), ("/app.css?v=2", "text/css; charset=utf-8")],
)
def test_files_by_name_with_their_content_type(path: str, content_type: str) -> None:
    response = SITE.respond("GET", path)
    assert response.status == 200
    assert header(response.headers, "Content-Type") == content_type
    assert header(response.headers, "Content-Length") == str(len(response.body))
    assert header(response.headers, "X-Content-Type-Options") == "nosniff"
    assert "connect-src 'self'" in (header(response.headers, "Content-Security-Policy") or "")


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/..%2F__init__.py",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/static/app.js",
        "/..\\__init__.py",
        "/app.js%00.html",
        "/%ff%fe",
        "/secret.key",
        "/.hidden.js",
        "/__init__.py",
        "//etc/passwd",
        "/nothing.html",
    ],
)
def test_anything_but_a_listed_file_is_not_found(path: str) -> None:
    response = SITE.respond("GET", path)
    assert response.status == 404
    assert response.body == b""


def test_etag_revalidation_answers_not_modified() -> None:
    first = SITE.respond("GET", "/app.js")
    etag = header(first.headers, "ETag")
    assert etag is not None and etag.startswith('"')
    assert header(first.headers, "Cache-Control") == "no-cache"
    again = SITE.respond("GET", "/app.js", if_none_match=f'"other", {etag}')
    assert again.status == 304
    assert again.body == b""
    assert SITE.respond("GET", "/app.js", if_none_match='"other"').status == 200


def test_head_has_headers_without_body_and_other_methods_are_refused() -> None:
    head = SITE.respond("HEAD", "/app.js")
    assert head.status == 200
    assert head.body == b""
    assert header(head.headers, "Content-Length") == str(len(b"console.log(1)"))
    refused = SITE.respond("POST", "/app.js")
    assert refused.status == 405
    assert header(refused.headers, "Allow") == "GET, HEAD"


def test_wsgi_application_serves_the_same() -> None:
    started: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        started.append(status)

    body = SITE.wsgi({"REQUEST_METHOD": "GET", "PATH_INFO": "/"}, start_response)
    assert started == ["200 OK"]
    assert b"".join(body) == b"<!doctype html>"
    SITE.wsgi({"REQUEST_METHOD": "GET", "PATH_INFO": "/../x"}, start_response)
    assert started == ["200 OK", "404 Not Found"]


def test_the_packaged_front_end_is_served() -> None:
    site = static_site()
    index = site.respond("GET", "/")
    assert index.status == 200
    assert b'<script type="module" src="app.js">' in index.body
    assert site.respond("GET", "/app.js").status == 200
    assert site.respond("GET", "/app.css").status == 200
