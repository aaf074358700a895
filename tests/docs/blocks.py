"""Fenced code blocks of the documentation, and the illustration marker before them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# ``illustration``: shown, never run. ``needs-engine``: run, but it plays on the engine in the reader's Python,
# so a client installed alone (tests/docs/test_client_only.py) must refuse it saying what to install.
MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(?P<kind>illustration|needs-engine)\s*:\s*(?P<why>\S.*?)\s*-->\s*$")
ANY_MARKER = re.compile(r"<!--\s*doc-test")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+)(?P<info>[^`]*)$")

PYTHON = frozenset({"python", "py"})
SHELL = frozenset({"sh", "console", "shell", "bash"})
TYPESCRIPT = frozenset({"ts", "typescript"})
DATA = frozenset({"json", "yaml"})
TEXT = frozenset({"text"})


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language and text, and why it is not run (if marked)."""

    path: Path
    line: int  # 1-based line of the opening fence
    language: str
    text: str
    illustration: str | None
    needs_engine: str | None = None

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"


def documents(root: Path = ROOT) -> list[Path]:
    """The Markdown files whose blocks are checked: the README, docs/, each client's README and the conformance
    vectors' README."""
    return [
        root / "README.md",
        *sorted((root / "docs").glob("*.md")),
        *sorted(root.glob("clients/*/README.md")),
        root / "conformance" / "README.md",
    ]


def blocks_of(path: Path) -> list[Block]:
    """Every fenced block of ``path`` in order; a marker that precedes no fence is an error."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            if ANY_MARKER.search(lines[index]) and not _marks_next_fence(lines, index):
                raise ValueError(f"{path.name}:{index + 1}: a doc-test marker must be right before a fence")
            index += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        end = index + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        body = [line.removeprefix(indent) for line in lines[index + 1 : end]]
        marked = _marker_before(lines, index)
        kind = marked["kind"] if marked else None
        found.append(
            Block(
                path,
                index + 1,
                opening["info"].strip().split(" ")[0].lower(),
                "\n".join(body) + "\n",
                marked["why"] if marked and kind == "illustration" else None,
                marked["why"] if marked and kind == "needs-engine" else None,
            )
        )
        index = end + 1
    return found


def _marker_before(lines: list[str], fence: int) -> re.Match[str] | None:
    """The marker on the last non-blank line before the fence (prettier puts a blank line between)."""
    before = fence - 1
    while before >= 0 and not lines[before].strip():
        before -= 1
    return MARKER.match(lines[before]) if before >= 0 else None


def _marks_next_fence(lines: list[str], index: int) -> bool:
    after = index + 1
    while after < len(lines) and not lines[after].strip():
        after += 1
    return bool(MARKER.match(lines[index])) and after < len(lines) and bool(FENCE.match(lines[after]))


def all_blocks(root: Path = ROOT) -> list[Block]:
    return [block for path in documents(root) if path.exists() for block in blocks_of(path)]
