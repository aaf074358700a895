"""splendor-play drives a whole game, prints it, and fails politely."""

from __future__ import annotations

import io
import subprocess
import sys
from collections import Counter
from typing import Any

import grpc
import pytest
from splendor.v1 import actions_pb2, engine_service_pb2, events_pb2, state_pb2, strongholds_pb2
from splendor_client import EngineClient, GameResult, ViewResult, play
from splendor_client import actions as act
from splendor_client.compact_board import short_card
from splendor_client.describe import Describer

from engine_service.runtime.metrics import get_metrics
from tests.client.client_fakes import ScriptedEngine, sample_catalog


def test_play_game_narrates_until_the_end() -> None:
    engine = ScriptedEngine(end_after=4)
    out = io.StringIO()
    outcome = play.play_game(engine, players=2, seed=5, bot_names=["random"], out=out)  # type: ignore[arg-type]
    assert outcome.finished
    assert outcome.state.turn == 4
    assert outcome.calls == 3 + 4 * 4
    text = out.getvalue()
    assert "New game: 2 players, seed 5" in text
    assert "[     deal] A 2-player game is dealt; Player 1 plays first" in text
    assert "Card 12 (level 1, white bonus, 0 points) is revealed" in text
    assert "[   turn 1] Player 1 takes" in text
    assert "[   turn 4] Player 2 takes" in text
    assert "Turn 1 is over" not in text  # the bookkeeping is left out
    assert "Player 1 wins." in text
    assert "1. Player 1: 15 prestige, 9 cards (winner)" in text
    # Every move was sent by the seat that had to act, against the current turn.
    assert [(seat, turn) for _, seat, turn in engine.applied] == [(0, 0), (1, 1), (0, 2), (1, 3)]


class StrongholdsEngine(ScriptedEngine):
    """The scripted game with a Strongholds state at its end."""

    def apply(self, state: state_pb2.GameState, action: Any, **kwargs: Any) -> GameResult:
        result = super().apply(state, action, **kwargs)
        placed = [strongholds_pb2.PlacedStrongholds(card_ids=[12]), strongholds_pb2.PlacedStrongholds()]
        result.state.strongholds.CopyFrom(strongholds_pb2.StrongholdsState(placed=placed))
        return result

    def view(self, state: state_pb2.GameState, seat: int | None = None, events: Any = ()) -> ViewResult:
        result = super().view(state, seat, events)
        if state.HasField("strongholds"):
            result.view.strongholds.CopyFrom(state.strongholds)
        return result


class BlindReserveEngine(ScriptedEngine):
    """Player 2 reserves card 77 blind on its turns; the view redacts it for every other viewer, as the engine does."""

    def apply(self, state: state_pb2.GameState, action: Any, **kwargs: Any) -> GameResult:
        result = super().apply(state, action, **kwargs)
        if state.seat == 1:
            reserved = events_pb2.CardReserved(seat=1, card_id=77, deck=2, blind=True)
            result.events.insert(0, events_pb2.Event(card_reserved=reserved))
        return result

    def view(self, state: state_pb2.GameState, seat: int | None = None, events: Any = ()) -> ViewResult:
        redacted = []
        for event in events:
            copy = events_pb2.Event()
            copy.CopyFrom(event)
            if copy.WhichOneof("kind") == "card_reserved" and copy.card_reserved.seat != seat:
                copy.card_reserved.ClearField("card_id")
            redacted.append(copy)
        return super().view(state, seat, redacted)


@pytest.mark.parametrize(("viewer", "shown"), [(None, False), (0, False), (1, True)])
def test_narration_is_the_viewers(viewer: int | None, shown: bool) -> None:
    out = io.StringIO()
    play.play_game(BlindReserveEngine(end_after=4), viewer=viewer, out=out)  # type: ignore[arg-type]
    text = out.getvalue()
    assert ("card 77" in text) is shown
    assert ("reserves the top card of the level 3 deck (unseen)" in text) is not shown


