"""examples/openspiel_tournament.py: OpenSpiel's IS-MCTS plays this project's bots and the row adds up."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_tournament_prints_one_row_per_opponent() -> None:
    completed = subprocess.run(
        [sys.executable, "openspiel_tournament.py", "--simulations", "2", "--opponents", "greedy", "ismcts:2"]
        + ["--games", "2"],
        cwd=EXAMPLES,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    rows = [line for line in completed.stdout.splitlines() if line.startswith("| 2 simulations")]
    assert [row.split("|")[2].strip() for row in rows] == ["greedy", "ismcts:2"]
    for row in rows:
        share, low, high = map(int, re.search(r"(\d+) % \((\d+)-(\d+)\)", row).groups())  # type: ignore[union-attr]
        assert low <= share <= high and share in (0, 50, 100)
