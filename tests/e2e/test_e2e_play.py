"""splendor-play against a real server: it narrates what its viewer may see, and ends quietly on a closed output."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from splendor.v1 import events_pb2
from splendor_client import EngineClient, GameResult, play
from splendor_client.describe import deck_name, player_name


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
@pytest.mark.parametrize("modules", [[], ["cities"], ["trading_posts"], ["strongholds"], ["orient"]])
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
