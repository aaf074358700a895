"""splendor-tournament: seat rotation, consistent CSV and JSON, the chart, external programs, clean exits."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from splendor_client.elo import fit_elo, pairwise_from_games, wilson_interval
from splendor_client.tournament import main
from splendor_client.tournament_games import schedule

from engine_service.bots import IsmctsPolicy
from engine_service.rules import Action, GameState
from engine_service.runtime.metrics import get_metrics
from engine_service.server.app import SERVICE_NAME

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BOT_SCRIPT = Path(__file__).with_name("highest_id_bot.py")


def _run(tmp_path: Path, *args: str) -> tuple[list[dict[str, str]], dict[str, Any]]:
    assert main([*args, "--out", str(tmp_path), "--quiet"]) == 0
    with (tmp_path / "results.csv").open(encoding="utf-8") as rows:
        games = list(csv.DictReader(rows))
    return games, json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))


def test_six_games_rotate_seats_over_shared_deals_and_the_totals_agree(tmp_path: Path) -> None:
    games, document = _run(tmp_path, "greedy", "random", "--in-process", "--games", "6", "--seed", "40")
    assert [row["game"] for row in games] == [str(index) for index in range(6)]
    assert [row["seat0_bot"] for row in games] == ["greedy", "random"] * 3
    assert [row["deal_seed"] for row in games] == ["40", "40", "41", "41", "42", "42"]
    bots = {entry["bot"]: entry for entry in document["bots"]}
    assert set(bots) == {"greedy", "random"}
    for name, entry in bots.items():
        wins = sum(name in row["winners"].split(";") for row in games)
        assert entry["games"] == 6
        assert entry["wins"] == wins
        assert entry["win_rate"] == pytest.approx(wins / 6)
        assert (entry["ci_low"], entry["ci_high"]) == pytest.approx(wilson_interval(wins, 6))
        moves = sum(int(row[f"seat{seat}_moves"]) for row in games for seat in (0, 1) if row[f"seat{seat}_bot"] == name)
        assert entry["moves"] == moves
    places = [[(row[f"seat{seat}_bot"], int(row[f"seat{seat}_place"])) for seat in (0, 1)] for row in games]
    elo = fit_elo(pairwise_from_games(places))
    assert {name: entry["elo"] for name, entry in bots.items()} == pytest.approx(elo)
    assert len(document["games"]) == 6
    assert document["settings"]["games"] == 6


def test_the_chart_is_a_valid_png(tmp_path: Path) -> None:
    _run(tmp_path, "greedy", "random", "--in-process", "--games", "2")
    data = (tmp_path / "results.png").read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert data[12:16] == b"IHDR"
    from PIL import Image

    with Image.open(tmp_path / "results.png") as image:
        image.verify()
        assert image.size[0] > 100 and image.size[1] > 100


def test_four_seats_rotate_through_every_seat(tmp_path: Path) -> None:
    games, document = _run(tmp_path, "greedy", "random", "random", "greedy", "--in-process", "--games", "4")
    labels = ["greedy#1", "random#1", "random#2", "greedy#2"]
    for index, row in enumerate(games):
        assert [row[f"seat{seat}_bot"] for seat in range(4)] == [labels[(seat + index) % 4] for seat in range(4)]
    assert [entry["bot"] for entry in document["bots"]] == labels
    assert all(entry["games"] == 4 for entry in document["bots"])


def test_several_processes_play_the_same_games_as_one(tmp_path: Path) -> None:
    one, _ = _run(tmp_path / "one", "greedy", "random", "--in-process", "--games", "4")
    two, _ = _run(tmp_path / "two", "greedy", "random", "--in-process", "--games", "4", "--processes", "2")

    def outcome(rows: list[dict[str, str]]) -> list[tuple[str, ...]]:
        return [(row["winners"], row["actions"], row["seat0_prestige"], row["seat1_prestige"]) for row in rows]

    assert outcome(one) == outcome(two)


def test_a_module_and_a_turn_limit_reach_the_games(tmp_path: Path) -> None:
    games, document = _run(
        tmp_path, "random", "random", "--in-process", "--games", "2", "--modules", "orient", "--turn-limit", "6"
    )
    assert [row["end_reason"] for row in games] == ["TURN_LIMIT_REACHED"] * 2
    assert [row["turns"] for row in games] == ["6", "6"]
    assert document["settings"]["modules"] == ["orient"]


def test_ismcts_plays_in_a_tournament(tmp_path: Path) -> None:
    games, document = _run(tmp_path, "ismcts:8", "random", "--in-process", "--games", "2")
    assert len(games) == 2
    assert document["bots"][0]["bot"] == "ismcts:8"
    assert document["bots"][0]["moves"] > 0


def test_an_external_program_plays_over_json_lines(tmp_path: Path) -> None:
    program = f"cmd:{sys.executable} {BOT_SCRIPT}"
    games, document = _run(tmp_path, program, "random", "--in-process", "--games", "2")
    assert len(games) == 2
    assert document["bots"][0]["moves"] > 0


def test_an_external_program_that_answers_nonsense_stops_the_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = f"cmd:{sys.executable} {BOT_SCRIPT} --garbage"
    assert main([program, "random", "--in-process", "--games", "1", "--out", str(tmp_path), "--quiet"]) == 1
    assert "'not an id', not an action id" in capsys.readouterr().err


def test_games_through_a_server_address(tmp_path: Path, address: str) -> None:
    program = f"cmd:{sys.executable} {BOT_SCRIPT}"
    games, document = _run(tmp_path, "greedy", "random", program, "--server", address, "--games", "3")
    assert [row["seat0_bot"] for row in games] == ["greedy", "random", program]
    assert document["settings"]["mode"] == "server"
    assert all(row["end_reason"] for row in games)
    assert sum(entry["games"] for entry in document["bots"]) == 9


def test_games_played_together_through_a_server_are_the_games_played_one_by_one(tmp_path: Path, address: str) -> None:
    args = ("greedy", "random", "ismcts:4", "--server", address, "--games", "6", "--turn-limit", "12", "--seed", "9")
    together, document = _run(tmp_path / "together", *args, "--batch", "4", "--processes", "2")
    alone, _ = _run(tmp_path / "alone", *args, "--batch", "1")
    assert document["settings"]["batch"] == 4
    timing = ("seconds", "cpu_seconds")
    keep = [name for name in together[0] if not any(word in name for word in timing)]
    assert [{name: row[name] for name in keep} for row in together] == [
        {name: row[name] for name in keep} for row in alone
    ]


def test_ismcts_searches_on_the_server_in_one_call_a_move(
    tmp_path: Path, address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[int] = []
    choose = IsmctsPolicy.choose

    def counted(policy: IsmctsPolicy, state: GameState) -> Action:
        searched.append(state.acting_seat)
        return choose(policy, state)

    monkeypatch.setattr(IsmctsPolicy, "choose", counted)  # the fixture's server runs in this process
    metrics = get_metrics()
    applied = metrics.started.labels("unary", SERVICE_NAME, "ApplyAction")
    listed = metrics.started.labels("unary", SERVICE_NAME, "ListLegalActions")
    batches = metrics.started.labels("unary", SERVICE_NAME, "BatchApplyActions")
    answered = metrics.batch_items.labels("answered")
    applied_before, listed_before = applied._value.get(), listed._value.get()
    batches_before, answered_before = batches._value.get(), answered._value.get()
    args = ("ismcts:8", "random", "--server", address, "--games", "2", "--turn-limit", "8")
    games, document = _run(tmp_path, *args)
    assert [row["seat0_bot"] for row in games] == ["ismcts:8", "random"]
    assert all(row["end_reason"] == "TURN_LIMIT_REACHED" for row in games)
    ismcts = next(entry for entry in document["bots"] if entry["bot"] == "ismcts:8")
    # One more search and call than moves: the check of the bot before the first game (validate_only).
    assert len(searched) == ismcts["moves"] + 1 > 1
    assert applied._value.get() - applied_before == ismcts["moves"] + 1  # a search: an ApplyAction call of its own
    assert answered._value.get() - answered_before == sum(int(row["actions"]) for row in games) - ismcts["moves"]
    # The two games' random moves together: one call a round, at most one a move of the longer game.
    assert 0 < batches._value.get() - batches_before <= max(int(row["actions"]) for row in games)
    assert listed._value.get() - listed_before == len(games)  # only before each game's first move
    again, _ = _run(tmp_path / "again", *args)
    assert [row["actions"] for row in again] == [row["actions"] for row in games]
    assert [row["seat0_prestige"] for row in again] == [row["seat0_prestige"] for row in games]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy", "--in-process"], "2 to 4 bots"),
        (["alphazero", "greedy", "--in-process"], "unknown bot"),
        (["ismcts:fast", "greedy", "--in-process"], "positive number of iterations"),
        (["greedy", "random"], "one of the arguments --in-process --server is required"),
        (["greedy", "random", "--server", "localhost:1", "--batch", "0"], "--batch must be positive"),
    ],
)
def test_bad_command_lines_exit_2_with_a_reason(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_the_runner_exits_cleanly_when_its_output_is_closed(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "splendor_client.tournament", "greedy", "random", "--in-process"]
    command += ["--games", "2", "--quiet", "--out", str(tmp_path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # like `| head` that has already gone
    errors = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0
    assert "Traceback" not in errors
    assert (tmp_path / "results.json").exists()


def test_schedule_gives_every_seat_its_own_seed() -> None:
    specs = schedule(["a", "b"], ["greedy", "random"], games=4, seed=3)
    seeds = [seed for spec in specs for seed in spec.bot_seeds]
    assert len(set(seeds)) == len(seeds)
