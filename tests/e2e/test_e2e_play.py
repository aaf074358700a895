"""splendor-play against a real server: it narrates what its viewer may see, and ends quietly on a closed output."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from splendor.v1 import events_pb2
from splendor_client import EngineClient, GameResult, play
from splendor_client.compact_board import LEGEND, compact_board_lines
from splendor_client.describe import Describer, deck_name, player_name

from tests.rulesets import MODULE_NAMES


class RecordingClient:
    """Passes every call through and keeps the full-truth events of each move."""

    def __init__(self, client: EngineClient) -> None:
        self.client = client
        self.truth: list[events_pb2.Event] = []

    def apply(self, *args: Any, **kwargs: Any) -> GameResult:
        result = self.client.apply(*args, **kwargs)
        self.truth.extend(result.events)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)


@pytest.mark.parametrize("sealed", [False, True], ids=["plain", "sealed"])
@pytest.mark.parametrize("modules", [[], *([name] for name in MODULE_NAMES)])
def test_narration_never_names_another_seats_blind_card(client: EngineClient, modules: list[str], sealed: bool) -> None:
    """Plain: the recorded events are the whole truth. Sealed (a public deal, so the same game): each move's events
    as its mover sees them, which name the mover's own blind card."""
    recording = RecordingClient(client)
    out = io.StringIO()
    outcome = play.play_game(recording, players=3, seed=11, modules=modules, viewer=0, out=out, sealed=sealed)  # type: ignore[arg-type]
    assert outcome.finished
    text = " ".join(out.getvalue().split())  # long lines are folded
    blind = [
        event.card_reserved
        for event in recording.truth
        if event.WhichOneof("kind") == "card_reserved" and event.card_reserved.blind
    ]
    assert blind, "random bots reserve blind in these games: the check must see some"
    for reserved in blind:
        deck = deck_name(reserved.deck)
        named = f"{player_name(reserved.seat)} reserves the top card of the {deck} deck: card {reserved.card_id} ("
        assert (named in text) is (reserved.seat == 0), named
    assert "== Final table after" in text


def test_closed_output_ends_quietly(address: str) -> None:
    command = [sys.executable, "-m", "splendor_client.play", "--address", address, "--seed", "3", "--board"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()  # like `| head -1`
        errors = process.stderr.read().decode()
        code = process.wait(timeout=60)
    assert first.startswith(b"Splendor engine:")
    assert "Traceback" not in errors
    assert "BrokenPipeError" not in errors
    assert code == play.EXIT_NOT_FINISHED


def test_a_sealed_game_with_a_server_drawn_deal_and_a_server_bot(client: EngineClient) -> None:
    out = io.StringIO()
    outcome = play.play_game(client, players=2, seed=None, bot_names=["ismcts:10", "random"], out=out, sealed=True)
    assert outcome.finished and outcome.seed is not None  # revealed once the game is over
    text = out.getvalue()
    assert "New sealed game: 2 players, a seed the server draws (shown at the end), bots ismcts:10, random" in text
    line = play.summary(outcome, seed=outcome.seed, bot_names=["ismcts:10", "random"])
    assert f"seed {outcome.seed}" in line


def test_the_command_plays_a_sealed_game(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--address", address, "--sealed", "--bot", "ismcts:10,greedy", "--quiet"]
    assert play.main(argv) == play.EXIT_FINISHED
    line = capsys.readouterr().out.strip()
    assert "2 players, seed " in line and "bots ismcts:10, greedy (player by player)" in line


@pytest.mark.parametrize("module", ["none", *MODULE_NAMES])
def test_the_compact_board_is_a_line_a_market_row_and_at_most_two_a_player(client: EngineClient, module: str) -> None:
    """The board splendor-play shows a person: the header, the bank with its legend, one line of tiles (and of
    trading posts), one line per market row with each face-up card as ``id: bonus points [cost]``, and a line or
    two per player, mid-game of 4 players."""
    describer = Describer(client.get_catalog())
    state = client.new_game(4, 21, modules=[] if module == "none" else [module]).state
    for _ in range(24):
        state = client.apply(state, client.list_legal_actions(state).actions[0].action).state
    view = client.view(state, 0).view
    lines = compact_board_lines(view, describer)
    assert lines[0].startswith("== Turn ") and lines[1].startswith("Bank ") and lines[1].endswith(LEGEND)
    assert lines[2].startswith("Cities  " if module == "cities" else "Nobles  ")
    rows = [line for line in lines if line[:2] in {"L1", "L2", "L3", "O1", "O2", "O3"}]
    assert [row[:2] for row in rows] == ["L3", "L2", "L1"] + (["O3", "O2", "O1"] if module == "orient" else [])
    for row, deck in zip(rows, [2, 1, 0, 5, 4, 3]):
        slots = view.market[deck].slots
        assert row.count("[") == sum(slot.HasField("card_id") for slot in slots)
        for slot in slots:
            assert f"{slot.card_id}: " in row or not slot.HasField("card_id")
    players = [index for index, line in enumerate(lines) if line.startswith("Player ")]
    assert len(players) == 4 and lines[players[0]].startswith("Player 1 (you)  ")
    posts = 1 if module == "trading_posts" else 0
    assert len(lines) <= 3 + posts + len(rows) + 2 * 4
