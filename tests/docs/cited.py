"""The names the documentation cites in backticks, in its prose (its fenced blocks run instead): repository paths
and code identifiers, and whether each exists. A page naming ``MAX_BOT_ITERATIONS`` where the code says
``DEFAULT_MAX_BOT_ITERATIONS``, or a file that moved, fails ``tests/docs/test_cited_names.py``.

- A path (a ``/`` or a file extension, no space) must be a file or folder of the repository: from its root,
  the page's folder or ``proto/`` (where the contract's imports start), or the end of a tracked path
  (``api/apply.py`` for ``engine_service/api/apply.py``); ``<name>`` stands for any one name, an ``#anchor`` or
  a ``:line`` is left out. What cannot be a repository path is not checked: a URL or host, an HTTP path
  (``/healthz``), a shell variable, an npm scope or a Go module (``@``, a dotted first name), a MIME type,
  ``...`` elisions, and the names of ``NOT_PATHS``.
- An identifier (``ALL_CAPS``, ``snake_case``, ``CamelCase``, ``camelCase`` or dotted, optionally called ``()``)
  must appear as a whole word in the repository's code (every part of a dotted name), unless it is one of
  another program's (``ELSEWHERE``). Plain words (``greedy``, ``token``) are English as much as code, and
  ``_SUFFIX`` fragments abbreviate a name given in full beside them: neither is checked.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import NamedTuple

from tests.docs.blocks import FENCE, ROOT

CODE_SUFFIXES = (".py", ".ts", ".mjs", ".go", ".proto", ".yaml", ".yml", ".json", ".toml", ".cfg", ".sh", ".conf")
CODE_NAMES = ("Makefile", "Dockerfile", "ensure-debian-packages", "run")
# Names that look like paths and are not the repository's files.
NOT_PATHS = frozenset(
    {
        "splendor/Splendor-v0",  # the Gymnasium environment's id
        "Health/Check",  # gRPC methods of grpc.health.v1, as their paths name them
        "Health/Watch",
        "splendor-engine-client/node",  # the TypeScript package's entry points
        "splendor-engine-client/web",
        "googleapis/rpc/status",  # a Go import path
        "splendor-engine/clients/go",  # the Go client's module path
        "google/rpc/status.proto",  # googleapis' protos, which the contract imports from its registry
        "google/rpc/error_details.proto",
        "status.proto",
        "cestpasphoto/alpha-zero-general",  # another project, on GitHub
        "autoscaling/v2",  # a Kubernetes API
        "logs/",  # the folder nginx writes under its prefix
        "dist/",  # what a build writes, and an install reads
        "vendor/",
        "vendor/modules.txt",
        "build/compiled-core",
        "results.csv",  # what splendor-tournament writes in --out
        "results.json",
        "results.png",
        "main.ts",  # the reader's own program, in the examples' own project
        "MODULE-laptop.png",  # a screenshot's name, one per module
        "MODULE-phone.png",
    }
)
MIME_TYPES = ("application/", "text/", "image/")
# Identifiers of other programs, named where the pages say how to use them with this one.
ELSEWHERE = frozenset(
    {
        *("OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_CERTIFICATE", "OTEL_TRACES_SAMPLER_ARG"),  # OpenTelemetry
        *("process_start_time_seconds", "OOMKilled", "serviceMonitorSelector", "serviceMonitorNamespaceSelector"),
        *("thread_time", "Rules_Splendor_US", "FILE_SAME_GO_PACKAGE", "protoc_builtin"),  # Python, the rulebook, buf
        *("grpc_csharp_plugin", "Grpc", "Tools", "Google", "Api", "CommonProtos", "StatusProto", "Rpc"),  # C#
        *("rpcException", "GetRpcStatus"),
        *("HEALTHCHECK", "http2_protocol_options", "envoy", "filters", "http", "buffer", "network"),  # Docker, Envoy
        *("connection_limit", "health_checks"),
        *("gc", "freeze", "ParallelEnv"),  # Python's collector, PettingZoo
    }
)
# This check's own files, which name wrong names to show they are caught: their words are not the repository's.
CHECKER_FILES = frozenset({"tests/docs/cited.py", "tests/docs/test_cited_names.py"})

BACKTICKED = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?")
PATH_SUFFIX = re.compile(r"\.(py|md|proto|ts|mjs|go|json|yaml|yml|toml|txt|csv|png|sh|conf|html|css|js)$")


class Cited(NamedTuple):
    page: Path
    line: int
    text: str
    kind: str  # "path" or "identifier"


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of a page outside its fenced blocks, numbered from 1."""
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line) or (fenced and line.strip().startswith(("```", "~~~"))):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def citations(page: Path, text: str | None = None) -> list[Cited]:
    """The paths and identifiers ``page`` cites in backticks (``text``: its content, if not read from the page)."""
    found = []
    for number, line in prose_lines(page.read_text(encoding="utf-8") if text is None else text):
        for match in BACKTICKED.finditer(line):
            cited = match.group(1).strip()
            kind = kind_of(cited)
            if kind is not None:
                found.append(Cited(page, number, cited, kind))
    return found


