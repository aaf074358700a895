"""The documentation's tables that are written from the code, and the command that rewrites them.

    .venv/bin/python -m tests.readme_tables   # rewrite them after changing the action-id layout

The action-id table lives in ``docs/api.md``; ``tests/server/test_codec_tables.py`` fails when
that copy differs from the layout.
"""

from __future__ import annotations

from pathlib import Path

from engine_service.rules import id_layout

API_DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
README = API_DOC  # the name tests/server/test_codec_tables.py imports: the document holding the table
BEGIN = "<!-- action-id table: written by `python -m tests.readme_tables`, do not edit -->\n"
END = "<!-- end of the action-id table -->\n"


def id_table() -> str:
    return id_layout().markdown()


def readme_table(text: str) -> str:
    """The document's copy of the action-id table."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[start : text.index(END, start)]


def main() -> None:
    text = API_DOC.read_text(encoding="utf-8")
    start = text.index(BEGIN) + len(BEGIN)
    API_DOC.write_text(text[:start] + id_table() + text[text.index(END, start) :], encoding="utf-8")


if __name__ == "__main__":
    main()
