"""The README's tables that are written from the code, and the command that rewrites them.

    .venv/bin/python -m tests.readme_tables   # rewrite them after changing the action-id layout

``tests/server/test_codec_tables.py`` fails when the README's copy differs.
"""

from __future__ import annotations

from pathlib import Path

from engine_service.rules import id_layout

README = Path(__file__).resolve().parent.parent / "README.md"
BEGIN = "<!-- action-id table: written by `python -m tests.readme_tables`, do not edit -->\n"
END = "<!-- end of the action-id table -->\n"


def id_table() -> str:
    return id_layout().markdown()


def readme_table(text: str) -> str:
    """The README's copy of the action-id table."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[start : text.index(END, start)]


def main() -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index(BEGIN) + len(BEGIN)
    README.write_text(text[:start] + id_table() + text[text.index(END, start) :], encoding="utf-8")


if __name__ == "__main__":
    main()
