"""Reports how many position pairs the non-interference tests compared."""

from __future__ import annotations

import pytest

from tests.noninterference.twins import compared


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if compared["pairs"]:
        terminalreporter.write_line(f"non-interference: {compared['pairs']} sealed position pairs compared")
