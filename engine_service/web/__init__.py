"""The reference web front end's files (``static/``, built from ``clients/web``), served at ``/``.

Framework-agnostic: ``StaticSite.respond(method, path, if_none_match)`` turns a request line
into a ``StaticResponse`` (status, headers, body) that any HTTP listener can send, and
``StaticSite.wsgi`` serves it as a WSGI app. A URL path is never joined to a filesystem path:
the files are read once into a table keyed by name, so ``..``, encoded slashes and the like can
only miss (404). ``/`` is ``index.html``. Every file carries a strong ``ETag`` and
``Cache-Control: no-cache``, so browsers revalidate cheaply (304) and never run a stale bundle
after an upgrade; a content security policy lets the page reach only its own origin.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import unquote

__all__ = ["CONTENT_TYPES", "StaticFile", "StaticResponse", "StaticSite", "static_site"]

CONTENT_TYPES: Mapping[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".json": "application/json",
}
"""The only kinds of file served; anything else in the folder stays private."""

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    (
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    ),
)


@dataclass(frozen=True)
class StaticFile:
    """One servable file: its content type, bytes and entity tag."""

    content_type: str
    body: bytes
    etag: str


@dataclass(frozen=True)
class StaticResponse:
    """What to send back: a status code, headers and a body (empty for HEAD, 304, 404, 405)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""

    @property
    def status_line(self) -> str:
        """``"200 OK"``: the status as WSGI writes it."""
        return f"{self.status} {_REASONS[self.status]}"


_REASONS = {200: "OK", 304: "Not Modified", 404: "Not Found", 405: "Method Not Allowed"}


def _load(files: Iterable[tuple[str, bytes]]) -> dict[str, StaticFile]:
    table: dict[str, StaticFile] = {}
    for name, body in files:
        suffix = name[name.rfind(".") :] if "." in name else ""
        content_type = CONTENT_TYPES.get(suffix)
        if content_type is None or name.startswith("."):
            continue
        table[name] = StaticFile(content_type, body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')
    return table


def _packaged_files() -> list[tuple[str, bytes]]:
    folder = resources.files(__name__).joinpath("static")
    if not folder.is_dir():
        return []
    return [(entry.name, entry.read_bytes()) for entry in folder.iterdir() if entry.is_file()]


@dataclass
class StaticSite:
    """The files of one folder, served by name; ``/`` is ``index.html``."""

    files: dict[str, StaticFile] = field(default_factory=dict)

    @classmethod
    def from_files(cls, files: Iterable[tuple[str, bytes]]) -> StaticSite:
        """A site of the given ``(name, bytes)`` pairs (names without folders)."""
        return cls(_load(files))

    def lookup(self, path: str) -> StaticFile | None:
        """The file a URL path names (query and fragment ignored), or ``None``."""
        path = path.split("?", 1)[0].split("#", 1)[0]
        name = unquote(path, errors="strict") if "%" in path else path
        if name in ("", "/"):
            name = "index.html"
        elif name.startswith("/"):
            name = name[1:]
        # Only a bare file name can match: no folders, so no way out of the folder.
        if "/" in name or "\\" in name or "\x00" in name:
            return None
        return self.files.get(name)

    def respond(self, method: str, path: str, if_none_match: str | None = None) -> StaticResponse:
        """The response to ``method path`` (``GET`` or ``HEAD``), honouring ``If-None-Match``."""
        if method not in ("GET", "HEAD"):
            return StaticResponse(405, (("Allow", "GET, HEAD"), ("Content-Length", "0")))
        try:
            found = self.lookup(path)
        except UnicodeDecodeError:
            found = None
        if found is None:
            return StaticResponse(404, (("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "0")))
        headers = (
            ("ETag", found.etag),
            ("Cache-Control", "no-cache"),
            *SECURITY_HEADERS,
        )
        if if_none_match is not None and found.etag in (tag.strip() for tag in if_none_match.split(",")):
            return StaticResponse(304, headers)
        headers = (("Content-Type", found.content_type), ("Content-Length", str(len(found.body))), *headers)
        return StaticResponse(200, headers, found.body if method == "GET" else b"")

    def wsgi(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        """Serve the site as a WSGI application."""
        response = self.respond(
            str(environ.get("REQUEST_METHOD", "GET")),
            str(environ.get("PATH_INFO", "/")),
            environ.get("HTTP_IF_NONE_MATCH"),
        )
        start_response(response.status_line, list(response.headers))
        return [response.body]


_site: StaticSite | None = None


def static_site() -> StaticSite:
    """The packaged front end (``engine_service/web/static``), read once."""
    global _site  # noqa: PLW0603  # read the package data on first use only
    if _site is None:
        _site = StaticSite.from_files(_packaged_files())
    return _site
