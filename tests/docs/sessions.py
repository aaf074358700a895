"""Console sessions: commands and the output shown under them, and how shown output is compared."""

from __future__ import annotations

import re
from dataclasses import dataclass

PROMPT = "$ "
ELLIPSIS = "..."
HEX_ID = re.compile(r"\b[0-9a-f]{32}\b")


@dataclass(frozen=True)
class Step:
    """One command of a session (continuation lines joined) and the output shown under it."""

    command: str
    shown: str


def continues(line: str) -> bool:
    """True when bash reads the next line as part of this command: a trailing backslash, outside a
    comment (``cmd  # a note \\`` ends at the line's end)."""
    return line.endswith("\\") and not _has_comment(line)


def _has_comment(line: str) -> bool:
    """Whether ``line`` has a ``#`` that starts a comment: at a word's start, outside quotes."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return True
    return False


def steps_of(text: str) -> list[Step]:
    """A session's steps; a block without ``$`` prompts is a script, one command per line (continuation
    lines joined, comment lines dropped)."""
    lines = text.splitlines()
    if not any(line.startswith(PROMPT) for line in lines):
        return _script_steps(lines)
    steps: list[Step] = []
    index = 0
    while index < len(lines):
        if not lines[index].startswith(PROMPT):
            raise ValueError(f"output before the first command: {lines[index]!r}")
        command = [lines[index].removeprefix(PROMPT)]
        index += 1
        while continues(command[-1]) and index < len(lines):
            command.append(lines[index])
            index += 1
        shown: list[str] = []
        while index < len(lines) and not lines[index].startswith(PROMPT):
            shown.append(lines[index])
            index += 1
        steps.append(Step("\n".join(command), "\n".join(shown)))
    return steps


def _script_steps(lines: list[str]) -> list[Step]:
    steps: list[Step] = []
    index = 0
    while index < len(lines):
        command = [lines[index]]
        index += 1
        while continues(command[-1]) and index < len(lines):
            command.append(lines[index])
            index += 1
        if command[0].strip() and not command[0].lstrip().startswith("#"):
            steps.append(Step("\n".join(command), ""))
    return steps


def _canonical(text: str) -> str:
    """What is compared: no whitespace, and every 128-bit hex id the same."""
    return re.sub(r"\s+", "", HEX_ID.sub("<id>", text))


def output_matches(shown: str, actual: str) -> bool:
    """True when ``actual`` is ``shown``, with ``...`` standing for any text and whitespace ignored."""
    parts = [re.escape(_canonical(part)) for part in shown.split(ELLIPSIS)]
    return re.fullmatch(".*?".join(parts), _canonical(actual), flags=re.DOTALL) is not None
