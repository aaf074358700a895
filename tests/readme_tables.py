"""The documentation's tables that are written from the code, and the command that rewrites them.

    .venv/bin/python -m tests.readme_tables   # rewrite them after changing the action-id layout or the policies

Each table lives in ``docs/api.md`` between its two markers: the action-id layout
(``engine_service/rules/action_ids.py`` and the modules') and the bot policies
(``engine_service/bots/registry.py``). ``tests/docs/test_written_tables.py`` fails when a copy differs
from what the code writes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from engine_service.bots import policy_specs
from engine_service.rules import id_layout

API_DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


class Table(NamedTuple):
    """A table of ``docs/api.md`` written from the code: its name in the markers, and what writes it."""

    name: str
    write: Callable[[], str]

    @property
    def begin(self) -> str:
        return f"<!-- {self.name} table: written by `python -m tests.readme_tables`, do not edit -->\n"

    @property
    def end(self) -> str:
        return f"<!-- end of the {self.name} table -->\n"

    def copy_in(self, text: str) -> str:
        """The document's copy of the table."""
        start = text.index(self.begin) + len(self.begin)
        return text[start : text.index(self.end, start)]

    def rewritten(self, text: str) -> str:
        """``text`` with the table written afresh."""
        start = text.index(self.begin) + len(self.begin)
        return text[:start] + self.write() + text[text.index(self.end, start) :]


def id_table() -> str:
    return id_layout().markdown()


def policy_table() -> str:
    rows = [f"| `{spec.name}` | {'yes' if spec.searches else 'no'} | {spec.summary} |" for spec in policy_specs()]
    return "\n".join(["| policy | searches | how it plays |", "| --- | --- | --- |", *rows]) + "\n"


TABLES = (Table("action-id", id_table), Table("bot-policy", policy_table))


def main() -> None:
    text = API_DOC.read_text(encoding="utf-8")
    for table in TABLES:
        text = table.rewritten(text)
    API_DOC.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