def test_a_person_plays_a_seat_by_number() -> None:
    engine = ScriptedEngine(end_after=4)
    answers = iter(["", "7", "b", "2", "1"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    outcome = play.play_game(engine, humans=[0], viewer=0, out=out, ask=ask)  # type: ignore[arg-type]
    assert outcome.finished
    text = out.getvalue()
    assert "Your move, Player 1:" in text
    assert "   1. take 1 white, 1 blue, 1 green" in text
    assert "   2. take 2 red" in text
    assert text.count("Please answer a number from 1 to 2, b or q.") == 2
    assert "== Turn 1, round 1: Player 1 (you) to play ==" in text
    assert prompts[0] == "Choose 1-2 (b: the table again, q: quit): "
    # Player 1 answered 2 (take 2 red), then 1; Player 2 is a bot.
    seat0 = [action.WhichOneof("kind") for action, seat, _ in engine.applied if seat == 0]
    assert seat0 == ["take_two_gems", "take_gems"]


@pytest.mark.parametrize("answer", ["q", None])
def test_a_person_who_quits_leaves_the_game_unfinished(
    answer: str | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def ask(prompt: str) -> str:
        if answer is None:
            raise EOFError
        return answer

    with pytest.raises(play.PersonQuit):
        play.play_game(ScriptedEngine(), humans=[1], ask=ask)  # type: ignore[arg-type]
    monkeypatch.setattr(play, "connect", lambda address, timeout=None: ScriptedEngine())
    monkeypatch.setattr("builtins.input", ask)
    assert play.main(["--human", "0"]) == 1
    assert "the game was left unfinished" in capsys.readouterr().err


def test_play_game_ends_with_the_module_state() -> None:
    out = io.StringIO()
    play.play_game(StrongholdsEngine(end_after=2), players=2, seed=1, out=out)  # type: ignore[arg-type]
    lines = out.getvalue().splitlines()
    assert lines[-1] == "  strongholds in supply: 3"  # the final table, from the last view
    assert "  strongholds in supply: 2" in lines
    assert any(line.startswith("== Final table after 2 turns ==") for line in lines)


def test_play_game_stops_at_the_turn_budget() -> None:
    with pytest.raises(play.StuckError, match="--max-turns 3"):
        play.play_game(ScriptedEngine(end_after=100), max_turns=3)  # type: ignore[arg-type]


def test_summary_line() -> None:
    outcome = play.play_game(ScriptedEngine(end_after=4), seed=5)  # type: ignore[arg-type]
    line = play.summary(outcome, seed=5, bot_names=["greedy", "random"])
    assert "\n" not in line
    assert line.startswith("Player 1 wins with 15 prestige after 4 turns (2 rounds): 2 players, seed 5")
    assert "bots greedy, random (player by player)" in line


def test_the_summary_names_the_people_who_played_as_humans(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome = play.play_game(ScriptedEngine(end_after=4), seed=5)  # type: ignore[arg-type]
    line = play.summary(outcome, seed=5, bot_names=["greedy"], humans=[0])
    assert "2 players, seed 5, Player 1 human, Player 2 greedy bot, " in line
    assert "greedy bots" not in line
    # The command says so too, at the start and in its last line.
    answers = iter(["1", "1"])
    monkeypatch.setattr(play, "connect", lambda address, timeout=None: ScriptedEngine(end_after=4))
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert play.main(["--seed", "5", "--bot", "greedy", "--human", "0"]) == 0
    lines = capsys.readouterr().out.rstrip().splitlines()
    assert "New game: 2 players, seed 5, Player 1 human, Player 2 greedy bot; Player 1 is you." in lines
    assert "Player 1 human, Player 2 greedy bot" in lines[-1] and "bots" not in lines[-1]


class ShopEngine(ScriptedEngine):
    """Lists reserves first, then the gems, then a purchase, as an engine may order them."""

    def list_legal_actions(
        self, state: state_pb2.GameState, *, seat: int | None = None
    ) -> engine_service_pb2.ListLegalActionsResponse:
        listed = super().list_legal_actions(state, seat=seat)
        if not listed.actions:
            return listed
        reserves = [
            actions_pb2.LegalAction(action_id=200, action=act.reserve(12)),
            actions_pb2.LegalAction(action_id=300, action=act.reserve_from_deck(0)),
        ]
        purchase = actions_pb2.LegalAction(action_id=100, action=act.purchase(12))
        return engine_service_pb2.ListLegalActionsResponse(
            actions=[*reserves, *listed.actions, purchase], seat=listed.seat
        )


def test_a_person_is_offered_the_buys_first_and_the_reserves_last() -> None:
    out = io.StringIO()
    answers = iter(["1", "5"])
    engine = ShopEngine(end_after=4)
    play.play_game(engine, humans=[0], viewer=0, out=out, ask=lambda prompt: next(answers))  # type: ignore[arg-type]
    listing = out.getvalue().split("Your move, Player 1:\n")[1].split("\n\n")[0].splitlines()
    numbered = [line for line in listing if line.lstrip()[:1].isdigit()]
    assert [line.split(".", 1)[1].split(" (")[0].strip() for line in numbered] == [
        "buy card 12",
        "take 1 white, 1 blue, 1 green",
        "take 2 red",
        "reserve card 12",
        "reserve the top card of the level 1 deck",
    ]
    assert [line for line in listing if line.endswith(":")][:3] == ["  Buy:", "  Take gems:", "  Reserve:"]
    # The numbers are those of the list shown: 1 bought, 5 reserved blind.
    seat0 = [action.WhichOneof("kind") for action, seat, _ in engine.applied if seat == 0]
    assert seat0 == ["purchase_card", "reserve_from_deck"]


def test_a_card_in_short_is_its_id_bonus_points_and_cost() -> None:
    describer = Describer(sample_catalog())
    assert short_card(describer, 57) == "57: r 2pt [4u 1g]"
    assert short_card(describer, 12) == "12: w [2r 1k]"
    assert short_card(describer, 102) == "102: ww [-] double"
    assert short_card(describer, 115) == "115: gives up 2k 3pt [-]"


def test_main_plays_and_exits_zero(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    engine = ScriptedEngine(end_after=6)
    addresses = []

    def fake_connect(address: str, timeout: float | None = None) -> ScriptedEngine:
        addresses.append(address)
        return engine

    monkeypatch.setattr(play, "connect", fake_connect)
    monkeypatch.setenv("SPLENDOR_ADDRESS", "engine.example:1234")
    assert play.main(["--seed", "9", "--bot", "greedy"]) == 0
    out = capsys.readouterr().out
    assert addresses == ["engine.example:1234"]
    assert engine.closed
    assert "seed 9" in out
    assert out.rstrip().splitlines()[-1].startswith("Player 1 wins with 15 prestige after 6 turns")

    assert play.main(["--seed", "9", "--quiet", "--address", "other:1"]) == 0
    out = capsys.readouterr().out
    assert addresses[-1] == "other:1"
    assert len(out.strip().splitlines()) == 1


def test_main_reports_an_unfinished_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(play, "connect", lambda address, timeout=None: ScriptedEngine(end_after=50))
    assert play.main(["--max-turns", "5", "--quiet"]) == 1
    assert "still running after 5 turns" in capsys.readouterr().err


def test_unreachable_server_is_a_message_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert play.main(["--address", "127.0.0.1:1", "--timeout", "5"]) == 2
    captured = capsys.readouterr()
    assert "cannot reach the Splendor engine at 127.0.0.1:1" in captured.err
    assert "splendor-engine serve --address 127.0.0.1:1" in captured.err
    assert "Traceback" not in captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["--bot", "ismcts:0"],
        ["--bot", "greedy,ismcts:many"],
        ["--players", "5"],
        ["--modules", "dragons"],
        ["--max-turns", "0"],
        ["--human", "2"],
        ["--human", "one"],
        ["--view", "north"],
        ["--players", "3", "--view", "3"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        play.main(argv)
    assert exited.value.code == 2
    assert "usage: splendor-play" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("bots", "named"),
    [("clever", "'clever'"), ("greedy,random:3", "'random:3'"), ("greedy:2", "'greedy:2'")],
)
def test_a_bot_the_server_does_not_offer_exits_2_naming_the_ones_it_does(
    bots: str, named: str, loopback_address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play.main(["--address", loopback_address, "--bot", bots, "--quiet"]) == 2
    error = capsys.readouterr().err
    assert f"splendor-play: --bot: no bot {named} here: use random, greedy, ismcts (N iterations: ismcts)" in error


def test_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "splendor_client.play", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "--address" in result.stdout
    assert "--max-turns" in result.stdout


class _Counted(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Counts a channel's calls by method name."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        self.calls[details.method.rsplit("/", 1)[-1]] += 1
        return continuation(details, request)


def _actions_applied() -> float:
    """The in-process server's count of actions applied, every kind."""
    samples = get_metrics().actions_applied.collect()[0].samples
    return sum(sample.value for sample in samples if sample.name.endswith("_total"))


def test_splendor_play_stays_one_apply_action_call_a_move(loopback_address: str) -> None:
    counted = _Counted()
    before = _actions_applied()
    with grpc.insecure_channel(loopback_address) as channel:
        client = EngineClient(grpc.intercept_channel(channel, counted))
        outcome = play.play_game(client, players=2, seed=3, bot_names=["random", "greedy"], out=None)
    assert outcome.finished
    moves = _actions_applied() - before  # the server runs in this process
    assert counted.calls["ApplyAction"] == moves > 0  # one call a move, decisions included
    assert "BatchApplyActions" not in counted.calls  # one game: nothing to batch
    assert sum(counted.calls.values()) == outcome.calls
