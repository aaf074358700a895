"""splendor-tournament through a server: server-side bots are checked before the first game, and their time counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from splendor_client.tournament import main

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start

MAX_ITERATIONS = 50


@pytest.fixture(scope="module")
def bounded_address() -> object:
    server, port, health = build_server(
        Settings(address="127.0.0.1:0", threads=2, metrics_port=0, max_bot_iterations=MAX_ITERATIONS)
    )
    start(server, health)
    yield f"127.0.0.1:{port}"
    server.stop(0).wait()


def test_a_budget_the_server_refuses_stops_the_tournament_before_any_game(
    tmp_path: Path, bounded_address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([f"ismcts:{MAX_ITERATIONS + 1}", "random", "--server", bounded_address, "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert f"the server refuses bot 'ismcts:{MAX_ITERATIONS + 1}'" in capsys.readouterr().err
    assert not (tmp_path / "results.csv").exists()


def test_a_server_side_bot_is_charged_the_calls_time(
    tmp_path: Path, bounded_address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["ismcts:20", "random", "--server", bounded_address, "--games", "2", "--turn-limit", "6", "--quiet"]
    assert main([*args, "--out", str(tmp_path)]) == 0
    bots = {entry["bot"]: entry for entry in json.loads((tmp_path / "results.json").read_text())["bots"]}
    search = bots["ismcts:20"]
    assert search["cpu_seconds_per_move"] == pytest.approx(search["seconds_per_move"])
    assert search["cpu_seconds_per_move"] > 5 * bots["random"]["cpu_seconds_per_move"]
    assert "CPU of ismcts:20 (on the server): the ApplyAction call's wall time" in capsys.readouterr().out