def kind_of(text: str) -> str | None:
    """``path``, ``identifier``, or None for what is neither (a command, a value, a plain word, another system's)."""
    if not text or " " in text or text in NOT_PATHS or text.startswith(("/", "$", "~", "-", ".", "@", *MIME_TYPES)):
        return None
    if ":" in text.split("#", 1)[0].rstrip("0123456789").rstrip(":") or "=" in text or text[0].isdigit():
        return None
    if "/" in text or PATH_SUFFIX.search(text.split("#", 1)[0]):
        first = text.split("/", 1)[0]
        if first.startswith("<"):
            return None  # a name relative to something named elsewhere (a conformance case's)
        if "@" in text or ("." in first and "/" in text) or text.endswith("..."):
            return None  # an npm package, a Go module or a host, an elision
        return None if text.endswith("()") else "path"
    if text.startswith("_") and text[1:2].isupper():
        return None  # a suffix of a name given in full beside it
    if IDENTIFIER.fullmatch(text) and _looks_like_code(text.removesuffix("()")):
        return "identifier"
    return None


def _looks_like_code(name: str) -> bool:
    if "." in name or "_" in name.strip("_"):
        return True
    if name.isupper() and len(name) > 2:
        return True
    return any(char.isupper() for char in name[1:]) and any(char.islower() for char in name)


@cache
def _tracked() -> tuple[str, ...]:
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True)
    return tuple(listed.stdout.splitlines())


@cache
def _tracked_paths() -> frozenset[str]:
    """Every tracked file and folder, as paths from the root."""
    paths: set[str] = set()
    for name in _tracked():
        parts = name.split("/")
        paths.update("/".join(parts[: end + 1]) for end in range(len(parts)))
    return frozenset(paths)


@cache
def code_words() -> frozenset[str]:
    """Every word of the repository's code (identifiers, as the code spells them)."""
    words: set[str] = set()
    for name in _tracked():
        path = ROOT / name
        if name in CHECKER_FILES or not (name.endswith(CODE_SUFFIXES) or path.name in CODE_NAMES) or not path.is_file():
            continue
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", path.read_text(encoding="utf-8", errors="replace")))
    return frozenset(words)


def exists(cited: Cited) -> bool:
    if cited.kind == "identifier":
        parts = cited.text.removesuffix("()").split(".")
        return all(part in code_words() or part in ELSEWHERE for part in parts)
    return _path_exists(cited.page, cited.text)


def _path_exists(page: Path, text: str) -> bool:
    path = re.sub(r":\d+$", "", text.split("#", 1)[0]).rstrip("/")
    if not path:
        return True  # an anchor of the page itself
    # Any one name for <name> and *, then the path itself or the end of a tracked one.
    parts = [("[^/]+" if part.startswith("<") else re.escape(part).replace(r"\*", "[^/]*")) for part in _split(path)]
    pattern = re.compile("^(.*/)?" + "".join(parts) + "$")
    page_folder = page.parent.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else ""
    for base in ("", page_folder, "proto"):
        candidate = f"{base}/{path}".lstrip("/") if base else path
        if "<" not in path and "*" not in path and (ROOT / candidate).resolve().exists():
            return True
    return any(pattern.match(tracked) for tracked in _tracked_paths())


def _split(path: str) -> list[str]:
    """``path`` in pieces: each ``<placeholder>`` apart from the text around it."""
    return [piece for piece in re.split(r"(<[^>]+>)", path) if piece]
