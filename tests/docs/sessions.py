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


def steps_of(text: str) -> list[Step]:
    """A session's steps; a block without ``$`` prompts is a script, one command per line."""
    lines = text.splitlines()
    if not any(line.startswith(PROMPT) for line in lines):
        return [Step(line, "") for line in lines if line.strip() and not line.lstrip().startswith("#")]
    steps: list[Step] = []
    index = 0
    while index < len(lines):
        if not lines[index].startswith(PROMPT):
            raise ValueError(f"output before the first command: {lines[index]!r}")
        command = [lines[index].removeprefix(PROMPT)]
        index += 1
        while command[-1].endswith("\\") and index < len(lines):
            command.append(lines[index])
            index += 1
        shown: list[str] = []
        while index < len(lines) and not lines[index].startswith(PROMPT):
            shown.append(lines[index])
            index += 1
        steps.append(Step("\n".join(command), "\n".join(shown)))
    return steps


def _canonical(text: str) -> str:
    """What is compared: no whitespace, and every 128-bit hex id the same."""
    return re.sub(r"\s+", "", HEX_ID.sub("<id>", text))


def output_matches(shown: str, actual: str) -> bool:
    """True when ``actual`` is ``shown``, with ``...`` standing for any text and whitespace ignored."""
    parts = [re.escape(_canonical(part)) for part in shown.split(ELLIPSIS)]
    return re.fullmatch(".*?".join(parts), _canonical(actual), flags=re.DOTALL) is not None
